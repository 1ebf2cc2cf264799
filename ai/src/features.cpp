#include "meeple/ai/features.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace meeple {
namespace {

// The remaining tile types, laid out for fit counts: one array per rotation slot (the distinct rotations'
// edge words, then zeros), so that the compiler counts several types per vector instruction.
struct RemainingTiles {
  static constexpr int kLanes = 16;
  // Filled up to `size` only (zeroing the rest cost a tenth of an evaluation).
  alignas(32) std::array<std::array<uint16_t, kMaxTileTypes + kLanes>, 4> edge_word;
  alignas(32) std::array<uint16_t, kMaxTileTypes + kLanes> copies;
  int size = 0;   // types with copies left, rounded up to whole lanes (the padding has no copies)
  int total = 0;  // copies left

  explicit RemainingTiles(const State& state) {
    const TileCatalog& cat = TileCatalog::get();
    int n = 0;
    for (int t = 0; t < cat.size(); ++t) {
      const int left = state.remaining(t);
      if (left == 0) continue;
      const auto& d = cat[t].distinct_rotations;
      for (int k = 0; k < 4; ++k) edge_word[k][n] = d.edge_word[k];
      copies[n++] = static_cast<uint16_t>(left);
      total += left;
    }
    size = (n + kLanes - 1) / kLanes * kLanes;
    for (; n < size; ++n) {
      for (auto& words : edge_word) words[n] = 0;
      copies[n] = 0;
    }
  }

  // Copies that fit `requirement` in some rotation. Without a branch on whether a rotation fits (data no
  // predictor can guess): a rotation past a type's distinct ones has edge word 0, which fits no cell
  // (every frontier cell has a constrained edge), and padding has no copies.
  int fitting(uint16_t requirement) const {
    uint16_t n = 0;  // at most the copies of all tiles, which kMaxLandTiles keeps within 16 bits
    for (int i = 0; i < size; ++i) {
      const bool fits = ((edge_word[0][i] & requirement) == requirement) | ((edge_word[1][i] & requirement) == requirement) |
                        ((edge_word[2][i] & requirement) == requirement) | ((edge_word[3][i] & requirement) == requirement);
      n = static_cast<uint16_t>(n + (copies[i] & -static_cast<uint16_t>(fits)));
    }
    return n;
  }
};

constexpr float kStuckOdds = 0.05f;

}  // namespace

int fitting_tiles(const State& state, int frontier_index) {
  return RemainingTiles(state).fitting(state.frontier_requirement(frontier_index));
}

void extract_features(const State& state, std::span<float> out) {
  const int players = state.num_players();
  assert(static_cast<int>(out.size()) >= players * kNumFeatures);
  std::fill(out.begin(), out.begin() + players * kNumFeatures, 0.0f);
  auto row = [&](int p) { return out.data() + p * kNumFeatures; };

  const TileCatalog& cat = TileCatalog::get();
  const RemainingTiles remaining(state);
  const int left = remaining.total;
  const float left_fraction = static_cast<float>(left) / static_cast<float>(left + state.num_tiles());
  // Chance that a cell fitting `fit` of the remaining tiles gets one of them.
  const float draws = std::max(1.0f, static_cast<float>(left) / static_cast<float>(players));
  auto fill_odds = [&](int fit) {
    if (left == 0 || fit == 0) return 0.0f;
    return 1.0f - std::pow(1.0f - static_cast<float>(fit) / static_cast<float>(left), draws);
  };

  // Features with figures on them: only their open cells matter.
  std::array<uint16_t, kMaxPlayers * kFiguresPerPlayer> figure_roots;
  int num_roots = 0;
  state.for_each_figure([&](int, int, int node) {
    const auto root = static_cast<uint16_t>(state.feature_root(node));
    if (std::find(figure_roots.begin(), figure_roots.begin() + num_roots, root) == figure_roots.begin() + num_roots)
      figure_roots[num_roots++] = root;
  });
  auto root_index = [&](int root) {
    return static_cast<int>(std::find(figure_roots.begin(), figure_roots.begin() + num_roots, root) - figure_roots.begin());
  };

  // Odds of each frontier cell, by its requirement (cells often share one), computed when first needed.
  struct CachedOdds {
    uint16_t requirement;
    float odds;
  };
  std::array<CachedOdds, 48> cache;
  int cached = 0;
  auto odds_of = [&](uint16_t req) {
    for (int c = 0; c < cached; ++c)
      if (cache[c].requirement == req) return cache[c].odds;
    const float odds = fill_odds(remaining.fitting(req));
    if (cached == static_cast<int>(cache.size())) cached = 0;  // rare: start over
    cache[cached++] = CachedOdds{req, odds};
    return odds;
  };
  // An open city's or road's odds: the product of its open cells' odds, each distinct cell once. Its open
  // cells are the empty squares across the edges of its segments, found by walking its members (a few)
  // rather than every frontier cell's neighbours.
  auto linear_odds = [&](int root) {
    std::array<uint64_t, (kMaxFrontier + 63) / 64> open_cells{};  // by frontier position
    state.for_each_member(root, [&](int m) {
      const PlacedTile& pt = state.tile(state.node_tile(m));
      const auto& edge_segment = cat[pt.type].rot[pt.rotation].edge_segment;
      const CellKey here = cell_key(pt.x, pt.y);
      for (int e = 0; e < 4; ++e) {
        if (edge_segment[e] != m - pt.node_base) continue;
        const int f = state.frontier_index(neighbour(here, e));
        if (f >= 0) open_cells[f >> 6] |= uint64_t{1} << (f & 63);
      }
    });
    float odds = 1.0f;
    for (int w = 0; w < static_cast<int>(open_cells.size()); ++w)
      for (uint64_t bits = open_cells[w]; bits; bits &= bits - 1)
        odds *= odds_of(state.frontier_requirement(64 * w + __builtin_ctzll(bits)));
    return odds;
  };
  std::array<float, kMaxPlayers * kFiguresPerPlayer> root_odds;  // by root_index, once computed
  std::array<bool, kMaxPlayers * kFiguresPerPlayer> root_odds_known{};
  float off_frontier_odds = -1;  // a square not yet next to the board: half the tiles fit (computed once)
  auto cloister_odds = [&](int tile_index) {
    const PlacedTile& pt = state.tile(tile_index);
    float odds = 1.0f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (state.tile_at(pt.x + dx, pt.y + dy) >= 0) continue;
        const int f = state.frontier_index(cell_key(pt.x + dx, pt.y + dy));
        if (f >= 0) {
          odds *= odds_of(state.frontier_requirement(f));
        } else {
          if (off_frontier_odds < 0) off_frontier_odds = fill_odds(left / 2);
          odds *= off_frontier_odds;
        }
      }
    return odds;
  };

  // Features with figures on them, each valued once for its leaders; each figure for its owner.
  std::array<bool, kMaxPlayers * kFiguresPerPlayer> valued{};
  state.for_each_figure([&](int p, int slot, int node) {
    const int r = root_index(state.feature_root(node));
    const FeatureInfo info = state.feature(node);
    const bool building = info.kind == SegmentKind::kCloister || info.kind == SegmentKind::kShrine;
    const bool field = info.kind == SegmentKind::kField;
    float odds = 0.0f;
    if (building) {
      odds = cloister_odds(state.node_tile(node));
    } else if (!field && info.open_edges > 0) {  // a city or road
      if (!root_odds_known[r]) root_odds[r] = linear_odds(state.feature_root(node)), root_odds_known[r] = true;
      odds = root_odds[r];
    }
    if (slot != kBarnSlot) {
      if (field) {
        row(p)[kFeatFarmersLeft] += left_fraction;
      } else {
        row(p)[kFeatReturningLeft] += odds * left_fraction;
        row(p)[kFeatStuck] += odds < kStuckOdds;
      }
    }
    if (field || valued[r]) return;
    valued[r] = true;
    const int best = *std::max_element(info.followers.begin(), info.followers.begin() + players);
    if (best == 0) return;  // no figure with strength: nobody leads
    int leaders = 0;
    for (int q = 0; q < players; ++q) leaders += info.followers[q] == best;
    for (int q = 0; q < players; ++q) {
      if (info.followers[q] != best) continue;
      float* leader = row(q);
      leader[kFeatOpenLeads] += 1;
      leader[kFeatSharedLeads] += leaders > 1;
      if (info.kind == SegmentKind::kCity) leader[kFeatCityCompletion] += static_cast<float>(info.tiles + info.pennants) * odds;
      if (building) leader[kFeatCloisterCompletion] += static_cast<float>(8 - state.tile(state.node_tile(node)).around) * odds;
    }
  });

  const auto if_ended = state.final_scores_if_ended_now();
  for (int p = 0; p < players; ++p) {
    float* r = row(p);
    r[kFeatBias] = 1;
    r[kFeatScore] = static_cast<float>(state.score(p));
    r[kFeatBoardPoints] = static_cast<float>(if_ended[p] - state.score(p));
    r[kFeatSupplyLeft] = static_cast<float>(state.followers_in_supply(p)) * left_fraction;
    r[kFeatKing] = state.king() == p;
    r[kFeatRobber] = state.robber() == p;
    int special = state.has_abbey(p);
    if (state.rules().has(kAbbeyMayor))
      for (Figure f : {Figure::kMayor, Figure::kWagon, Figure::kBarn}) special += state.in_supply(p, f);
    r[kFeatSpecialLeft] = static_cast<float>(special) * left_fraction;
    if (state.rules().has(kCount))
      for (int q = 0; q < kNumQuarters; ++q) r[kFeatQuarterFollowers] += static_cast<float>(state.followers_in_quarter(p, q));
    r[kFeatTilesLeft] = left_fraction;
  }
}

}  // namespace meeple
