// How many journal records per second the writer appends: without fsync (the encoding and
// write() alone), with an fsync after every record (the default, what durability costs),
// and with one fsync per batch of records. The journal goes to RUNWARDEN_BENCH_DIR, else
// the current directory: /tmp may be a tmpfs, where fsync costs nothing and proves nothing.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "src/drain/drain_machine.hpp"
#include "src/journal/journal_writer.hpp"

namespace {

using namespace runwarden;
using namespace std::chrono_literals;

std::filesystem::path bench_directory() {
  const char* chosen = std::getenv("RUNWARDEN_BENCH_DIR");
  std::string pattern =
      (std::filesystem::path{chosen ? chosen : "."} / "journal-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error{"mkdtemp failed"};
  return pattern;
}

journal_header bench_header() {
  return journal_header{.created_by = "bench",
                        .created_unix_ns = 0,
                        .config = drain_config{.graceful_signal = SIGQUIT,
                                               .forceful_signal = SIGTERM,
                                               .restart = {},
                                               .drain_timeout = 1h,
                                               .kill_timeout = 10s,
                                               .random_seed = 1}};
}

// A typical record: a runner exit and the two effects it causes (about 70 bytes framed).
void append_records(benchmark::State& state, std::uint32_t records_per_sync) {
  const auto directory = bench_directory();
  {
    auto open = journal_writer::create(directory / "journal", bench_header(), {records_per_sync});
    if (!open.writer) {
      state.SkipWithError(open.error.c_str());
      return;
    }
    const drain_event event = runner_exited{4242, exit_status{false, 1}};
    const std::vector<drain_effect> effects{
        arm_timer{timer_kind::restart_backoff, 7, instant{1500ms}},
        report{report_level::warning, "runner exited with exit code 1; restart in 1.2s"}};
    instant now{0};
    for (auto _ : state) {
      if (auto error = open.writer->append(now += 1ms, event, effects)) {
        state.SkipWithError(error->c_str());
        break;
      }
    }
    if (auto error = open.writer->sync()) state.SkipWithError(error->c_str());
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes_per_record"] =
        static_cast<double>(open.writer->size_bytes()) /
        static_cast<double>(std::max<std::int64_t>(state.iterations(), 1));
  }
  std::filesystem::remove_all(directory);
}

void append_without_fsync(benchmark::State& state) { append_records(state, 0); }
void append_fsync_every_record(benchmark::State& state) { append_records(state, 1); }
void append_fsync_per_batch(benchmark::State& state) {
  append_records(state, static_cast<std::uint32_t>(state.range(0)));
}

// Wall-clock time: an fsync waits for the disk, which CPU time does not see.
BENCHMARK(append_without_fsync)->UseRealTime();
BENCHMARK(append_fsync_every_record)->MinTime(2.0)->UseRealTime();
BENCHMARK(append_fsync_per_batch)->Arg(16)->Arg(128)->MinTime(2.0)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
