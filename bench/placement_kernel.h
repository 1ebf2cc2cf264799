// The baseline row of the playout benchmarks: a placement-only game, written as plainly and as fast as a
// scalar loop allows, to measure what the engine's rules cost on top of edge matching.
//
// It plays the base game's 71 land tiles as BM_RandomPlayout does: shuffle, draw, pick a legal placement
// uniformly, place it; a tile that fits nowhere is discarded. Only edges are matched: no features, no
// figures, no scoring, no copy-cheap state. It uses the engine's algorithms for what both do (each empty
// cell next to the board keeps what its edges require, updated when a neighbour is placed; placements
// are sampled by rejection, the same distribution as picking from the full list), but a dense grid
// indexed by cell key (128 KiB, more than a copy-cheap state can hold) in place of the engine's 2 KiB
// cell table.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "meeple/random.h"
#include "meeple/tiles.h"

namespace meeple {

class PlacementKernel {
 public:
  PlacementKernel() {
    const TileCatalog& c = TileCatalog::get();
    start_ = static_cast<uint8_t>(c.find("BA.RCr"));
    for (auto [tile, copies] : c.set("base")->counts)
      for (int k = 0; k < copies - (tile == start_ ? 1 : 0); ++k) deck_.push_back(tile);
    for (int t = 0; t < c.size(); ++t) {
      const auto& d = c[t].distinct_rotations;
      for (int k = 0; k < 4; ++k) words_[t][k] = k < d.count ? d.edge_word[k] : 0;
      counts_[t] = d.count;
    }
    where_.fill(kUnknown);
  }

  // One whole game; returns the number of tiles placed.
  int play(Rng& rng) {
    for (int i = static_cast<int>(deck_.size()); i > 1; --i)
      std::swap(deck_[i - 1], deck_[rng.below(static_cast<uint32_t>(i))]);
    frontier_.clear();
    touched_.clear();
    put(cell_key(0, 0), TileCatalog::get()[start_].rot[0].edge_word);
    int placed = 1;
    for (const uint8_t tile : deck_) {
      if (!fits_somewhere(tile)) continue;  // discarded
      for (;;) {
        const Cell& cell = frontier_[rng.below(static_cast<uint32_t>(frontier_.size()))];
        const int k = static_cast<int>(rng.below(counts_[tile]));
        if ((words_[tile][k] & cell.req) != cell.req) continue;
        put(cell.key, words_[tile][k]);
        break;
      }
      ++placed;
    }
    for (const CellKey cell : touched_) where_[cell] = kUnknown;
    return placed;
  }

 private:
  struct Cell {
    CellKey key;
    uint16_t req;  // what each edge must be: 4 bits of EdgeKind per edge, 0 where no neighbour
  };
  static constexpr uint16_t kUnknown = 0, kPlaced = 0xFFFF;  // else: frontier position + 1

  bool fits_somewhere(uint8_t tile) const {
    for (const Cell& cell : frontier_)
      for (int k = 0; k < counts_[tile]; ++k)
        if ((words_[tile][k] & cell.req) == cell.req) return true;
    return false;
  }

  void put(CellKey key, uint16_t word) {
    if (where_[key] != kUnknown) {  // leaves the frontier: swap-remove
      const int pos = where_[key] - 1;
      frontier_[pos] = frontier_.back();
      where_[frontier_[pos].key] = static_cast<uint16_t>(pos + 1);
      frontier_.pop_back();
    } else {
      touched_.push_back(key);
    }
    where_[key] = kPlaced;
    for (int e = 0; e < 4; ++e) {
      const CellKey n = neighbour(key, e);
      if (where_[n] == kPlaced) continue;
      if (where_[n] == kUnknown) {
        frontier_.push_back({n, 0});
        where_[n] = static_cast<uint16_t>(frontier_.size());
        touched_.push_back(n);
      }
      uint16_t& req = frontier_[where_[n] - 1].req;
      req = static_cast<uint16_t>(req | (((word >> (4 * e)) & 0xF) << (4 * kOpposite(e))));
    }
  }

  uint8_t start_ = 0;
  std::vector<uint8_t> deck_;
  std::array<std::array<uint16_t, 4>, kMaxTileTypes> words_{};
  std::array<uint8_t, kMaxTileTypes> counts_{};
  std::array<uint16_t, 1 << 16> where_;  // by cell key: kUnknown, kPlaced or frontier position + 1
  std::vector<Cell> frontier_;
  std::vector<CellKey> touched_;
};

}  // namespace meeple
