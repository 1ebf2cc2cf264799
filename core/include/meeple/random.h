// Seedable random numbers for dealing tiles and for bots: small, fast and reproducible across platforms
// (std::mt19937's distributions are not specified bit for bit, so results would differ between
// standard libraries).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

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

// Deals tiles: the hidden draw order of a game lives here, never in the State. On its first deal the
// dealer shuffles each pile of the state it is given (the fork, the river, the lake, the normal tiles);
// it then deals that order for as long as the state is that game going on, and draws uniformly among
// the remaining copies otherwise (a state it did not start with): the same distribution either way.
class Dealer {
 public:
  explicit Dealer(uint64_t seed) : rng_(seed) {}

  Action deal(const State& state) {
    if (size_ == 0) shuffle(state);
    const Action next = in_order(state);
    if (next != Action::none()) return next;
    return Action::draw(state.sample_draw_tile(rng_.below(static_cast<uint32_t>(state.drawable_now()))));
  }

  // The draw the shuffled order gives `state`, or Action::none() if `state` is not that game going on.
  Action in_order(const State& state) const {
    const int next = size_ - state.tiles_left();
    if (next >= 0 && next < size_) {
      const int tile = order_[next];
      if (state.remaining(tile) > 0 && State::draw_pile(tile) == state.drawable_pile()) return Action::draw(tile);
    }
    return Action::none();
  }

  // The order the dealer deals from `state`: each pile shuffled (Fisher-Yates), piles in draw order, a
  // pile's copies put in by tile type before the shuffle.
  int shuffle(const State& state) {
    size_ = 0;
    for (int pile : State::kPileOrder) {
      const int first = size_;
      for (const uint8_t t : State::pile_members(pile))
        for (int k = 0; k < state.remaining(t); ++k) order_[size_++] = t;
      for (int i = size_; i > first + 1; --i)
        std::swap(order_[i - 1], order_[first + static_cast<int>(rng_.below(static_cast<uint32_t>(i - first)))]);
    }
    return size_;
  }
  int order(int i) const { return order_[i]; }

 private:
  Rng rng_;
  int size_ = 0;
  std::array<uint8_t, kMaxTiles> order_{};
};

}  // namespace meeple
