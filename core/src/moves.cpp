// Legal actions of the base phases: placements (edge matching, the River's and the shrines' extra rules)
// and deploys on the tile just placed, listed in action order or tested one by one, and why one is refused.
#include "engine.h"

#include <algorithm>
#include <string>

namespace meeple {

// ---- Legal actions -----------------------------------------------------------------------------------

namespace {
// The rotations a mask of rotations holds, ascending (entries past its count are never read as actions).
constexpr auto kRotationsIn = [] {
  std::array<std::array<uint32_t, 4>, 16> table{};
  for (int mask = 0; mask < 16; ++mask) {
    int k = 0;
    for (int r = 0; r < 4; ++r)
      if (mask & (1 << r)) table[mask][k++] = static_cast<uint32_t>(r);
  }
  return table;
}();
constexpr int kBlock = 16;  // frontier cells per step of the vectorized loops
constexpr std::array<uint8_t, 16> kRotationCount = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
}  // namespace

bool State::special_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const {
  if (t.river && !river_placement_ok(t, rotation, cell, req)) return false;
  if (t.cloister >= 0 && rules_.has(kCultPlaces) && !building_placement_ok(t, cell)) return false;
  return true;
}

// A tile fits a frontier cell in a rotation when each constrained edge has the required kind. Edge kinds
// are one bit per nibble, so that is one AND and one compare per rotation, without a branch on whether
// each fits (data no predictor can guess); over the frontier, the compiler tests four cells per
// instruction. A rotation that is not distinct has edge word 0 in `by_rotation`, which fits no frontier
// cell (each has a neighbour, and every edge kind is a nonzero nibble). Bit r of the result: rotation r.
namespace {
inline uint32_t edges_fitting(uint64_t by_rotation, uint32_t frontier_entry) {
  const uint32_t req = frontier_entry & 0xFFFF;
  uint32_t mask = 0;
  for (int r = 0; r < 4; ++r) {
    const uint32_t word = (by_rotation >> (16 * r)) & 0xFFFF;
    mask |= static_cast<uint32_t>((word & req) == req) << r;
  }
  return mask;
}

// The same for one cell at a time: the four rotations in one 64-bit word, a lane of (word & req) ^ req
// zero where the rotation fits. has_placement tests a few cells and stops at the first fit; there the
// form above, vectorized four cells at a time or not, made a random game about 2% slower (measured).
inline uint32_t edges_fitting_swar(uint64_t by_rotation, uint32_t frontier_entry) {
  constexpr uint64_t kLow15 = 0x7FFF7FFF7FFF7FFFull, kLanes = 0x0001000100010001ull;
  const uint64_t wanted = (frontier_entry & 0xFFFF) * kLanes;
  const uint64_t missing = (by_rotation & wanted) ^ wanted;
  const uint64_t fits = ~(((missing & kLow15) + kLow15) | missing) & ~kLow15;  // bit 15 of each zero lane
  // Gathers bits 15, 31, 47, 63 into bits 48-51 (the other products land elsewhere, without carries).
  constexpr uint64_t kGather = (1ull << 48) | (1ull << 33) | (1ull << 18) | (1ull << 3);
  return static_cast<uint32_t>((((fits >> 15) * kGather) >> 48) & 0xF);
}
}  // namespace

// Of the rotations whose edges fit, those the River's and the shrines' rules allow too (for a tile with
// needs_special_check).
uint32_t State::special_fitting(const TileType& t, uint32_t mask, uint32_t frontier_entry) const {
  for (unsigned m = mask; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    if (!special_placement_ok(t, r, static_cast<CellKey>(frontier_entry >> 16), static_cast<uint16_t>(frontier_entry)))
      mask &= ~(1u << r);
  }
  return mask;
}

// Each frontier cell's rotations that fit, in frontier order.
void State::fitting_masks(const TileType& t, bool special, std::array<uint8_t, kMaxFrontier>& masks) const {
  uint8_t* __restrict out = masks.data();  // (a write through it changes no frontier entry)
  const uint64_t by_rotation = t.distinct_rotations.by_rotation;
  const uint32_t* frontier = board_.frontier.data();
  const int n = board_.frontier_size;
  // Whole blocks of kBlock cells, past the frontier's end too (entries there hold old or zero values, never
  // read as cells), so that the compiler leaves no cell to a scalar remainder loop.
  static_assert(kMaxFrontier % kBlock == 0);
  for (int first = 0; first < n; first += kBlock)
    for (int i = first; i < first + kBlock; ++i) out[i] = static_cast<uint8_t>(edges_fitting(by_rotation, frontier[i]));
  if (special)
    for (int i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(special_fitting(t, out[i], frontier[i]));
}

void State::generate_placements(ActionList& out) const {
  // The frontier is kept in the order cells joined it (O(1) updates), but the list is promised in action
  // order: cell key (row by row), then rotation. On a narrow board the cells that take the tile are
  // marked on a grid over the board's extent, as wide as its cells (so that few words hold the marks),
  // row by row as keys go, and read back in order; a wide board sorts them.
  const TileType& t = cat()[flow_.drawn];
  const bool special = needs_special_check(t);
  int n = out.size;
  // A cell's placements are written four at a time and the list grows by the number that fit: no branch
  // per rotation. The writes stay in the list, which has room for four per frontier cell and is empty
  // here (both callers start from an empty list).
  auto list = [&](uint32_t cell_and_mask) {
    const CellKey cell = static_cast<CellKey>(cell_and_mask >> 16);
    const uint32_t mask = cell_and_mask & 0xF;
    // A placement's rotation is its low 2 bits (Action::place per rotation: 4.6% more instructions in
    // full-list games, callgrind).
    const uint32_t rotation_0 = Action::place(cell, 0).bits();
    for (int k = 0; k < 4; ++k) out.items[n + k] = Action::from_bits(rotation_0 | kRotationsIn[mask][k]);
    n += kRotationCount[mask];
  };
  std::array<uint8_t, kMaxFrontier> masks;
  fitting_masks(t, special, masks);
  if (!board_.wide) {
    const int x0 = board_.min_x - 1, y0 = board_.min_y - 1;
    const int width = board_.max_x - board_.min_x + 3;  // at most 32 on a narrow board
    std::array<uint64_t, 1024 / 64> marked{};
    std::array<uint32_t, 1024> fitting;  // (cell key << 16) | rotation mask, read only where marked
    // Each cell's place on the grid, in a loop of its own that the compiler vectorizes (3% of listing).
    std::array<uint16_t, kMaxFrontier> ats;
    for (int first = 0; first < board_.frontier_size; first += kBlock)
      for (int i = first; i < first + kBlock; ++i) {
        const CellKey cell = static_cast<CellKey>(board_.frontier[i] >> 16);
        ats[i] = static_cast<uint16_t>((key_y(cell) - y0) * width + key_x(cell) - x0);
      }
    for (int i = 0; i < board_.frontier_size; ++i) {
      const uint32_t entry = board_.frontier[i];
      const unsigned at = ats[i];
      const uint32_t mask = masks[i];
      fitting[at] = (entry & 0xFFFF0000u) | mask;
      marked[at / 64] |= static_cast<uint64_t>(mask != 0) << (at % 64);
    }
    const int words = ((board_.max_y - board_.min_y + 3) * width + 63) / 64;
    for (int w = 0; w < words; ++w)
      for (uint64_t bits = marked[w]; bits; bits &= bits - 1) list(fitting[w * 64 + __builtin_ctzll(bits)]);
  } else {
    std::array<uint32_t, kMaxFrontier> fitting;  // (cell key << 16) | rotation mask
    int num_fitting = 0;
    for (int i = 0; i < board_.frontier_size; ++i) {
      const uint32_t mask = masks[i];
      fitting[num_fitting] = (board_.frontier[i] & 0xFFFF0000u) | mask;
      num_fitting += mask != 0;
    }
    std::sort(fitting.begin(), fitting.begin() + num_fitting);
    for (int i = 0; i < num_fitting; ++i) list(fitting[i]);
  }
  out.size = n;
}

bool State::has_placement() const {
  const TileType& t = cat()[flow_.drawn];
  const bool special = needs_special_check(t);
  // Newest cells first: they have the fewest neighbours, so a fit is found soonest. The newest four are
  // tried together, without a branch per cell (a frontier next to tiles has four cells at least).
  int i = board_.frontier_size;
  if (!special && i >= 4) {
    uint32_t any = 0;
    for (int k = 1; k <= 4; ++k) any |= edges_fitting_swar(t.distinct_rotations.by_rotation, board_.frontier[i - k]);
    if (any) return true;
    i -= 4;
  }
  while (--i >= 0) {
    const uint32_t mask = edges_fitting_swar(t.distinct_rotations.by_rotation, board_.frontier[i]);
    if (mask && (!special || special_fitting(t, mask, board_.frontier[i]))) return true;
  }
  return false;
}

// Deploys on the tile just placed, in action order: followers by segment, then the mayor (an unoccupied
// city, M1), the wagon (an unoccupied road, city, cloister, shrine or abbey, W1), the barn (a corner, F1).
// No follower on the volcano (R7) or a river (B5), no farmer on a farm with a barn (F3), only a monk or
// a wagon on the abbey (A2).
template <typename Emit>
bool State::for_each_deploy(Emit&& emit) const {
  const int p = flow_.turn_player;
  const PlacedTile& pt = board_.tiles[flow_.last_tile];
  const TileType& tt = cat()[pt.type];
  const bool volcano = tt.has(kFlagVolcano) && rules_.on(Option::kVolcanoNoFollower);  // the barn is no follower [AM fn 43]
  // Whether a figure may go on segment s: not a river, in an unoccupied feature, and for a field, one
  // without a barn (F3; `barns`: the game has them, Abbey & Mayor).
  auto segment_free = [&](int s, bool barns) {
    const SegmentKind kind = tt.segments[s].kind;
    if (kind == SegmentKind::kRiver) return false;
    const int root = find(pt.node_base + s);
    return !occupied(root) && !(barns && kind == SegmentKind::kField && has_barn(root));
  };
  // Without Abbey & Mayor only followers go on the tile: a direct loop over its segments (the general
  // one below caches lookups for three figure kinds; this one mispredicts 8% fewer branches over random
  // base games).
  if (!abbey_mayor()) {
    if (volcano || !in_supply(p, Figure::kFollower)) return false;
    for (int s = 0; s < tt.num_segments; ++s)
      if (segment_free(s, false) && emit(Action::deploy(Figure::kFollower, s))) return true;
    return false;
  }
  constexpr Figure kOnSegments[] = {Figure::kFollower, Figure::kMayor, Figure::kWagon};
  bool any_in_supply = false;
  std::array<bool, 3> supply;
  for (int i = 0; i < 3; ++i) any_in_supply |= supply[i] = in_supply(p, kOnSegments[i]);
  if (!volcano && any_in_supply) {  // the features are looked at only when a figure could go there
    // Whether a segment lies in an unoccupied feature (and, for fields, one without a barn), looked up
    // when first asked: can_deploy usually stops at the first segment.
    std::array<int8_t, kMaxSegments> free;  // -1: not looked up yet
    free.fill(-1);
    auto is_free = [&](int s) {
      if (free[s] < 0) free[s] = segment_free(s, true);
      return free[s] != 0;
    };
    const bool abbey = tt.has(kFlagAbbey);
    for (int i = 0; i < 3; ++i) {
      if (!supply[i]) continue;
      const Figure f = kOnSegments[i];
      for (int s = 0; s < tt.num_segments; ++s) {
        const SegmentKind kind = tt.segments[s].kind;
        if (f == Figure::kMayor && (kind != SegmentKind::kCity || abbey)) continue;
        if (f == Figure::kWagon && kind == SegmentKind::kField) continue;
        if (is_free(s) && emit(Action::deploy(f, s))) return true;
      }
    }
  }
  if (in_supply(p, Figure::kBarn))
    for (int k = 0; k < 4; ++k)
      if (barn_corner_ok(k) && emit(Action::deploy(Figure::kBarn, k))) return true;
  return false;
}

void State::generate_deploys(ActionList& out) const {
  for_each_deploy([&out](Action a) {
    out.push(a);
    return false;
  });
}

bool State::can_deploy() const {
  return for_each_deploy([](Action) { return true; });
}

bool State::is_legal_placement(Action a) const {
  const int canonical = cat()[flow_.drawn].rot[a.rotation()].canonical;
  ActionList list;
  generate_placements(list);
  return list.contains(Action::place(a.cell(), canonical));
}

// ---- Why an action is refused ---------------------------------------------------------------------------

std::string State::why_not_placement(Action a) const {
  const TileType& t = cat()[flow_.drawn];
  const std::string at = "(" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ")";
  if (find_cell(a.cell()) >= 0) return "cell " + at + " already holds a tile";
  if (frontier_index(a.cell()) < 0) return "cell " + at + " does not touch the board (B3)";
  const std::string what = t.id + " at " + at + " rotated " + std::to_string(90 * a.rotation());
  if (t.river)
    return what + " does not continue the river legally: its edges must match, it must extend exactly one open river end, and no curve may turn the same way as the one before it (B3, R3-R5)";
  return what + " does not match its neighbours' edges (B3)";
}

std::string State::why_not_deploy(Action a) const {
  const TileType& t = cat()[board_.tiles[flow_.last_tile].type];
  if (a.figure() != Figure::kFollower && !abbey_mayor()) return std::string("no ") + to_string(a.figure()) + " in these rules";
  if (!in_supply(flow_.turn_player, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
  if (a.figure() == Figure::kBarn)
    return "a barn goes on a corner of the tile just placed where four tiles meet with fields in all four corners, on a farm without a barn (F1)";
  if (a.figure() == Figure::kMayor) return "the mayor goes only into an unoccupied city (M1)";
  if (a.figure() == Figure::kWagon) return "the wagon goes only onto an unoccupied road, city, cloister, shrine or abbey (W1)";
  if (a.segment() >= t.num_segments) return "the tile just placed has no such segment";
  if (t.has(kFlagVolcano)) return "no follower may be deployed on the volcano (R7)";
  if (t.segments[a.segment()].kind == SegmentKind::kRiver) return "no follower may go on a river (B5)";
  return "that feature is already occupied (B5)";
}

}  // namespace meeple
