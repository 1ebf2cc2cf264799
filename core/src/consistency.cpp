// State::check_consistency: every incremental structure recomputed the slow, obvious way.
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

#include "engine.h"

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
  // A bool holding another byte than 0 or 1 is undefined behaviour to read: look at its byte.
  auto is_bool = [](const bool& b) {
    uint8_t byte;
    std::memcpy(&byte, &b, 1);
    return byte <= 1;
  };
  if (!is_bool(flow_.turn_scoring) || !is_bool(count_.deploy_due) || !is_bool(abbey_mayor_.in_abbey_round) ||
      !is_bool(abbey_mayor_.barn_placed) || !is_bool(board_.wide))
    return "a flag that is neither true nor false";
  const int players = rules_.players, tiles = board_.num_tiles, nodes = features_.num_nodes, types = TileCatalog::get().size();
  auto seat_or_none = [&](int seat) { return seat >= -1 && seat < players; };
  if (static_cast<int>(flow_.phase) > static_cast<int>(Phase::kGameOver)) return "unknown phase " + std::to_string(static_cast<int>(flow_.phase));
  if (flow_.turn_player >= players || flow_.acting >= players || flow_.last_placer >= players) return "a seat to act beyond the players";
  if (!seat_or_none(king_robber_.king) || !seat_or_none(king_robber_.robber)) return "the King or the Robber held by no seat";
  if (tiles > kMaxTiles || nodes > kMaxNodes || board_.frontier_size > kMaxFrontier ||
      completed_.num_features > completed_.features.size() || completed_.num_cloisters > completed_.cloisters.size())
    return "a count beyond its table";
  // Every game starts with a tile on the board (the start tile, the spring or the Count's City).
  if (tiles == 0) return "a board without tiles";
  if (flow_.drawn < -1 || flow_.drawn >= types) return "the tile in hand is no tile type";
  {  // The tiles still to come (the one in hand too), and the abbeys in hand, fit in the tables (as the constructor demands).
    const TileCatalog& c = TileCatalog::get();
    int future_tiles = tiles, future_nodes = nodes;
    if (flow_.drawn >= 0) future_tiles += 1, future_nodes += c[flow_.drawn].num_segments;  // in hand
    for (int t = 0; t < types; ++t) {
      future_tiles += tally_.remaining[t];
      future_nodes += tally_.remaining[t] * c[t].num_segments;
    }
    const int abbeys_in_hand = std::popcount(static_cast<unsigned>(abbey_mayor_.abbeys & ((1u << players) - 1)));
    if (future_tiles + abbeys_in_hand > kMaxTiles || future_nodes + abbeys_in_hand > kMaxNodes)
      return "more tiles to come than the board holds";
  }
  if (flow_.last_tile < -1 || flow_.last_tile >= tiles) return "the last tile placed is not on the board";
  if (count_.quarter >= kNumQuarters) return "the Count in no quarter";
  for (int i = 0; i < tiles; ++i) {
    const PlacedTile& t = board_.tiles[i];
    if (t.type >= types || t.rotation >= 4 || t.river_in > 4 || (t.rival != kNoRival && t.rival >= tiles) ||
        t.node_base + TileCatalog::get()[t.type].num_segments > nodes)
      return "placed tile " + std::to_string(i) + " is out of range";
  }
  // Scoring looks up the features of the segments the last placement closed: segments of that tile.
  if (flow_.last_tile >= 0 &&
      completed_.closed_segments >> TileCatalog::get()[board_.tiles[flow_.last_tile].type].num_segments)
    return "closed segments the last tile placed does not have";
  std::array<bool, kMaxNodes> has_predecessor{};
  for (int n = 0; n < nodes; ++n) {
    if (features_.parent[n] >= nodes || features_.next_member[n] >= nodes || features_.node_tile[n] >= tiles ||
        features_.strength_entry[n] >= Features::kEntries)
      return "node " + std::to_string(n) + " points off the board or past the table of figure strengths";
    if (has_predecessor[features_.next_member[n]]) return "the members of a feature are not a cycle";  // walks would not end
    has_predecessor[features_.next_member[n]] = true;
  }
  for (int n = 0; n < nodes; ++n) {
    int steps = 0;
    for (int m = n; features_.parent[m] != m; m = features_.parent[m])
      if (++steps > nodes) return "a loop in the features' union-find";
  }
  for (int i = 0; i < completed_.num_features; ++i)
    if (completed_.features[i] >= nodes) return "a completed feature off the board";
  for (int i = 0; i < completed_.num_cloisters; ++i)
    if (completed_.cloisters[i] >= tiles) return "a completed cloister off the board";
  for (int p = 0; p < players; ++p) {
    for (uint16_t where : tally_.figures[p])
      if (where != kInSupply && !(where >= kInQuarter && where < kInQuarter + kNumQuarters) && where >= nodes)
        return "a figure of seat " + std::to_string(p) + " nowhere";
    if ((abbey_mayor_.wagons_to_move >> p & 1) && abbey_mayor_.wagon_from[p] >= nodes) return "a wagon leaving no feature";
  }
  int used_cells = 0;
  for (const uint16_t v : board_.cells) {
    const bool ok = v == kEmptySlot || ((v & kFrontierFlag) ? (v & ~kFrontierFlag) < board_.frontier_size : v < tiles);
    if (!ok) return "the cell table points off the board";
    used_cells += v != kEmptySlot;
  }
  // Lookups probe until they meet the key or an empty slot: without an empty slot they would not end.
  if (used_cells > tiles + board_.frontier_size) return "the cell table holds cells that are not on the board";
  // What each phase reads.
  const Phase phase = flow_.phase;
  if (phase == Phase::kPlace && flow_.drawn < 0) return "a placement with no tile in hand";
  if ((phase == Phase::kDeploy || phase == Phase::kCountDeploy || phase == Phase::kRedeploy || phase == Phase::kWagonMove) &&
      flow_.last_tile < 0)
    return "a decision about a placement that was not made";
  if (phase == Phase::kWagonMove && !(abbey_mayor_.wagons_to_move >> flow_.acting & 1)) return "a wagon move for a seat with no wagon to move";
  return {};
}

std::string State::to_bytes() const { return std::string(reinterpret_cast<const char*>(this), sizeof(State)); }

State State::from_bytes(std::string_view bytes) {
  if (bytes.size() != sizeof(State))
    throw std::invalid_argument("a State is " + std::to_string(sizeof(State)) + " bytes in this build, not " + std::to_string(bytes.size()));
  State s(Rules{});
  std::memcpy(static_cast<void*>(&s), bytes.data(), sizeof(State));
  std::string problem = s.check_bounds();
  if (problem.empty()) problem = s.check_consistency();
  if (!problem.empty()) throw std::invalid_argument(problem);
  return s;
}

std::string State::check_consistency() const {
  const TileCatalog& c = TileCatalog::get();
  // Cells from an ordered map of the placed tiles rather than the cell table.
  std::map<std::pair<int, int>, int> cells;
  for (int i = 0; i < board_.num_tiles; ++i)
    if (!cells.emplace(std::make_pair(board_.tiles[i].x, board_.tiles[i].y), i).second) return "two tiles on one cell";
  auto naive_at = [&](int x, int y) {
    const auto it = cells.find({x, y});
    return it == cells.end() ? -1 : it->second;
  };
  // The extent first: whether lookups may stop at the home slot depends on it.
  if (board_.num_tiles > 0) {
    int min_x = board_.tiles[0].x, max_x = min_x, min_y = board_.tiles[0].y, max_y = min_y;
    for (int i = 1; i < board_.num_tiles; ++i) {
      min_x = std::min<int>(min_x, board_.tiles[i].x), max_x = std::max<int>(max_x, board_.tiles[i].x);
      min_y = std::min<int>(min_y, board_.tiles[i].y), max_y = std::max<int>(max_y, board_.tiles[i].y);
    }
    if (min_x != board_.min_x || max_x != board_.max_x || min_y != board_.min_y || max_y != board_.max_y) return "the board's extent is wrong";
    if (board_.wide != is_wide(min_x, max_x, min_y, max_y)) return "the board's width is misjudged";
  }
  constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int i = 0; i < board_.num_tiles; ++i) {
    if (find_cell(cell_key(board_.tiles[i].x, board_.tiles[i].y)) != i) return "cell table misses tile " + std::to_string(i);
    int around = 0;
    for (int ddx = -1; ddx <= 1; ++ddx)
      for (int ddy = -1; ddy <= 1; ++ddy)
        if ((ddx || ddy) && naive_at(board_.tiles[i].x + ddx, board_.tiles[i].y + ddy) >= 0) ++around;
    if (around != board_.tiles[i].around) return "tile at " + at_cell(board_.tiles[i].x, board_.tiles[i].y) + " has wrong 'around' count";
  }

  // Features: a fresh union-find over the same nodes.
  std::vector<int> parent(features_.num_nodes);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int n) {
    while (parent[n] != n) n = parent[n];
    return n;
  };
  auto join = [&](int a, int b) { parent[root(a)] = root(b); };
  std::vector<int> open(features_.num_nodes, 0);
  for (int i = 0; i < board_.num_tiles; ++i) {
    const PlacedTile& pt = board_.tiles[i];
    const TileType& tt = c[pt.type];
    const auto& rot = tt.rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      const int j = naive_at(pt.x + dx[e], pt.y + dy[e]);
      const uint8_t sa = rot.edge_segment[e];
      if (j < 0) {
        if (sa != kNoSegment && tt.segments[sa].kind != SegmentKind::kRiver) ++open[pt.node_base + sa];
        continue;
      }
      const TileType& ot = c[board_.tiles[j].type];
      const auto& orot = ot.rot[board_.tiles[j].rotation];
      const uint16_t a = (rot.edge_word >> (4 * e)) & 0xF, b = (orot.edge_word >> (4 * kOpposite(e))) & 0xF;
      if (a != b && a != 15 && b != 15)
        return "edges do not match between " + at_cell(pt.x, pt.y) + " and its neighbour " + std::to_string(e);
      const uint8_t sb = orot.edge_segment[kOpposite(e)];
      if (sa != kNoSegment && sb != kNoSegment && tt.segments[sa].kind != SegmentKind::kRiver)
        join(pt.node_base + sa, board_.tiles[j].node_base + sb);
      for (int h = 2 * e; h < 2 * e + 2; ++h) {
        const uint8_t fa = rot.half_segment[h], fb = orot.half_segment[kFacingHalf(h)];
        if (fa != kNoSegment && fb != kNoSegment) join(pt.node_base + fa, board_.tiles[j].node_base + fb);
      }
    }
  }
  std::map<int, int> fresh_to_inc;
  std::map<int, std::set<int>> tiles_of;
  std::map<int, int> open_of, pennants_of, repeated_of;
  std::map<int, std::array<int, kMaxPlayers>> strength_of;
  for (int n = 0; n < features_.num_nodes; ++n) {
    const int r = root(n);
    const int inc = find(n);
    auto [it, fresh] = fresh_to_inc.emplace(r, inc);
    if (!fresh && it->second != inc) return "node " + std::to_string(n) + " is in the wrong feature";
    tiles_of[r].insert(features_.node_tile[n]);
    open_of[r] += open[n];
    const PlacedTile& pt = board_.tiles[features_.node_tile[n]];
    if (n < pt.node_base || n >= pt.node_base + c[pt.type].num_segments) return "node_tile wrong for node " + std::to_string(n);
    pennants_of[r] += c[pt.type].segments[n - pt.node_base].pennants;
    repeated_of[r] |= c[pt.type].initial_repeated[n - pt.node_base];
    strength_of[r];
  }
  {
    std::set<int> incs;
    for (auto [r, inc] : fresh_to_inc)
      if (!incs.insert(inc).second) return "two features share root " + std::to_string(inc);
  }
  // The table of figure strengths: each entry in use named by one root and holding figures, the others
  // free and empty (the strengths themselves are compared with the figures below).
  uint64_t used = 0;
  for (int n = 0; n < features_.num_nodes; ++n) {
    const int e = features_.strength_entry[n];
    if (!e) continue;
    const std::string where = "node " + std::to_string(n);
    if (features_.root(n) != n) return where + ": an entry of figure strengths on a node that is no root";
    if (used >> e & 1) return where + ": an entry of figure strengths another feature names too";
    if (features_.strengths[e] == 0) return where + ": an entry of figure strengths without figures";
    used |= uint64_t{1} << e;
  }
  if (features_.free_entries != (Features::kAllEntries & ~used)) return "the free entries of figure strengths are not the unused ones";
  for (int e = 0; e < Features::kEntries; ++e)
    if (!(used >> e & 1) && features_.strengths[e] != 0) return "an unused entry of figure strengths holds figures";

  for (int p = 0; p < rules_.players; ++p) {
    for (int slot = 0; slot < kFiguresPerPlayer; ++slot) {
      const uint16_t f = tally_.figures[p][slot];
      if (f == kInSupply) continue;
      if (!on_board(f)) {
        if (!rules_.has(kCount) || f >= kInQuarter + kNumQuarters) return "figure in a quarter without the Count";
        continue;
      }
      if (slot >= kFollowersPerPlayer && !rules_.has(kAbbeyMayor)) return "figure slot without a figure in these rules is on the board";
      if (f >= features_.num_nodes) return "figure on a node that does not exist";
      if (slot == kBarnSlot) {  // barns are not followers: on a field, not counted for occupation
        const PlacedTile& bt = board_.tiles[features_.node_tile[f]];
        if (c[bt.type].segments[f - bt.node_base].kind != SegmentKind::kField) return "barn off a field";
        continue;
      }
      ++strength_of[root(f)][p];
    }
  }
  for (auto [r, inc] : fresh_to_inc) {
    const PlacedTile& pt = board_.tiles[features_.node_tile[r]];
    const SegmentKind kind = c[pt.type].segments[r - pt.node_base].kind;
    const std::string what = std::string(to_string(kind)) + " with node " + std::to_string(r);
    if (kind == SegmentKind::kCity || kind == SegmentKind::kRoad) {
      if (static_cast<int>(tiles_of[r].size()) != features_.tile_count[inc])
        return what + ": " + std::to_string(features_.tile_count[inc]) + " tiles counted, really " + std::to_string(tiles_of[r].size());
      if (open_of[r] != features_.open[inc]) return what + ": open edges " + std::to_string(features_.open[inc]) + ", really " + std::to_string(open_of[r]);
      if (pennants_of[r] != features_.pennants[inc]) return what + ": wrong pennants";
      if (repeated_of[r] != features_.repeated[inc]) return what + ": wrong mark of a tile it may share with another";
    } else if (features_.repeated[inc] != 0) {
      return what + ": marked as crossing a tile twice, which only cities and roads can";
    }
    // The whole word: bits past the players' would count as figures for every "is it occupied".
    uint32_t packed = 0;
    for (int p = 0; p < kMaxPlayers; ++p) packed |= static_cast<uint32_t>(strength_of[r][p]) << (4 * p);
    if (packed != followers_at(inc)) return what + ": wrong figure strengths";
    // Member list: exactly the nodes of the feature.
    size_t members = 0;
    int m = inc;
    do {
      if (root(m) != r) return what + ": member list holds a foreign node";
      ++members;
      m = features_.next_member[m];
    } while (m != inc && members <= static_cast<size_t>(features_.num_nodes));
    size_t expected = 0;
    for (int n = 0; n < features_.num_nodes; ++n) expected += root(n) == r;
    if (members != expected) return what + ": member list has the wrong length";
  }

  // A redeploy lap (C6) puts figures on the features just completed: roots, as collected before the lap.
  if (flow_.phase == Phase::kRedeploy)
    for (int i = 0; i < completed_.num_features; ++i)
      if (features_.root(completed_.features[i]) != completed_.features[i]) return "a completed feature named by a node that is no root";

  // Before the deploy, scoring will collect the features the placement closed from the segments it
  // marked: the features of the tile's cities and roads with no open edge left.
  if (flow_.phase == Phase::kDeploy) {
    const PlacedTile& pt = board_.tiles[flow_.last_tile];
    const TileType& tt = c[pt.type];
    std::set<int> marked, closed;
    for (int s = 0; s < tt.num_segments; ++s) {
      const int root = features_.root(pt.node_base + s);
      if (completed_.closed_segments >> s & 1) marked.insert(root);
      if ((tt.segments[s].kind == SegmentKind::kCity || tt.segments[s].kind == SegmentKind::kRoad) && features_.open[root] == 0)
        closed.insert(root);
    }
    if (marked != closed) return "the features the last placement closed are misrecorded";
  }

  // Frontier: every empty cell next to a tile, with the edge kinds it must match.
  std::map<CellKey, uint16_t> frontier;
  for (int i = 0; i < board_.num_tiles; ++i) {
    const PlacedTile& pt = board_.tiles[i];
    const auto& rot = c[pt.type].rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      const int x = pt.x + dx[e], y = pt.y + dy[e];
      if (naive_at(x, y) >= 0) continue;
      const uint16_t kind = (rot.edge_word >> (4 * e)) & 0xF;
      // The frontier and the abbey squares rely on it: an abbey's sides all touch tiles (A1).
      if (kind == static_cast<uint16_t>(EdgeKind::kAbbey)) return "the abbey at " + at_cell(pt.x, pt.y) + " borders an empty cell";
      frontier[cell_key(x, y)] |= static_cast<uint16_t>(kind << (4 * kOpposite(e)));
    }
  }
  if (static_cast<int>(frontier.size()) != board_.frontier_size) return "frontier has the wrong size";
  for (auto [key, req] : frontier) {
    const int i = frontier_index(key);
    if (i < 0 || (board_.frontier[i] >> 16) != key) return "frontier cell " + at_cell(key_x(key), key_y(key)) + " missing";
    if (static_cast<uint16_t>(board_.frontier[i]) != req) return "frontier cell " + at_cell(key_x(key), key_y(key)) + " has wrong edge constraints";
  }

  // Challenges: symmetric, between neighbouring buildings of different kinds, both occupied.
  for (int i = 0; i < board_.num_tiles; ++i) {
    const int r = board_.tiles[i].rival;
    if (r == kNoRival) continue;
    const std::string where = "challenge at " + at_cell(board_.tiles[i].x, board_.tiles[i].y);
    if (r >= board_.num_tiles || board_.tiles[r].rival != i) return where + " is not symmetric";
    if (std::abs(board_.tiles[r].x - board_.tiles[i].x) > 1 || std::abs(board_.tiles[r].y - board_.tiles[i].y) > 1) return where + ": rival not adjacent";
    const int ci = c[board_.tiles[i].type].cloister, cr = c[board_.tiles[r].type].cloister;
    if (ci < 0 || cr < 0 || c[board_.tiles[i].type].segments[ci].kind == c[board_.tiles[r].type].segments[cr].kind)
      return where + ": not a shrine against a cloister";
    if (!occupied(find(board_.tiles[i].node_base + ci))) return where + ": building unoccupied";
  }

  // Tile piles.
  uint16_t piles[4] = {};
  for (int t = 0; t < c.size(); ++t) piles[draw_pile(t)] = static_cast<uint16_t>(piles[draw_pile(t)] + tally_.remaining[t]);
  for (int p = 0; p < 4; ++p)
    if (piles[p] != tally_.pile_left[p]) return "pile counts disagree with remaining tiles";
  return {};
}

}  // namespace meeple
