#pragma once
// A tiny deterministic random source (SplitMix64) whose whole state is one integer, so that
// a state machine can carry it in its state and replay gives the same draws.

#include <cstdint>

namespace runwarden {

inline std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A draw from [0, 1) with 53 bits of precision.
inline double next_unit_random(std::uint64_t& state) {
  return static_cast<double>(next_random(state) >> 11) * 0x1.0p-53;
}

}  // namespace runwarden
