// Seedable random numbers for dealing tiles and for bots: small, fast and reproducible across platforms
// (std::mt19937's distributions are not specified bit for bit, so results would differ between
// standard libraries).
#pragma once

#include <cstdint>

#include "meeple/state.h"

namespace meeple {

// xoshiro256++ seeded through splitmix64 (Blackman & Vigna).
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed) {
    for (uint64_t& w : s_) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      w = z ^ (z >> 31);
    }
  }
  uint64_t next() {
    const uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for our n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Deals tiles: the hidden draw order of a game lives here, never in the State. Drawing uniformly among
// the remaining copies at each chance node is the same as shuffling the stacks once.
class Dealer {
 public:
  explicit Dealer(uint64_t seed) : rng_(seed) {}
  Action deal(const State& state) {
    return Action::draw(state.sample_draw_tile(rng_.below(static_cast<uint32_t>(state.drawable_now()))));
  }

 private:
  Rng rng_;
};

}  // namespace meeple
