// The board and its features: the cell table, the frontier with what each empty cell's edges require,
// the union-find over feature segments with its aggregates, and placing a tile (docs/rules.md B3, B6, B8).
#include "engine.h"

#include <algorithm>
#include <cstring>

namespace meeple {

// ---- Small structures -------------------------------------------------------------------------------

int State::frontier_index(CellKey k) const {
  const uint16_t v = board_.cells[cell_slot(k)];
  return (v != kEmptySlot && (v & kFrontierFlag) && cell_in_slot(v) == k) ? (v & ~kFrontierFlag) : -1;
}

// Without a branch on whether the cell is new to the frontier: written either way.
// The selects are masks: g++ turns the obvious conditionals into branches, which mispredict here.
void State::frontier_set(int slot, CellKey k, int edge, uint16_t edge_kind_bits) {
  const uint32_t was = board_.cells[slot];
  const uint32_t is_new = was == kEmptySlot;
  const uint32_t new_mask = 0u - is_new;  // all ones for a new cell
  const uint32_t pos = (board_.frontier_size & new_mask) | (was & ~kFrontierFlag & ~new_mask);
  // A new cell's position is frontier_size, below kMaxFrontier: the entry read there (zero or a cell that
  // left the frontier, never uninitialised: see the constructor) is discarded.
  const uint32_t entry = ((static_cast<uint32_t>(k) << 16) & new_mask) | (board_.frontier[pos] & ~new_mask);
  board_.cells[slot] = static_cast<uint16_t>(kFrontierFlag | pos);
  board_.frontier[pos] = entry | static_cast<uint32_t>(edge_kind_bits) << (4 * edge);
  board_.frontier_size = static_cast<uint16_t>(board_.frontier_size + is_new);
}

// The tile (board_.tiles[index], already written) goes on cell k. The cell is marked placed before the
// last frontier entry moves into the place it leaves, so that a wide board's probes never see two
// slots naming that entry.
void State::occupy_cell(CellKey k, int index) {
  const int slot = cell_slot(k);
  const uint16_t was = board_.cells[slot];
  board_.cells[slot] = static_cast<uint16_t>(index);
  if (was != kEmptySlot) {  // a frontier cell: swap-remove it from the frontier
    const int pos = was & ~kFrontierFlag;
    const uint32_t last = board_.frontier[--board_.frontier_size];
    if (pos != board_.frontier_size) {
      board_.frontier[pos] = last;
      board_.cells[cell_slot(static_cast<CellKey>(last >> 16))] = static_cast<uint16_t>(kFrontierFlag | pos);
    }
  }
}

// Joins the features of two nodes, a city or a road. Such a feature may come to cross the same tile twice
// (a tile with two separate cities, a road loop through a crossing): that tile is still one tile of the
// feature (B6), so tiles holding segments on both sides are subtracted once.
int State::unite(int a, int b, SegmentKind kind) {
  int ra = find(a), rb = find(b);
  if (ra == rb) return ra;
  larger_first(ra, rb);
  int shared = 0;
  if (features_.repeated[ra] & features_.repeated[rb]) shared = shared_tiles(ra, rb, kind);
  merge_into(ra, rb, shared);
  return ra;
}

// Tiles with segments in both features (rb's the smaller): each holds two segments of the kind.
int State::shared_tiles(int ra, int rb, SegmentKind kind) const {
  const TileCatalog& c = cat();
  const uint8_t kind_bit = static_cast<uint8_t>(1 << static_cast<int>(kind));
  std::array<uint8_t, 16> seen;
  int num_seen = 0, shared = 0;
  for_each_member(rb, [&](int m) {
    const int t = features_.node_tile[m];
    const PlacedTile& pt = board_.tiles[t];
    const TileType& tt = c[pt.type];
    if ((tt.repeated_kinds & kind_bit) && std::find(seen.begin(), seen.begin() + num_seen, t) == seen.begin() + num_seen) {
      for (int s = 0; s < tt.num_segments; ++s) {
        if (tt.segments[s].kind == kind && find(pt.node_base + s) == ra) {
          ++shared;
          if (num_seen < static_cast<int>(seen.size())) seen[num_seen++] = static_cast<uint8_t>(t);
          break;
        }
      }
    }
  });
  return shared;
}

// Fields: their tile counts only order the union by size, so a tile crossed twice is not looked for.
void State::unite_fields(int a, int b) {
  int ra = find(a), rb = find(b);
  if (ra == rb) return;
  larger_first(ra, rb);
  merge_into(ra, rb, 0);
}

// Swaps the roots so that ra's feature has at least as many tiles, with index arithmetic (a branch on
// which is larger mispredicts).
void State::larger_first(int& ra, int& rb) const {
  const int swap = (ra ^ rb) & -static_cast<int>(features_.tile_count[ra] < features_.tile_count[rb]);
  ra ^= swap;
  rb ^= swap;
}

// rb's feature joins ra's: ra becomes its root and holds the sums, less `shared` tiles counted twice.
void State::merge_into(int ra, int rb, int shared) {
  features_.parent[rb] = static_cast<uint16_t>(ra);
  features_.open[ra] = static_cast<uint16_t>(features_.open[ra] + features_.open[rb]);
  features_.tile_count[ra] = static_cast<uint8_t>(features_.tile_count[ra] + features_.tile_count[rb] - shared);
  features_.pennants[ra] = static_cast<uint8_t>(features_.pennants[ra] + features_.pennants[rb]);
  if (const int from = features_.strength_entry[rb]) {  // rarely: most features hold no figure
    if (const int to = features_.strength_entry[ra]) {
      features_.strengths[to] += features_.strengths[from];
      clear_figures_at(rb);
    } else {
      features_.strength_entry[ra] = static_cast<uint8_t>(from);
      features_.strength_entry[rb] = 0;
    }
  }
  features_.repeated[ra] |= features_.repeated[rb];
  std::swap(features_.next_member[ra], features_.next_member[rb]);
}

void State::add_figure_at(int root, int player) {
  if (!features_.strength_entry[root]) {  // the feature's first figure takes a free entry
    const int e = __builtin_ctzll(features_.free_entries);
    features_.free_entries &= features_.free_entries - 1;
    features_.strength_entry[root] = static_cast<uint8_t>(e);
  }
  features_.strengths[features_.strength_entry[root]] += 1u << (4 * player);
}

void State::clear_figures_at(int root) {
  const int e = features_.strength_entry[root];
  if (!e) return;
  features_.strengths[e] = 0;
  features_.free_entries |= uint64_t{1} << e;
  features_.strength_entry[root] = 0;
}

// ---- Placing a tile ---------------------------------------------------------------------------------

void State::place_tile(int type, int rotation, CellKey cell) {
  const TileCatalog& c = cat();
  const TileType& tt = c[type];
  const TileType::Rotated& rot = tt.rot[rotation];
  const int idx = board_.num_tiles++;
  const int base = features_.num_nodes;
  features_.num_nodes = static_cast<uint16_t>(features_.num_nodes + tt.num_segments);
  const int x = key_x(cell), y = key_y(cell);
  board_.tiles[idx] = PlacedTile{static_cast<uint8_t>(type), static_cast<uint8_t>(rotation), static_cast<int8_t>(x),
                           static_cast<int8_t>(y), static_cast<uint16_t>(base), 0, 4, kNoRival};
  Board& b = board_;
  if (idx == 0) b.min_x = b.max_x = static_cast<int8_t>(x), b.min_y = b.max_y = static_cast<int8_t>(y);
  b.min_x = static_cast<int8_t>(std::min<int>(b.min_x, x)), b.max_x = static_cast<int8_t>(std::max<int>(b.max_x, x));
  b.min_y = static_cast<int8_t>(std::min<int>(b.min_y, y)), b.max_y = static_cast<int8_t>(std::max<int>(b.max_y, y));
  b.wide = is_wide(b.min_x, b.max_x, b.min_y, b.max_y);  // the extent only grows: once wide, wide
  // All kMaxSegments nodes from base on, those past the tile's own included (unused, and written again
  // by the next tile; Features::kSlots leaves room): fixed-size block copies, without a loop over the
  // tile's segments.
  {
    std::array<uint16_t, kMaxSegments> own;  // each node its own root and only member
    for (int s = 0; s < kMaxSegments; ++s) own[s] = static_cast<uint16_t>(base + s);
    Features& f = features_;
    std::memcpy(&f.parent[base], own.data(), sizeof own);
    std::memcpy(&f.next_member[base], own.data(), sizeof own);
    std::memset(&f.node_tile[base], idx, kMaxSegments);
    std::memcpy(&f.open[base], tt.initial_open.data(), sizeof tt.initial_open);
    std::memset(&f.tile_count[base], 1, kMaxSegments);
    std::memcpy(&f.pennants[base], tt.initial_pennants.data(), sizeof tt.initial_pennants);
    std::memset(&f.strength_entry[base], 0, kMaxSegments);
    std::memcpy(&f.repeated[base], tt.initial_repeated.data(), sizeof tt.initial_repeated);
  }
  occupy_cell(cell, idx);

  // The 8 squares around, clockwise from the north-west; the orthogonal neighbour across edge e is ring[2e+1].
  // Their home slots are offsets on the torus from this cell's; their keys (needed only to probe a wide
  // board) by byte arithmetic, x the low byte and y the high one, each wrapping as the key does. On a
  // narrow board, 8 loads without a branch on what each square holds (data no predictor can guess).
  std::array<int, 8> ring;
  const unsigned home = home_slot(cell);
#pragma GCC unroll 8
  for (int d = 0; d < 8; ++d) {
    const CellKey k = static_cast<CellKey>(((cell + kDx8[d]) & 0x00FF) | ((cell + (kDy8[d] << 8)) & 0xFF00));
    const int as_signed = static_cast<int16_t>(board_.cells[cell_slot_from(home_slot_beside(home, kDx8[d], kDy8[d]), k)]);
    ring[d] = as_signed | (as_signed >> 31);  // -1 for a frontier cell or an empty slot, without a branch
  }

  // A city or road closes when its last open edges meet: only then is it worth a look at scoring time.
  completed_.closed_segments = 0;
  // Sides with no tile first, then sides with one: two loops over masks rather than one branch per side
  // on data no predictor can guess. Never an abbey's side: an abbey goes where all four sides touch tiles (A1).
  unsigned open_sides = 0;
  for (int e = 0; e < 4; ++e) open_sides |= static_cast<unsigned>(ring[2 * e + 1] < 0) << e;
  for (unsigned m = open_sides; m; m &= m - 1) {
    const int e = __builtin_ctz(m);
    // Looked up as each is inserted: on a wide board two new cells may probe to the same empty slot.
    const CellKey k = neighbour(cell, e);
    frontier_set(cell_slot(k), k, kOpposite(e), (rot.edge_word >> (4 * e)) & kNibble);
  }
  for (unsigned m = ~open_sides & 0xF; m; m &= m - 1) {
    const int e = __builtin_ctz(m);
    const int j = ring[2 * e + 1];
    const PlacedTile& other = board_.tiles[j];
    const TileType& ot = c[other.type];
    const TileType::Rotated& orot = ot.rot[other.rotation];
    const uint8_t sa = rot.edge_segment[e], sb = orot.edge_segment[kOpposite(e)];
    // A2: an abbey's side closes the city or road it touches without joining it. (Only the abbey itself
    // meets such sides: it goes where all four sides touch tiles (A1), so nothing is placed next to it later.)
    if (tt.has(kFlagAbbey) && sb != kNoSegment) {
      const int r = find(other.node_base + sb);
      features_.open[r] = static_cast<uint16_t>(features_.open[r] - 1);
      continue;
    }
    if (sa != kNoSegment && sb != kNoSegment) {
      if (tt.segments[sa].kind == SegmentKind::kRiver) {
        board_.tiles[idx].river_in = static_cast<uint8_t>(e);
      } else {
        const int root = unite(base + sa, other.node_base + sb, tt.segments[sa].kind);
        features_.open[root] = static_cast<uint16_t>(features_.open[root] - 2);
        if (features_.open[root] == 0) completed_.closed_segments |= static_cast<uint16_t>(1u << sa);
      }
    }
    // The fields across the two halves of the edge; the second half is usually the same pair again.
    const uint8_t fa0 = rot.half_segment[2 * e], fb0 = orot.half_segment[kFacingHalf(2 * e)];
    const uint8_t fa1 = rot.half_segment[2 * e + 1], fb1 = orot.half_segment[kFacingHalf(2 * e + 1)];
    if (fa0 != kNoSegment && fb0 != kNoSegment) unite_fields(base + fa0, other.node_base + fb0);
    if (fa1 != kNoSegment && fb1 != kNoSegment && (fa1 != fa0 || fb1 != fb0))
      unite_fields(base + fa1, other.node_base + fb1);
  }
  // Neighbour counts, and the cloisters and shrines this tile completes (B8).
  completed_.num_cloisters = 0;
  completed_.cloisters = {};
  // Without a branch on whether each square holds a tile, which is data no predictor can guess: an empty
  // square adds 0 to tile 0 instead (index arithmetic; g++ turns a conditional reference into a branch).
  int around_here = 0;
#pragma GCC unroll 8
  for (int d = 0; d < 8; ++d) {
    const int j = ring[d];
    const int placed = j >= 0;
    around_here += placed;
    const int around = board_.tiles[j & ~(j >> 31)].around += static_cast<uint8_t>(placed);
    if (__builtin_expect((around == 8) & placed, 0) && c[board_.tiles[j].type].cloister >= 0)
      completed_.cloisters[completed_.num_cloisters++] = static_cast<uint8_t>(j);
  }
  board_.tiles[idx].around = static_cast<uint8_t>(around_here);
  if (around_here == 8 && tt.cloister >= 0) completed_.cloisters[completed_.num_cloisters++] = static_cast<uint8_t>(idx);
}


FeatureInfo State::feature(int node) const {
  const int root = find(node);
  const PlacedTile& pt = board_.tiles[features_.node_tile[node]];
  const TileType& tt = cat()[pt.type];
  FeatureInfo info{};
  info.kind = tt.segments[node - pt.node_base].kind;
  info.tiles = features_.tile_count[root];
  info.open_edges = features_.open[root];
  info.pennants = features_.pennants[root];
  if (info.kind == SegmentKind::kCloister || info.kind == SegmentKind::kShrine) {
    info.complete = pt.around == 8;
  } else {
    info.complete = is_scored_linear(info.kind) && features_.open[root] == 0;
  }
  for (int p = 0; p < kMaxPlayers; ++p) info.followers[p] = strength(followers_at(root), p);
  return info;
}

bool State::Board::operator==(const Board& o) const {
  return num_tiles == o.num_tiles && frontier_size == o.frontier_size && cells == o.cells && min_x == o.min_x &&
         max_x == o.max_x && min_y == o.min_y && max_y == o.max_y && wide == o.wide &&
         std::equal(tiles.begin(), tiles.begin() + num_tiles, o.tiles.begin()) &&
         std::equal(frontier.begin(), frontier.begin() + frontier_size, o.frontier.begin());
}

int State::Features::root(int node) const {
  while (parent[node] != node) node = parent[node];
  return node;
}

bool State::Features::operator==(const Features& o) const {
  if (num_nodes != o.num_nodes) return false;
  for (int n = 0; n < num_nodes; ++n) {
    const int r = root(n);
    if (r != o.root(n) || node_tile[n] != o.node_tile[n]) return false;
    if (r == n && (open[n] != o.open[n] || tile_count[n] != o.tile_count[n] || pennants[n] != o.pennants[n] ||
                   strengths[strength_entry[n]] != o.strengths[o.strength_entry[n]] || repeated[n] != o.repeated[n]))
      return false;
  }
  return true;
}

}  // namespace meeple
