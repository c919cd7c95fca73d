#pragma once
// The keeper's own log lines, rare ones (a warden ended, an upgrade), in the form the
// warden's log has ([log] format, which the warden names in its hello). Written only when
// stderr can take them now: the keeper never waits for its log's reader.

namespace runwarden {

class keeper_log {
 public:
  void line(const char* format, ...) __attribute__((format(printf, 2, 3)));
  // Logs `what` failed with `error` and returns `exit_code`.
  int error_exit(const char* what, int error, int exit_code);
  void set_json(bool json) { json_ = json; }
  bool json() const { return json_; }

 private:
  bool json_ = false;
};

}  // namespace runwarden
