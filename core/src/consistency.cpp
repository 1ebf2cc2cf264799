// State::check_consistency: every incremental structure recomputed the slow, obvious way.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

#include "meeple/state.h"

namespace meeple {

namespace {
std::string at_cell(int x, int y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; }
}  // namespace

std::string State::check_bounds() const {
  try {
    rules_.validate();
  } catch (const std::invalid_argument& e) {
    return std::string("rules: ") + e.what();
  }
  const int players = rules_.players, tiles = num_tiles_, nodes = num_nodes_, types = TileCatalog::get().size();
  auto seat_or_none = [&](int seat) { return seat >= -1 && seat < players; };
  if (static_cast<int>(phase_) > static_cast<int>(Phase::kGameOver)) return "unknown phase " + std::to_string(static_cast<int>(phase_));
  if (turn_player_ >= players || acting_ >= players || last_placer_ >= players) return "a seat to act beyond the players";
  if (!seat_or_none(king_) || !seat_or_none(robber_)) return "the King or the Robber held by no seat";
  if (tiles > kMaxTiles || nodes > kMaxNodes || frontier_size_ > kMaxFrontier ||
      num_pending_ > pending_.size() || num_completed_cloisters_ > completed_cloisters_.size())
    return "a count beyond its table";
  if (drawn_ < -1 || drawn_ >= types) return "the tile in hand is no tile type";
  if (last_tile_ < -1 || last_tile_ >= tiles) return "the last tile placed is not on the board";
  if (count_ >= kNumQuarters) return "the Count in no quarter";
  for (int i = 0; i < tiles; ++i) {
    const PlacedTile& t = tiles_[i];
    if (t.type >= types || t.rotation >= 4 || t.river_in > 4 || (t.rival != kNoRival && t.rival >= tiles) ||
        t.node_base + TileCatalog::get()[t.type].num_segments > nodes)
      return "placed tile " + std::to_string(i) + " is out of range";
  }
  std::array<bool, kMaxNodes> has_predecessor{};
  for (int n = 0; n < nodes; ++n) {
    if (parent_[n] >= nodes || next_member_[n] >= nodes || node_tile_[n] >= tiles) return "node " + std::to_string(n) + " points off the board";
    if (has_predecessor[next_member_[n]]) return "the members of a feature are not a cycle";  // walks would not end
    has_predecessor[next_member_[n]] = true;
  }
  for (int n = 0; n < nodes; ++n) {
    int steps = 0;
    for (int m = n; parent_[m] != m; m = parent_[m])
      if (++steps > nodes) return "a loop in the features' union-find";
  }
  for (int i = 0; i < num_pending_; ++i)
    if (pending_[i] >= nodes) return "a completed feature off the board";
  for (int i = 0; i < num_completed_cloisters_; ++i)
    if (completed_cloisters_[i] >= tiles) return "a completed cloister off the board";
  for (int p = 0; p < players; ++p) {
    for (uint16_t where : figures_[p])
      if (where != kInSupply && !(where >= kInQuarter && where < kInQuarter + kNumQuarters) && where >= nodes)
        return "a figure of seat " + std::to_string(p) + " nowhere";
    if ((wagons_to_move_ >> p & 1) && wagon_from_[p] >= nodes) return "a wagon leaving no feature";
  }
  for (const Cell& c : cells_) {
    const bool ok = c.value == kEmptySlot || ((c.value & kFrontierFlag) ? (c.value & ~kFrontierFlag) < frontier_size_ : c.value < tiles);
    if (!ok) return "the cell table points off the board";
  }
  return {};
}

std::string State::check_consistency() const {
  const TileCatalog& c = TileCatalog::get();
  // Cells from an ordered map of the placed tiles rather than the hash table.
  std::map<std::pair<int, int>, int> cells;
  for (int i = 0; i < num_tiles_; ++i)
    if (!cells.emplace(std::make_pair(tiles_[i].x, tiles_[i].y), i).second) return "two tiles on one cell";
  auto naive_at = [&](int x, int y) {
    const auto it = cells.find({x, y});
    return it == cells.end() ? -1 : it->second;
  };
  constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int i = 0; i < num_tiles_; ++i) {
    if (find_cell(cell_key(tiles_[i].x, tiles_[i].y)) != i) return "cell table misses tile " + std::to_string(i);
    int around = 0;
    for (int ddx = -1; ddx <= 1; ++ddx)
      for (int ddy = -1; ddy <= 1; ++ddy)
        if ((ddx || ddy) && naive_at(tiles_[i].x + ddx, tiles_[i].y + ddy) >= 0) ++around;
    if (around != tiles_[i].around) return "tile at " + at_cell(tiles_[i].x, tiles_[i].y) + " has wrong 'around' count";
  }

  // Features: a fresh union-find over the same nodes.
  std::vector<int> parent(num_nodes_);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int n) {
    while (parent[n] != n) n = parent[n];
    return n;
  };
  auto join = [&](int a, int b) { parent[root(a)] = root(b); };
  std::vector<int> open(num_nodes_, 0);
  for (int i = 0; i < num_tiles_; ++i) {
    const PlacedTile& pt = tiles_[i];
    const TileType& tt = c[pt.type];
    const auto& rot = tt.rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      const int j = naive_at(pt.x + dx[e], pt.y + dy[e]);
      const uint8_t sa = rot.edge_segment[e];
      if (j < 0) {
        if (sa != kNoSegment && tt.segments[sa].kind != SegmentKind::kRiver) ++open[pt.node_base + sa];
        continue;
      }
      const TileType& ot = c[tiles_[j].type];
      const auto& orot = ot.rot[tiles_[j].rotation];
      const uint16_t a = (rot.edge_word >> (4 * e)) & 0xF, b = (orot.edge_word >> (4 * kOpposite(e))) & 0xF;
      if (a != b && a != 15 && b != 15)
        return "edges do not match between " + at_cell(pt.x, pt.y) + " and its neighbour " + std::to_string(e);
      const uint8_t sb = orot.edge_segment[kOpposite(e)];
      if (sa != kNoSegment && sb != kNoSegment && tt.segments[sa].kind != SegmentKind::kRiver)
        join(pt.node_base + sa, tiles_[j].node_base + sb);
      for (int h = 2 * e; h < 2 * e + 2; ++h) {
        const uint8_t fa = rot.half_segment[h], fb = orot.half_segment[kFacingHalf(h)];
        if (fa != kNoSegment && fb != kNoSegment) join(pt.node_base + fa, tiles_[j].node_base + fb);
      }
    }
  }
  std::map<int, int> fresh_to_inc;
  std::map<int, std::set<int>> tiles_of;
  std::map<int, int> open_of, pennants_of;
  std::map<int, std::array<int, kMaxPlayers>> strength_of;
  for (int n = 0; n < num_nodes_; ++n) {
    const int r = root(n);
    const int inc = find(n);
    auto [it, fresh] = fresh_to_inc.emplace(r, inc);
    if (!fresh && it->second != inc) return "node " + std::to_string(n) + " is in the wrong feature";
    tiles_of[r].insert(node_tile_[n]);
    open_of[r] += open[n];
    const PlacedTile& pt = tiles_[node_tile_[n]];
    if (n < pt.node_base || n >= pt.node_base + c[pt.type].num_segments) return "node_tile wrong for node " + std::to_string(n);
    pennants_of[r] += c[pt.type].segments[n - pt.node_base].pennants;
    strength_of[r];
  }
  {
    std::set<int> incs;
    for (auto [r, inc] : fresh_to_inc)
      if (!incs.insert(inc).second) return "two features share root " + std::to_string(inc);
  }
  for (int p = 0; p < rules_.players; ++p) {
    for (int slot = 0; slot < kFiguresPerPlayer; ++slot) {
      const uint16_t f = figures_[p][slot];
      if (f == kInSupply) continue;
      if (!on_board(f)) {
        if (!rules_.has(kCount) || f >= kInQuarter + kNumQuarters) return "figure in a quarter without the Count";
        continue;
      }
      if (slot >= kFollowersPerPlayer && !rules_.has(kAbbeyMayor)) return "figure slot without a figure in these rules is on the board";
      if (f >= num_nodes_) return "figure on a node that does not exist";
      if (slot == kBarnSlot) {  // barns are not followers: on a field, not counted for occupation
        const PlacedTile& bt = tiles_[node_tile_[f]];
        if (c[bt.type].segments[f - bt.node_base].kind != SegmentKind::kField) return "barn off a field";
        continue;
      }
      ++strength_of[root(f)][p];
    }
  }
  for (auto [r, inc] : fresh_to_inc) {
    const PlacedTile& pt = tiles_[node_tile_[r]];
    const SegmentKind kind = c[pt.type].segments[r - pt.node_base].kind;
    const std::string what = std::string(to_string(kind)) + " with node " + std::to_string(r);
    if (kind == SegmentKind::kCity || kind == SegmentKind::kRoad) {
      if (static_cast<int>(tiles_of[r].size()) != tile_count_[inc])
        return what + ": " + std::to_string(tile_count_[inc]) + " tiles counted, really " + std::to_string(tiles_of[r].size());
      if (open_of[r] != open_[inc]) return what + ": open edges " + std::to_string(open_[inc]) + ", really " + std::to_string(open_of[r]);
      if (pennants_of[r] != pennants_[inc]) return what + ": wrong pennants";
    }
    for (int p = 0; p < kMaxPlayers; ++p)
      if (strength_of[r][p] != static_cast<int>((followers_[inc] >> (4 * p)) & 0xF))
        return what + ": wrong follower count for player " + std::to_string(p);
    // Member list: exactly the nodes of the feature.
    size_t members = 0;
    int m = inc;
    do {
      if (root(m) != r) return what + ": member list holds a foreign node";
      ++members;
      m = next_member_[m];
    } while (m != inc && members <= static_cast<size_t>(num_nodes_));
    size_t expected = 0;
    for (int n = 0; n < num_nodes_; ++n) expected += root(n) == r;
    if (members != expected) return what + ": member list has the wrong length";
  }

  // Frontier: every empty cell next to a tile, with the edge kinds it must match.
  std::map<CellKey, uint16_t> frontier;
  for (int i = 0; i < num_tiles_; ++i) {
    const PlacedTile& pt = tiles_[i];
    const auto& rot = c[pt.type].rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      const int x = pt.x + dx[e], y = pt.y + dy[e];
      if (naive_at(x, y) >= 0) continue;
      const uint16_t kind = (rot.edge_word >> (4 * e)) & 0xF;
      frontier[cell_key(x, y)] |= static_cast<uint16_t>((kind == 15 ? 0 : kind) << (4 * kOpposite(e)));
    }
  }
  if (static_cast<int>(frontier.size()) != frontier_size_) return "frontier has the wrong size";
  for (auto [key, req] : frontier) {
    const int i = frontier_index(key);
    if (i < 0 || (frontier_[i] >> 16) != key) return "frontier cell " + at_cell(key_x(key), key_y(key)) + " missing";
    if (static_cast<uint16_t>(frontier_[i]) != req) return "frontier cell " + at_cell(key_x(key), key_y(key)) + " has wrong edge constraints";
  }

  // Challenges: symmetric, between neighbouring buildings of different kinds, both occupied.
  for (int i = 0; i < num_tiles_; ++i) {
    const int r = tiles_[i].rival;
    if (r == kNoRival) continue;
    const std::string where = "challenge at " + at_cell(tiles_[i].x, tiles_[i].y);
    if (r >= num_tiles_ || tiles_[r].rival != i) return where + " is not symmetric";
    if (std::abs(tiles_[r].x - tiles_[i].x) > 1 || std::abs(tiles_[r].y - tiles_[i].y) > 1) return where + ": rival not adjacent";
    const int ci = c[tiles_[i].type].cloister, cr = c[tiles_[r].type].cloister;
    if (ci < 0 || cr < 0 || c[tiles_[i].type].segments[ci].kind == c[tiles_[r].type].segments[cr].kind)
      return where + ": not a shrine against a cloister";
    if (!followers_[find(tiles_[i].node_base + ci)]) return where + ": building unoccupied";
  }

  // Tile piles.
  uint16_t piles[4] = {};
  for (int t = 0; t < c.size(); ++t) piles[draw_pile(t)] = static_cast<uint16_t>(piles[draw_pile(t)] + remaining_[t]);
  for (int p = 0; p < 4; ++p)
    if (piles[p] != pile_left_[p]) return "pile counts disagree with remaining tiles";
  return {};
}

}  // namespace meeple
