#pragma once
// runwarden's assertion. It stays on in every build, release included, NDEBUG or not, as
// TigerBeetle keeps its assertions on: a broken invariant stops the process loudly (the
// expression, file and line on stderr, then abort) instead of letting it run on in a state
// nobody designed for. Assertions state what must hold in runwarden's own code; operating
// errors (bad input, a failed call, an unreachable server) are handled, never asserted.
//
// The condition is evaluated exactly once, whatever its value, so a call in it runs once;
// keep it free of side effects all the same, since it reads as a statement of fact.

namespace runwarden::detail {

// Writes "runwarden: assertion failed: EXPRESSION (FILE:LINE)" to stderr and aborts.
[[noreturn]] void assertion_failed(const char* expression, const char* file, int line) noexcept;

}  // namespace runwarden::detail

#define RUNWARDEN_ASSERT(condition)                  \
  (__builtin_expect(static_cast<bool>(condition), 1) \
       ? static_cast<void>(0)                        \
       : ::runwarden::detail::assertion_failed(#condition, __FILE__, __LINE__))
