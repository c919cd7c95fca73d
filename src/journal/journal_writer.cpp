// See journal_writer.hpp.
#include "src/journal/journal_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "src/drain/drain_effect_text.hpp"
#include "src/journal/journal_codec.hpp"
#include "src/journal/journal_frame.hpp"
#include "src/journal/state_directory.hpp"

namespace runwarden {

namespace {

std::string system_error_text(const std::string& what, const std::filesystem::path& file) {
  return what + " " + file.string() + ": " + std::strerror(errno);
}

// Loops over short writes; EINTR is retried, anything else reported.
bool write_fully(int descriptor, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto written = ::write(descriptor, bytes.data() + done, bytes.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    done += static_cast<std::size_t>(written);
  }
  return true;
}

journal_open open_failed(std::string error) { return journal_open{std::nullopt, std::move(error)}; }

// Writes prologue and header into `staging` and syncs it; the error text, if any.
std::optional<std::string> write_staging(const std::filesystem::path& staging,
                                         const journal_header& header) {
  const int descriptor = ::open(
      staging.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (descriptor < 0) return system_error_text("cannot create journal", staging);
  const auto bytes = encode_prologue() + encode_frame(encode_record(header));
  const bool written = write_fully(descriptor, bytes) && ::fsync(descriptor) == 0;
  auto error =
      written ? std::optional<std::string>{} : system_error_text("cannot write journal", staging);
  ::close(descriptor);
  return error;
}

}  // namespace

journal_open journal_writer::create(const std::filesystem::path& file, const journal_header& header,
                                    journal_sync_policy policy) {
  std::error_code ignored;
  if (std::filesystem::exists(file, ignored))
    return open_failed("journal " + file.string() + " exists already; recover or retire it");
  auto staging = file;
  staging += ".new";
  if (auto error = write_staging(staging, header)) {
    std::filesystem::remove(staging, ignored);
    return open_failed(*error);
  }
  if (::rename(staging.c_str(), file.c_str()) != 0)
    return open_failed(system_error_text("cannot rename journal into place", file));
  if (auto error = sync_directory(file.parent_path().empty() ? "." : file.parent_path()))
    return open_failed(*error);
  return reopen(file, 0, policy);
}

journal_open journal_writer::reopen(const std::filesystem::path& file,
                                    std::uint64_t entries_present, journal_sync_policy policy) {
  const int descriptor = ::open(file.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor < 0) return open_failed(system_error_text("cannot open journal", file));
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) {
    auto error = system_error_text("cannot stat journal", file);
    ::close(descriptor);
    return open_failed(error);
  }
  return journal_open{journal_writer{file, descriptor, entries_present + 1,
                                     static_cast<std::uint64_t>(status.st_size), policy},
                      {}};
}

journal_writer::journal_writer(std::filesystem::path file, int descriptor,
                               std::uint64_t next_sequence, std::uint64_t size_bytes,
                               journal_sync_policy policy)
    : file_(std::move(file)),
      descriptor_(descriptor),
      next_sequence_(next_sequence),
      size_bytes_(size_bytes),
      policy_(policy) {}

journal_writer::journal_writer(journal_writer&& other) noexcept
    : file_(std::move(other.file_)),
      descriptor_(std::exchange(other.descriptor_, -1)),
      next_sequence_(other.next_sequence_),
      size_bytes_(other.size_bytes_),
      policy_(other.policy_),
      unsynced_records_(other.unsynced_records_),
      write_failed_(other.write_failed_),
      sync_failed_(other.sync_failed_) {}

journal_writer& journal_writer::operator=(journal_writer&& other) noexcept {
  if (this == &other) return *this;
  if (descriptor_ >= 0) ::close(descriptor_);
  file_ = std::move(other.file_);
  descriptor_ = std::exchange(other.descriptor_, -1);
  next_sequence_ = other.next_sequence_;
  size_bytes_ = other.size_bytes_;
  policy_ = other.policy_;
  unsynced_records_ = other.unsynced_records_;
  write_failed_ = other.write_failed_;
  sync_failed_ = other.sync_failed_;
  return *this;
}

journal_writer::~journal_writer() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

std::optional<std::string> journal_writer::append(instant at, const drain_event& event,
                                                  const std::vector<drain_effect>& effects) {
  if (sync_failed_) return "journal " + file_.string() + " is unusable after a failed sync";
  if (write_failed_)
    if (auto error = cut_partial_record()) return error;
  journal_entry entry{.sequence = next_sequence_, .at = at, .event = event, .effects = {}};
  entry.effects.reserve(effects.size());
  for (const auto& effect : effects) entry.effects.push_back(to_string(effect));
  const auto payload = encode_record(entry);
  if (payload.size() > record_bytes_max)
    return "journal record " + std::to_string(entry.sequence) + " of " +
           std::to_string(payload.size()) + " bytes exceeds the maximum";
  const auto frame = encode_frame(payload);
  if (!write_fully(descriptor_, frame)) {
    write_failed_ = true;
    return system_error_text("cannot append to", file_);
  }
  ++next_sequence_;
  size_bytes_ += frame.size();
  ++unsynced_records_;
  if (policy_.records_per_sync != 0 && unsynced_records_ >= policy_.records_per_sync) return sync();
  return std::nullopt;
}

std::optional<std::string> journal_writer::cut_partial_record() {
  if (::ftruncate(descriptor_, static_cast<off_t>(size_bytes_)) != 0)
    return system_error_text("cannot cut a partly written record from", file_);
  write_failed_ = false;
  return std::nullopt;
}

std::optional<std::string> journal_writer::sync() {
  if (unsynced_records_ == 0) return std::nullopt;
  if (::fdatasync(descriptor_) != 0) {
    // After a failed fsync the kernel may have dropped the dirty pages: nothing is certain.
    sync_failed_ = true;
    return system_error_text("cannot sync", file_);
  }
  unsynced_records_ = 0;
  return std::nullopt;
}

}  // namespace runwarden
