#include "meeple/state.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace meeple {

namespace {

const TileCatalog& cat() { return TileCatalog::get(); }

// Piles tiles are drawn from, in order: with the River II the fork comes first, then the river tiles,
// then the volcano lake; normal tiles follow when those are empty (R2).
enum Pile : int { kNormalPile = 0, kForkPile = 1, kRiverPile = 2, kLakePile = 3 };

struct PileTable {
  std::array<uint8_t, kMaxTileTypes> pile{};
  std::array<std::vector<uint8_t>, 4> members;  // tile types of each pile, ascending
  PileTable() {
    for (const TileType& t : cat().tiles()) {
      if (t.index >= kMaxTileTypes) throw std::logic_error("more tile types than kMaxTileTypes");
      pile[t.index] = t.has(kFlagFork) ? kForkPile
                      : t.has(kFlagLake) ? kLakePile
                      : (t.river && !t.has(kFlagSpring)) ? kRiverPile : kNormalPile;
      members[pile[t.index]].push_back(t.index);
    }
  }
};
const PileTable& pile_table() {
  static const PileTable table;
  return table;
}
// Resolved at start-up: the table is read on every draw (a function-local static checks a guard each time).
const PileTable& kPiles = pile_table();
const PileTable& piles() { return kPiles; }

constexpr int kDx8[8] = {-1, 0, 1, 1, 1, 0, -1, -1};
constexpr int kDy8[8] = {-1, -1, -1, 0, 1, 1, 1, 0};

constexpr uint32_t kNibble = 0xF;

int strength(uint32_t packed, int player) { return static_cast<int>((packed >> (4 * player)) & kNibble); }

bool is_scored_linear(SegmentKind k) { return k == SegmentKind::kCity || k == SegmentKind::kRoad; }

}  // namespace

const char* to_string(Phase p) {
  switch (p) {
    case Phase::kDraw: return "draw";
    case Phase::kPlace: return "place";
    case Phase::kDeploy: return "deploy";
    case Phase::kRedeploy: return "redeploy";
    case Phase::kCountDeploy: return "count deploy";
    case Phase::kFinalRedeploy: return "final redeploy";
    case Phase::kTurnStart: return "turn start (abbey or draw)";
    case Phase::kWagonMove: return "wagon move";
    case Phase::kAbbeyRound: return "abbey round";
    case Phase::kGameOver: return "game over";
  }
  return "?";
}

const char* category_name(int category) {
  static constexpr const char* names[kNumCategories] = {"city", "road", "cloister", "field", "bonus"};
  return names[category];
}

bool ActionList::contains(Action a) const { return std::find(begin(), end(), a) != end(); }

// ---- Construction ---------------------------------------------------------------------------------

State::State(const Rules& rules) : State(rules, {}) {}

State::State(const Rules& rules, std::span<const uint8_t> deck_counts) : rules_(rules) {
  rules_.validate();
  // Only what is read before it is written. Tiles, frontier cells and feature nodes are used up to
  // board_.num_tiles, board_.frontier_size and features_.num_nodes, each written when it comes into use: clearing the ~10 KiB
  // behind them cost 8% of a random game.
  board_.cells.fill(Cell{0, kEmptySlot});
  for (auto& f : tally_.figures) f.fill(kInSupply);
  setup(deck_counts);
}

void State::setup(std::span<const uint8_t> deck_counts) {
  const TileCatalog& c = cat();
  auto add_set = [&](const char* name) {
    for (auto [tile, copies] : c.set(name)->counts) tally_.remaining[tile] += copies;
  };
  const int start = c.find("BA.RCr");
  if (deck_counts.empty()) {
    add_set("base");
    if (rules_.has(kKingRobber)) add_set("king_robber");
    if (rules_.has(kCultPlaces)) {  // S5: the chosen shrine sets
      const uint8_t sets = rules_.option(Option::kShrineSets);
      if (sets & 1) add_set("shrines_ckr");
      if (sets & 2) add_set("shrines_csc");
      if (sets & 4) add_set("shrines_spielbox");
    }
    if (rules_.has(kAbbeyMayor)) add_set("abbey_mayor");
  } else {
    if (deck_counts.size() > static_cast<size_t>(c.size())) throw std::invalid_argument("deck: too many tile types");
    for (size_t t = 0; t < deck_counts.size(); ++t) {
      if (deck_counts[t] && piles().pile[t] != kNormalPile)
        throw std::invalid_argument("deck: " + c[static_cast<int>(t)].id +
                                    " is not a land tile for the deck (the river, the Count's block and abbeys come from the rules)");
      if (deck_counts[t] && (c[static_cast<int>(t)].flags & (kFlagSpring | kFlagBlock | kFlagAbbey)))
        throw std::invalid_argument("deck: " + c[static_cast<int>(t)].id +
                                    " is not a land tile for the deck (the spring, the Count's block and abbeys come from the rules)");
      tally_.remaining[t] = deck_counts[t];
    }
  }
  if (rules_.has(kCount)) {
    // C1: the City of Carcassonne replaces the start tile, CO.7 at the origin; the start tile is removed.
    if (deck_counts.empty()) --tally_.remaining[start];
    for (int i = 0; i < 12; ++i)
      place_tile(c.find("CO." + std::to_string(i + 1)), 0, cell_key(i % 4 - 2, i / 4 - 1));
    count_.quarter = kCastle;
  }
  if (rules_.has(kRiver2)) {
    // R1: the spring starts the river (east of the block with the Count); the base start tile is
    // shuffled in with the normal tiles, unless the Count removed it.
    for (auto [tile, copies] : c.set("river2")->counts)
      if (!c[tile].has(kFlagSpring)) tally_.remaining[tile] += copies;
    place_tile(c.find("RI.spring"), 0, rules_.has(kCount) ? cell_key(2, -1) : cell_key(0, 0));
  } else if (!rules_.has(kCount)) {
    if (deck_counts.empty()) --tally_.remaining[start];
    place_tile(start, 0, cell_key(0, 0));
  }

  // Capacity: every remaining tile must fit in the fixed arrays, whatever the deck.
  int tiles = board_.num_tiles, nodes = features_.num_nodes;
  for (int t = 0; t < c.size(); ++t) {
    tiles += tally_.remaining[t];
    nodes += tally_.remaining[t] * c[t].num_segments;
    tally_.pile_left[piles().pile[t]] = static_cast<uint16_t>(tally_.pile_left[piles().pile[t]] + tally_.remaining[t]);
  }
  const int abbeys = rules_.has(kAbbeyMayor) ? rules_.players : 0;  // one segment each
  if (tiles > kMaxLandTiles || tiles + abbeys > kMaxTiles || nodes + abbeys > kMaxNodes)
    throw std::invalid_argument("deck too large: " + std::to_string(tiles) + " land tiles with " + std::to_string(nodes) +
                                " feature segments; the engine holds at most " + std::to_string(kMaxLandTiles) +
                                " land tiles and " + std::to_string(kMaxNodes) + " segments");
  if (rules_.has(kAbbeyMayor)) abbey_mayor_.abbeys = static_cast<uint8_t>((1 << rules_.players) - 1);
  flow_.last_tile = -1;
  flow_.turn_player = 0;
  start_turn();
}

// ---- Small structures -------------------------------------------------------------------------------

int State::find(int x) const {
  while (features_.parent[x] != x) {
    features_.parent[x] = features_.parent[features_.parent[x]];
    x = features_.parent[x];
  }
  return x;
}

int State::cell_slot(CellKey k) const {
  unsigned slot = (static_cast<uint32_t>(k) * 0x9E3779B1u) >> 23;
  while (board_.cells[slot].value != kEmptySlot && board_.cells[slot].key != k) slot = (slot + 1) & (kCellSlots - 1);
  return static_cast<int>(slot);
}

int State::find_cell(CellKey k) const {
  const uint16_t v = board_.cells[cell_slot(k)].value;
  return v < kFrontierFlag ? v : -1;
}

int State::frontier_index(CellKey k) const {
  const uint16_t v = board_.cells[cell_slot(k)].value;
  return (v != kEmptySlot && (v & kFrontierFlag)) ? (v & ~kFrontierFlag) : -1;
}

void State::frontier_set(int slot, CellKey k, int edge, uint16_t edge_kind_bits) {
  if (board_.cells[slot].value == kEmptySlot) {
    board_.cells[slot].key = k;
    board_.cells[slot].value = static_cast<uint16_t>(kFrontierFlag | board_.frontier_size);
    board_.frontier[board_.frontier_size++] = static_cast<uint32_t>(k) << 16;
  }
  board_.frontier[board_.cells[slot].value & ~kFrontierFlag] |= static_cast<uint32_t>(edge_kind_bits) << (4 * edge);
}

void State::occupy_cell(CellKey k, int index) {
  const int slot = cell_slot(k);
  if (board_.cells[slot].value != kEmptySlot) {  // a frontier cell: swap-remove it from the frontier
    const int pos = board_.cells[slot].value & ~kFrontierFlag;
    const uint32_t last = board_.frontier[--board_.frontier_size];
    if (pos != board_.frontier_size) {
      board_.frontier[pos] = last;
      board_.cells[cell_slot(static_cast<CellKey>(last >> 16))].value = static_cast<uint16_t>(kFrontierFlag | pos);
    }
  }
  board_.cells[slot].key = k;
  board_.cells[slot].value = static_cast<uint16_t>(index);
}

// Joins the features of two nodes. A city or road may come to cross the same tile twice (a tile with two
// separate cities, a road loop through a crossing): such a tile is still one tile of the feature (B6),
// so tiles holding segments on both sides are subtracted once.
int State::unite(int a, int b, SegmentKind kind) {
  int ra = find(a), rb = find(b);
  if (ra == rb) return ra;
  if (features_.tile_count[ra] < features_.tile_count[rb]) std::swap(ra, rb);
  const TileCatalog& c = cat();
  int shared = 0;
  if (is_scored_linear(kind)) {
    const uint8_t kind_bit = static_cast<uint8_t>(1 << static_cast<int>(kind));
    std::array<uint8_t, 16> seen;
    int num_seen = 0;
    int m = rb;
    do {
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
      m = features_.next_member[m];
    } while (m != rb);
  }
  features_.parent[rb] = static_cast<uint16_t>(ra);
  features_.open[ra] = static_cast<uint16_t>(features_.open[ra] + features_.open[rb]);
  features_.tile_count[ra] = static_cast<uint8_t>(features_.tile_count[ra] + features_.tile_count[rb] - shared);
  features_.pennants[ra] = static_cast<uint8_t>(features_.pennants[ra] + features_.pennants[rb]);
  features_.followers[ra] += features_.followers[rb];
  std::swap(features_.next_member[ra], features_.next_member[rb]);
  return ra;
}

// ---- Placing a tile ---------------------------------------------------------------------------------

void State::place_tile(int type, int rotation, CellKey cell) {
  const TileCatalog& c = cat();
  const TileType& tt = c[type];
  const TileType::Rotated& rot = tt.rot[rotation];
  const int idx = board_.num_tiles++;
  const int base = features_.num_nodes;
  features_.num_nodes = static_cast<uint16_t>(features_.num_nodes + tt.num_segments);
  board_.tiles[idx] = PlacedTile{static_cast<uint8_t>(type), static_cast<uint8_t>(rotation), static_cast<int8_t>(key_x(cell)),
                           static_cast<int8_t>(key_y(cell)), static_cast<uint16_t>(base), 0, 4, kNoRival};
  for (int s = 0; s < tt.num_segments; ++s) {
    const Segment& seg = tt.segments[s];
    const int n = base + s;
    features_.parent[n] = features_.next_member[n] = static_cast<uint16_t>(n);
    features_.node_tile[n] = static_cast<uint8_t>(idx);
    features_.open[n] = is_scored_linear(seg.kind) ? seg.edge_count : 0;
    features_.tile_count[n] = 1;
    features_.pennants[n] = seg.pennants;
    features_.followers[n] = 0;
  }
  occupy_cell(cell, idx);

  // The 8 squares around, clockwise from the north-west; the orthogonal neighbour across edge e is ring[2e+1].
  std::array<int, 8> ring_slot, ring;
  for (int d = 0; d < 8; ++d) {
    ring_slot[d] = cell_slot(cell_key(key_x(cell) + kDx8[d], key_y(cell) + kDy8[d]));
    ring[d] = board_.cells[ring_slot[d]].value < kFrontierFlag ? board_.cells[ring_slot[d]].value : -1;
  }

  for (int e = 0; e < 4; ++e) {
    const int j = ring[2 * e + 1];
    if (j < 0) {
      const uint16_t kind = (rot.edge_word >> (4 * e)) & kNibble;
      frontier_set(ring_slot[2 * e + 1], neighbour(cell, e), kOpposite(e),
                   kind == static_cast<uint16_t>(EdgeKind::kAbbey) ? 0 : kind);  // abbeys take anything
      continue;
    }
    const PlacedTile& other = board_.tiles[j];
    const TileType& ot = c[other.type];
    const TileType::Rotated& orot = ot.rot[other.rotation];
    const uint8_t sa = rot.edge_segment[e], sb = orot.edge_segment[kOpposite(e)];
    // A2: an abbey's side closes the city or road it touches without joining it.
    if (tt.has(kFlagAbbey) && sb != kNoSegment) {
      const int r = find(other.node_base + sb);
      features_.open[r] = static_cast<uint16_t>(features_.open[r] - 1);
      continue;
    }
    if (ot.has(kFlagAbbey) && sa != kNoSegment) {
      const int r = find(base + sa);
      features_.open[r] = static_cast<uint16_t>(features_.open[r] - 1);
      continue;
    }
    if (sa != kNoSegment && sb != kNoSegment) {
      if (tt.segments[sa].kind == SegmentKind::kRiver) {
        board_.tiles[idx].river_in = static_cast<uint8_t>(e);
      } else {
        const int root = unite(base + sa, other.node_base + sb, tt.segments[sa].kind);
        features_.open[root] = static_cast<uint16_t>(features_.open[root] - 2);
      }
    }
    for (int h = 2 * e; h < 2 * e + 2; ++h) {
      const uint8_t fa = rot.half_segment[h], fb = orot.half_segment[kFacingHalf(h)];
      if (fa != kNoSegment && fb != kNoSegment) unite(base + fa, other.node_base + fb, SegmentKind::kField);
    }
  }
  // Neighbour counts, and the cloisters and shrines this tile completes (B8).
  completed_.num_cloisters = 0;
  completed_.cloisters = {};
  for (int d = 0; d < 8; ++d) {
    const int j = ring[d];
    if (j >= 0) {
      ++board_.tiles[idx].around;
      if (++board_.tiles[j].around == 8 && c[board_.tiles[j].type].cloister >= 0) completed_.cloisters[completed_.num_cloisters++] = static_cast<uint8_t>(j);
    }
  }
  if (board_.tiles[idx].around == 8 && tt.cloister >= 0) completed_.cloisters[completed_.num_cloisters++] = static_cast<uint8_t>(idx);
}

// ---- Who acts, chance --------------------------------------------------------------------------------

int State::current_player() const {
  switch (flow_.phase) {
    case Phase::kDraw: return kChance;
    case Phase::kGameOver: return kTerminal;
    case Phase::kRedeploy:
    case Phase::kCountDeploy:
    case Phase::kFinalRedeploy:
    case Phase::kWagonMove:
    case Phase::kAbbeyRound: return flow_.acting;
    default: return flow_.turn_player;
  }
}

int State::draw_pile(int tile) { return piles().pile[tile]; }

int State::drawable_pile() const {
  for (int p : {kForkPile, kRiverPile, kLakePile})
    if (tally_.pile_left[p]) return p;
  return kNormalPile;
}

int State::tiles_left() const { return tally_.pile_left[0] + tally_.pile_left[1] + tally_.pile_left[2] + tally_.pile_left[3]; }

void State::chance_outcomes(ChanceOutcomes& out) const {
  out.size = 0;
  out.total = 0;
  if (flow_.phase != Phase::kDraw) return;
  for (const uint8_t t : piles().members[drawable_pile()]) {
    if (tally_.remaining[t]) {
      out.items[out.size++] = ChanceOutcome{t, tally_.remaining[t]};
      out.total += tally_.remaining[t];
    }
  }
}

int State::sample_draw_tile(uint64_t random_below_left) const {
  int r = static_cast<int>(random_below_left);
  for (const uint8_t t : piles().members[drawable_pile()]) {
    if (r < tally_.remaining[t]) return t;
    r -= tally_.remaining[t];
  }
  return -1;
}

// A new turn: with Abbey & Mayor the player may place the abbey instead of drawing (A1).
void State::start_turn() {
  if (tiles_left() > 0 && abbey_mayor() && has_abbey(flow_.turn_player)) {
    ActionList abbeys;
    generate_abbeys(abbeys);
    if (abbeys.size > 0) {
      flow_.drawn = -1;
      flow_.phase = Phase::kTurnStart;
      return;
    }
  }
  start_draw();
}

void State::start_draw() {
  flow_.drawn = -1;
  if (tiles_left() > 0) {
    flow_.phase = Phase::kDraw;
    return;
  }
  end_of_tiles();
}

// After the last tile: the abbey round (A4), the Count's final redeploy (C9), final scoring (B11).
void State::end_of_tiles() {
  if (!abbey_mayor_.in_abbey_round && abbey_mayor() && abbey_mayor_.abbeys && rules_.on(Option::kAbbeyEndRound)) {
    abbey_mayor_.in_abbey_round = true;
    flow_.acting = static_cast<uint8_t>((flow_.last_placer + 1) % rules_.players);
    abbey_mayor_.round_left = rules_.players;
    continue_abbey_round();
    return;
  }
  if (count_in_play()) {  // C9, starting left of the player who placed the last land tile
    flow_.acting = static_cast<uint8_t>((flow_.last_placer + 1) % rules_.players);
    count_.out_mask = 0;
    continue_final_redeploy();
    return;
  }
  finish_game();
}

void State::finish_game() {
  final_scoring();
  flow_.phase = Phase::kGameOver;
}

// ---- Legal actions -----------------------------------------------------------------------------------

bool State::special_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const {
  if (t.river && !river_placement_ok(t, rotation, cell, req)) return false;
  if (t.cloister >= 0 && rules_.has(kCultPlaces) && !building_placement_ok(t, cell)) return false;
  return true;
}

// S2: a shrine next to at most one cloister (abbeys count as cloisters) and the reverse, and no building
// may end up next to two of the other kind.
bool State::building_placement_ok(const TileType& t, CellKey cell) const {
  const bool shrine = t.segments[t.cloister].kind == SegmentKind::kShrine;
  int others = 0;
  for (int d = 0; d < 8; ++d) {
    const int j = find_cell(cell_key(key_x(cell) + kDx8[d], key_y(cell) + kDy8[d]));
    if (j < 0 || building_kind(j) != (shrine ? 1 : 2)) continue;
    if (++others > 1) return false;
    // That neighbour may not already have a building of the new tile's kind next to it.
    for (int e = 0; e < 8; ++e) {
      const int k = find_cell(cell_key(board_.tiles[j].x + kDx8[e], board_.tiles[j].y + kDy8[e]));
      if (k >= 0 && building_kind(k) == (shrine ? 2 : 1)) return false;
    }
  }
  return true;
}

// 0: no building; 1: cloister (or abbey); 2: shrine.
int State::building_kind(int tile_index) const {
  const TileType& t = cat()[board_.tiles[tile_index].type];
  if (t.cloister < 0) return 0;
  return t.segments[t.cloister].kind == SegmentKind::kShrine ? 2 : 1;
}

bool State::river_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const {
  // R3/R5: the tile continues exactly one open river mouth (joining two would join the branches).
  int mouths = 0, in = -1;
  for (int e = 0; e < 4; ++e) {
    if (((req >> (4 * e)) & kNibble) == static_cast<uint16_t>(EdgeKind::kRiver)) ++mouths, in = e;
  }
  if (mouths != 1) return false;
  // R4: no curve turning the same way as the previous tile of the branch.
  const uint16_t word = t.rot[rotation].edge_word;
  int outs = 0, out = -1;
  for (int e = 0; e < 4; ++e) {
    if (e != in && ((word >> (4 * e)) & kNibble) == static_cast<uint16_t>(EdgeKind::kRiver)) ++outs, out = e;
  }
  if (outs != 1) return true;
  const int turn_new = (out - kOpposite(in)) & 3;
  if (turn_new == 0) return true;
  const PlacedTile& prev = board_.tiles[find_cell(neighbour(cell, in))];
  const int turn_prev = prev.river_in == 4 ? 0 : (kOpposite(in) - kOpposite(prev.river_in)) & 3;
  return turn_new != turn_prev;
}

// A tile fits a frontier cell in a rotation when each constrained edge has the required kind. Edge kinds
// are one bit per nibble, so that is one AND and one compare per rotation. The tile's data is copied to
// locals first: the output list could alias it as far as the compiler knows.
template <typename Emit>
bool State::for_each_placement(Emit&& emit) const {
  const TileType& t = cat()[flow_.drawn];
  const int count = t.distinct_rotations.count;
  const std::array<uint16_t, 4> words = t.distinct_rotations.edge_word;
  const std::array<uint8_t, 4> rotations = t.distinct_rotations.rotation;
  const bool special = needs_special_check(t);
  const int cells = board_.frontier_size;
  for (int i = 0; i < cells; ++i) {
    const uint16_t req = static_cast<uint16_t>(board_.frontier[i]);
    for (int k = 0; k < count; ++k) {
      if ((words[k] & req) != req) continue;
      const CellKey cell = static_cast<CellKey>(board_.frontier[i] >> 16);
      if (special && !special_placement_ok(t, rotations[k], cell, req)) continue;
      if (emit(Action::place(cell, rotations[k]))) return true;
    }
  }
  return false;
}

void State::generate_placements(ActionList& out) const {
  // The frontier is kept in the order cells joined it (O(1) updates), but the list is promised in action
  // order: collect the cells that take the tile with a mask of their rotations, sort those few cells,
  // then list each cell's rotations in order.
  const TileType& t = cat()[flow_.drawn];
  const int count = t.distinct_rotations.count;
  const std::array<uint16_t, 4> words = t.distinct_rotations.edge_word;
  const std::array<uint8_t, 4> rotations = t.distinct_rotations.rotation;
  const bool special = needs_special_check(t);
  std::array<uint32_t, kMaxFrontier> fitting;
  int num_fitting = 0;
  for (int i = 0; i < board_.frontier_size; ++i) {
    const uint32_t entry = board_.frontier[i];
    const uint16_t req = static_cast<uint16_t>(entry);
    uint32_t mask = 0;
    for (int k = 0; k < count; ++k) {
      if ((words[k] & req) != req) continue;
      if (special && !special_placement_ok(t, rotations[k], static_cast<CellKey>(entry >> 16), req)) continue;
      mask |= 1u << rotations[k];
    }
    if (mask) fitting[num_fitting++] = (entry & 0xFFFF0000u) | mask;
  }
  std::sort(fitting.begin(), fitting.begin() + num_fitting);
  int n = out.size;
  for (int i = 0; i < num_fitting; ++i) {
    const CellKey cell = static_cast<CellKey>(fitting[i] >> 16);
    for (uint32_t mask = fitting[i] & 0xF; mask; mask &= mask - 1) out.items[n++] = Action::place(cell, __builtin_ctz(mask));
  }
  out.size = n;
}

bool State::has_placement() const {
  return for_each_placement([](Action) { return true; });
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
  if (!volcano) {
    // Which segments lie in an unoccupied feature (and, for fields, one without a barn).
    std::array<bool, kMaxSegments> free{};
    for (int s = 0; s < tt.num_segments; ++s) {
      const int root = find(pt.node_base + s);
      free[s] = tt.segments[s].kind != SegmentKind::kRiver && features_.followers[root] == 0 &&
                !(tt.segments[s].kind == SegmentKind::kField && abbey_mayor() && has_barn(root));
    }
    const bool abbey = tt.has(kFlagAbbey);
    for (const Figure f : {Figure::kFollower, Figure::kMayor, Figure::kWagon}) {
      if (!in_supply(p, f)) continue;
      for (int s = 0; s < tt.num_segments; ++s) {
        if (!free[s]) continue;
        const SegmentKind kind = tt.segments[s].kind;
        if (f == Figure::kMayor && (kind != SegmentKind::kCity || abbey)) continue;
        if (f == Figure::kWagon && kind == SegmentKind::kField) continue;
        if (emit(Action::deploy(f, s))) return true;
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

void State::legal_actions(ActionList& out) const {
  out.size = 0;
  switch (flow_.phase) {
    case Phase::kPlace: generate_placements(out); break;
    case Phase::kDeploy:
      out.push(Action::pass());
      generate_deploys(out);
      break;
    case Phase::kRedeploy:
    case Phase::kFinalRedeploy:
      out.push(Action::pass());
      generate_redeploys(out, flow_.acting, flow_.phase == Phase::kFinalRedeploy);
      break;
    case Phase::kCountDeploy:
      out.push(Action::pass());
      generate_count_deploys(out);
      break;
    case Phase::kTurnStart:
    case Phase::kAbbeyRound:
      out.push(Action::pass());
      generate_abbeys(out);
      break;
    case Phase::kWagonMove:
      out.push(Action::pass());
      generate_wagon_moves(out, flow_.acting);
      break;
    default: break;
  }
}

bool State::is_legal(Action a) const {
  switch (flow_.phase) {
    case Phase::kDraw:
      return a.kind() == Action::kDraw && a.tile() < cat().size() && tally_.remaining[a.tile()] > 0 &&
             draw_pile(a.tile()) == drawable_pile();
    case Phase::kPlace: {
      if (a.kind() != Action::kPlace) return false;
      const int canonical = cat()[flow_.drawn].rot[a.rotation()].canonical;
      ActionList list;
      generate_placements(list);
      return list.contains(Action::place(a.cell(), canonical));
    }
    case Phase::kDeploy:
    case Phase::kRedeploy:
    case Phase::kCountDeploy:
    case Phase::kFinalRedeploy:
    case Phase::kTurnStart:
    case Phase::kAbbeyRound:
    case Phase::kWagonMove: {
      ActionList list;
      legal_actions(list);
      return list.contains(a);
    }
    case Phase::kGameOver: return false;
  }
  return false;
}

std::string State::try_apply(Action a) {
  if (is_legal(a)) {
    apply(a);
    return {};
  }
  const TileCatalog& c = cat();
  switch (flow_.phase) {
    case Phase::kDraw: {
      if (a.kind() != Action::kDraw) return "expected a tile draw, got " + a.to_string();
      if (a.tile() >= c.size()) return "no tile type " + std::to_string(a.tile());
      const std::string id = c[a.tile()].id;
      if (tally_.remaining[a.tile()] == 0) return "tile " + id + " cannot be drawn: no copy of it is left";
      return "tile " + id + " cannot be drawn now: the river tiles are drawn first, the fork first of all and the lake last (R2)";
    }
    case Phase::kPlace:
      if (a.kind() != Action::kPlace) return "expected the placement of " + c[flow_.drawn].id + ", got " + a.to_string();
      if (find_cell(a.cell()) >= 0) return "cell (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") already holds a tile";
      if (frontier_index(a.cell()) < 0)
        return "cell (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") does not touch the board (B3)";
      if (c[flow_.drawn].river)
        return c[flow_.drawn].id + " at (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") rotated " +
               std::to_string(90 * a.rotation()) +
               " does not continue the river legally: its edges must match, it must extend exactly one open river end, and no curve may turn the same way as the one before it (B3, R3-R5)";
      return c[flow_.drawn].id + " at (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") rotated " +
             std::to_string(90 * a.rotation()) + " does not match its neighbours' edges (B3)";
    case Phase::kTurnStart:
    case Phase::kAbbeyRound:
      if (a.kind() != Action::kPass && a.kind() != Action::kAbbey) return "expected an abbey placement or a draw, got " + a.to_string();
      return "the abbey goes on an empty square with tiles on all four sides (A1), next to at most one shrine (S2)";
    case Phase::kWagonMove:
      if (a.kind() != Action::kPass && a.kind() != Action::kWagon) return "expected a wagon move or taking the wagon back, got " + a.to_string();
      return "the wagon may only move to an incomplete, unoccupied feature adjacent to the one just scored (W2, W3)";
    case Phase::kDeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kDeploy) return "expected a deploy or a pass, got " + a.to_string();
      if (a.figure() != Figure::kFollower && !abbey_mayor()) return std::string("no ") + to_string(a.figure()) + " in these rules";
      if (!in_supply(flow_.turn_player, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
      if (a.figure() == Figure::kBarn)
        return "a barn goes on a corner of the tile just placed where four tiles meet with fields in all four corners, on a farm without a barn (F1)";
      if (a.figure() == Figure::kMayor) return "the mayor goes only into an unoccupied city (M1)";
      if (a.figure() == Figure::kWagon) return "the wagon goes only onto an unoccupied road, city, cloister, shrine or abbey (W1)";
      if (a.segment() >= c[board_.tiles[flow_.last_tile].type].num_segments) return "the tile just placed has no such segment";
      if (c[board_.tiles[flow_.last_tile].type].has(kFlagVolcano)) return "no follower may be deployed on the volcano (R7)";
      if (c[board_.tiles[flow_.last_tile].type].segments[a.segment()].kind == SegmentKind::kRiver) return "no follower may go on a river (B5)";
      return "that feature is already occupied (B5)";
    case Phase::kRedeploy:
    case Phase::kFinalRedeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kRedeploy) return "expected a redeploy or a pass, got " + a.to_string();
      if (a.quarter() == count_.quarter) return "followers in the Count's quarter cannot leave it (C5)";
      if (followers_in_quarter(flow_.acting, a.quarter()) == 0)
        return std::string("no follower of seat ") + std::to_string(flow_.acting) + " in the " + quarter_name(a.quarter());
      if (flow_.phase == Phase::kRedeploy)
        return std::string("from the ") + quarter_name(a.quarter()) +
               " a follower may only go onto a matching feature completed this turn (C6; the market only at farm scorings, C7)";
      return std::string("from the ") + quarter_name(a.quarter()) + " a follower may only go onto an incomplete matching feature (C9)";
    case Phase::kCountDeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kCountDeploy) return "expected a Count deploy or a pass, got " + a.to_string();
      if (!in_supply(flow_.acting, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
      if (a.quarter() == count_.quarter && rules_.on(Option::kCountBlocksEntry)) return "the Count's quarter cannot be entered (count_blocks_entry)";
      return "not a legal Count deploy here (C3, C4)";
    case Phase::kGameOver: return "the game is over";
  }
  return "illegal action";
}

// ---- Applying actions --------------------------------------------------------------------------------

void State::force_draw(int tile) {
  if (flow_.phase != Phase::kDraw) throw std::invalid_argument("force_draw: not at a chance node");
  const std::string err = try_apply(Action::draw(tile));
  if (!err.empty()) throw std::invalid_argument("force_draw: " + err);
}

void State::apply(Action a) {
  switch (a.kind()) {
    case Action::kDraw: {
      const int t = a.tile();
      --tally_.remaining[t];
      --tally_.pile_left[draw_pile(t)];
      flow_.drawn = static_cast<int16_t>(t);
      flow_.phase = Phase::kPlace;
      if (!has_placement()) {  // B4: fits nowhere; removed, and the same player draws again
        ++flow_.discarded;
        start_draw();
      }
      return;
    }
    case Action::kAbbey:
      place_abbey(a.cell());
      return;
    case Action::kWagon:
      place_figure(flow_.acting, Figure::kWagon, a.node());
      wagon_done(flow_.acting);
      continue_wagons();
      return;
    case Action::kPlace: {
      place_tile(flow_.drawn, a.rotation(), a.cell());
      flow_.last_tile = static_cast<int16_t>(board_.num_tiles - 1);
      flow_.last_placer = flow_.turn_player;
      flow_.drawn = -1;
      abbey_mayor_.barn_placed = false;
      if (can_deploy()) {
        flow_.phase = Phase::kDeploy;
      } else {
        after_deploy();
      }
      return;
    }
    case Action::kDeploy: {
      const int p = flow_.turn_player;
      const PlacedTile& pt = board_.tiles[flow_.last_tile];
      if (a.figure() == Figure::kBarn) {
        tally_.figures[p][kBarnSlot] = static_cast<uint16_t>(pt.node_base + corner_field(flow_.last_tile, a.segment()));
        abbey_mayor_.barn_placed = true;
      } else {
        place_figure(p, a.figure(), pt.node_base + a.segment());
      }
      after_deploy();
      return;
    }
    case Action::kCountDeploy:
      count_deploy(a);
      end_turn();
      return;
    case Action::kRedeploy:
      move_from_quarter(flow_.acting, a.moved_figure(), a.quarter(), a.node());
      if (flow_.phase == Phase::kRedeploy) {
        continue_lap();  // the same player may move more
      } else {
        flow_.acting = static_cast<uint8_t>((flow_.acting + 1) % rules_.players);
        continue_final_redeploy();
      }
      return;
    case Action::kPass:
      switch (flow_.phase) {
        case Phase::kDeploy: after_deploy(); return;
        case Phase::kRedeploy:
          flow_.acting = static_cast<uint8_t>((flow_.acting + 1) % rules_.players);
          --count_.lap_left;
          continue_lap();
          return;
        case Phase::kCountDeploy: end_turn(); return;
        case Phase::kTurnStart: flow_.phase = Phase::kDraw; return;  // draw instead of placing the abbey
        case Phase::kAbbeyRound:
          flow_.acting = static_cast<uint8_t>((flow_.acting + 1) % rules_.players);
          --abbey_mayor_.round_left;
          continue_abbey_round();
          return;
        case Phase::kWagonMove:  // the wagon stays in supply
          wagon_done(flow_.acting);
          continue_wagons();
          return;
        case Phase::kFinalRedeploy:
          count_.out_mask = static_cast<uint8_t>(count_.out_mask | (1 << flow_.acting));
          flow_.acting = static_cast<uint8_t>((flow_.acting + 1) % rules_.players);
          continue_final_redeploy();
          return;
        default: return;
      }
    case Action::kNone: break;
  }
}

void State::after_deploy() {
  collect_completed();
  if (count_in_play() && completed_.num_features > 0) {  // C6: a redeploy lap before the scoring
    flow_.acting = static_cast<uint8_t>((flow_.turn_player + 1) % rules_.players);
    count_.lap_left = rules_.players;
    continue_lap();
    return;
  }
  score_and_continue();
}

void State::score_and_continue() {
  flow_.scored_mask = 0;
  abbey_mayor_.wagons_to_move = 0;
  flow_.turn_scoring = true;
  score_completed();
  flow_.turn_scoring = false;
  const uint8_t me = static_cast<uint8_t>(1 << flow_.turn_player);
  // C3: others scored, the placer did not (decided now, offered after the wagons have moved).
  count_.deploy_due = count_in_play() && flow_.scored_mask && !(flow_.scored_mask & me);
  flow_.acting = flow_.turn_player;
  continue_wagons();
}

// After the wagons: the Count deploy if due and possible, then the next turn.
void State::after_wagons() {
  if (count_.deploy_due) {
    count_.deploy_due = false;
    flow_.acting = flow_.turn_player;
    ActionList options;
    options.size = 0;
    generate_count_deploys(options);
    if (options.size > 0) {
      flow_.phase = Phase::kCountDeploy;
      return;
    }
  }
  end_turn();
}

void State::end_turn() {
  if (abbey_mayor_.in_abbey_round) {  // the abbey round goes on with the next player
    flow_.acting = static_cast<uint8_t>((flow_.turn_player + 1) % rules_.players);
    --abbey_mayor_.round_left;
    continue_abbey_round();
    return;
  }
  flow_.turn_player = static_cast<uint8_t>((flow_.turn_player + 1) % rules_.players);
  start_turn();
}

void State::place_figure(int player, Figure f, int node) {
  tally_.figures[player][slot_in_supply(player, f)] = static_cast<uint16_t>(node);
  features_.followers[find(node)] += 1u << (4 * player);
  const PlacedTile& pt = board_.tiles[features_.node_tile[node]];
  if (rules_.has(kCultPlaces) && node - pt.node_base == cat()[pt.type].cloister) maybe_challenge(features_.node_tile[node], player);
}

int State::slot_in_supply(int player, Figure f) const {
  switch (f) {
    case Figure::kFollower:
      for (int slot = 0; slot < kFollowersPerPlayer; ++slot)
        if (tally_.figures[player][slot] == kInSupply) return slot;
      return -1;
    case Figure::kMayor: return abbey_mayor() && tally_.figures[player][kMayorSlot] == kInSupply ? kMayorSlot : -1;
    case Figure::kWagon: return abbey_mayor() && tally_.figures[player][kWagonSlot] == kInSupply ? kWagonSlot : -1;
    case Figure::kBarn: return abbey_mayor() && tally_.figures[player][kBarnSlot] == kInSupply ? kBarnSlot : -1;
  }
  return -1;
}

bool State::in_supply(int player, Figure f) const { return slot_in_supply(player, f) >= 0; }

// ---- Scoring -----------------------------------------------------------------------------------------

int State::strength_on(int root, int player) const {
  int n = strength(features_.followers[root], player);
  const uint16_t mayor = tally_.figures[player][kMayorSlot];
  if (on_board(mayor) && find(mayor) == root) n += features_.pennants[root] - 1;  // M1: as strong as the pennants
  return n;
}

void State::score_feature(int root, int points, int category, bool return_figures) {
  if (!features_.followers[root]) return;
  int best = 0;
  for (int p = 0; p < rules_.players; ++p) best = std::max(best, strength_on(root, p));
  for (int p = 0; p < rules_.players; ++p) {
    if (best > 0 && strength_on(root, p) == best) {
      tally_.scores[p][category] = static_cast<int16_t>(tally_.scores[p][category] + points);
      if (points > 0) flow_.scored_mask = static_cast<uint8_t>(flow_.scored_mask | (1 << p));
    }
  }
  if (return_figures) this->return_figures(root, flow_.turn_scoring);
}

// Followers, mayors and wagons on the feature go back to supply (barns stay: F5). A wagon leaving a
// feature scored during a turn may then move (W2).
void State::return_figures(int root, bool wagons_may_move) {
  const uint32_t packed = features_.followers[root];
  for (int p = 0; p < rules_.players; ++p) {
    if (!strength(packed, p)) continue;
    for (int slot = 0; slot < kBarnSlot; ++slot) {
      uint16_t& f = tally_.figures[p][slot];
      if (!on_board(f) || find(f) != root) continue;
      f = kInSupply;
      if (slot == kWagonSlot && wagons_may_move) {
        abbey_mayor_.wagons_to_move = static_cast<uint8_t>(abbey_mayor_.wagons_to_move | (1 << p));
        abbey_mayor_.wagon_from[p] = static_cast<uint16_t>(root);
      }
    }
  }
  features_.followers[root] = 0;
}

void State::score_completed() {
  const TileCatalog& c = cat();
  for (int i = 0; i < completed_.num_features; ++i) {
    const int root = completed_.features[i];
    const PlacedTile& pt = board_.tiles[features_.node_tile[root]];
    const SegmentKind kind = c[pt.type].segments[root - pt.node_base].kind;
    if (!is_scored_linear(kind)) continue;  // buildings: score_buildings
    const int size = features_.tile_count[root];
    if (kind == SegmentKind::kCity) {
      ++king_robber_.completed_cities;
      const bool small = size == 2 && rules_.option(Option::kSmallCity) == kSmallCityTwoPoints;
      score_feature(root, small ? size + features_.pennants[root] : 2 * size + 2 * features_.pennants[root], kCityPoints);
      if (rules_.has(kKingRobber) && size > king_robber_.king_size) {  // K1
        king_robber_.king = static_cast<int8_t>(flow_.turn_player);
        king_robber_.king_size = static_cast<uint8_t>(size);
      }
    } else {
      ++king_robber_.completed_roads;
      score_feature(root, size, kRoadPoints);
      if (rules_.has(kKingRobber) && size > king_robber_.robber_size) {  // K2
        king_robber_.robber = static_cast<int8_t>(flow_.turn_player);
        king_robber_.robber_size = static_cast<uint8_t>(size);
      }
    }
  }
  score_buildings();
  score_farms_with_barns();
}

// S3: a follower put on a building next to an occupied building of the other kind starts a challenge
// (with challenge_own off, only against another player's follower). S2 allows at most one such neighbour.
void State::maybe_challenge(int tile_index, int player) {
  const int kind = building_kind(tile_index);
  const PlacedTile& pt = board_.tiles[tile_index];
  for (int d = 0; d < 8; ++d) {
    const int j = find_cell(cell_key(pt.x + kDx8[d], pt.y + kDy8[d]));
    // A building completed by this very tile is scored before it could be challenged [HS fn 15].
    if (j < 0 || building_kind(j) == 0 || building_kind(j) == kind || board_.tiles[j].around == 8) continue;
    const uint32_t there = features_.followers[find(board_.tiles[j].node_base + cat()[board_.tiles[j].type].cloister)];
    if (!there) continue;
    if (!rules_.on(Option::kChallengeOwn) && there == static_cast<uint32_t>(strength(there, player)) << (4 * player)) continue;
    board_.tiles[tile_index].rival = static_cast<uint8_t>(j);
    board_.tiles[j].rival = static_cast<uint8_t>(tile_index);
    return;
  }
}

// Cloisters and shrines completed by the last tile (B8, S1). In a challenge the first completed wins
// (S4): it scores 9, the rival's follower returns with nothing; completed by the same tile, both score.
void State::score_buildings() {
  const TileCatalog& c = cat();
  auto completed_now = [&](int tile) {
    for (int i = 0; i < completed_.num_cloisters; ++i)
      if (completed_.cloisters[i] == tile) return true;
    return false;
  };
  for (int i = 0; i < completed_.num_cloisters; ++i) {
    PlacedTile& winner = board_.tiles[completed_.cloisters[i]];
    const int root = winner.node_base + c[winner.type].cloister;
    if (winner.rival != kNoRival) {
      PlacedTile& loser = board_.tiles[winner.rival];
      winner.rival = loser.rival = kNoRival;
      if (!completed_now(static_cast<int>(&loser - board_.tiles.data()))) {
        if (rules_.option(Option::kShrineHouseRule) == 1) score_feature(root, 1 + loser.around, kBonusPoints, false);
        return_figures(loser.node_base + c[loser.type].cloister, false);  // W4: a losing wagon does not move
      }
    }
    score_feature(root, 9, kCloisterPoints);
  }
}

// Distinct completed cities a farm touches (B12), the City of Carcassonne included (C8); `pig` tells
// whether the pig herd is in it (R8).
int State::farm_cities(int root, bool& pig) const {
  const TileCatalog& c = cat();
  std::array<uint16_t, 64> cities;
  int num_cities = 0;
  bool carcassonne = false;
  pig = false;
  int m = root;
  do {
    const PlacedTile& pt = board_.tiles[features_.node_tile[m]];
    const Segment& seg = c[pt.type].segments[m - pt.node_base];
    pig = pig || seg.pig_herd;
    carcassonne = carcassonne || c[pt.type].has(kFlagBlock);  // C8: the ring fields touch the City
    for (uint8_t touches = seg.touches; touches; touches &= static_cast<uint8_t>(touches - 1)) {
      const int city = find(pt.node_base + __builtin_ctz(touches));
      if (features_.open[city] != 0) continue;
      if (std::find(cities.begin(), cities.begin() + num_cities, city) == cities.begin() + num_cities)
        cities[num_cities++] = static_cast<uint16_t>(city);
    }
    m = features_.next_member[m];
  } while (m != root);
  return num_cities + (carcassonne ? 1 : 0);
}

int State::farm_points(int root, bool pig_herd_counts) const {
  bool pig = false;
  const int cities = farm_cities(root, pig);
  return cities * ((pig && pig_herd_counts) ? 4 : 3);
}

void State::final_scoring() {
  const TileCatalog& c = cat();
  const bool pig = rules_.on(Option::kPigHerd);
  for (int n = 0; n < features_.num_nodes; ++n) {
    if (features_.parent[n] != n || features_.followers[n] == 0) continue;
    const PlacedTile& pt = board_.tiles[features_.node_tile[n]];
    if (features_.open[n] == 0 && is_scored_linear(c[pt.type].segments[n - pt.node_base].kind)) continue;  // scored when completed
    switch (c[pt.type].segments[n - pt.node_base].kind) {
      case SegmentKind::kCity: score_feature(n, features_.tile_count[n] + features_.pennants[n], kCityPoints); break;
      case SegmentKind::kRoad: score_feature(n, features_.tile_count[n], kRoadPoints); break;
      case SegmentKind::kCloister:
      case SegmentKind::kShrine: score_feature(n, 1 + pt.around, kCloisterPoints); break;
      case SegmentKind::kField: score_feature(n, farm_points(n, pig), kFieldPoints); break;
      case SegmentKind::kRiver: break;
    }
  }
  for (int i = 0; i < board_.num_tiles; ++i) board_.tiles[i].rival = kNoRival;  // S4: unresolved, scored as incomplete
  // F5: each barn scores 4 per completed city of its farm (+1 with the pig herd and pig_herd_barn).
  for (int p = 0; p < rules_.players; ++p) {
    const uint16_t barn = tally_.figures[p][kBarnSlot];
    if (!on_board(barn)) continue;
    bool pig = false;
    const int cities = farm_cities(find(barn), pig);
    const int per_city = 4 + ((pig && rules_.on(Option::kPigHerdBarn)) ? 1 : 0);
    tally_.scores[p][kBonusPoints] = static_cast<int16_t>(tally_.scores[p][kBonusPoints] + cities * per_city);
  }
  // K3; with the Count the City of Carcassonne is one more completed city (C8).
  if (king_robber_.king >= 0)
    tally_.scores[king_robber_.king][kBonusPoints] = static_cast<int16_t>(tally_.scores[king_robber_.king][kBonusPoints] + king_robber_.completed_cities + (count_in_play() ? 1 : 0));
  if (king_robber_.robber >= 0) tally_.scores[king_robber_.robber][kBonusPoints] = static_cast<int16_t>(tally_.scores[king_robber_.robber][kBonusPoints] + king_robber_.completed_roads);
}

// ---- Queries -----------------------------------------------------------------------------------------

int State::score(int player) const {
  int total = 0;
  for (int c = 0; c < kNumCategories; ++c) total += tally_.scores[player][c];
  return total;
}

std::array<int, kMaxPlayers> State::final_scores_if_ended_now() const {
  State copy = *this;
  return copy.score_as_if_ended();
}

std::array<int, kMaxPlayers> State::score_as_if_ended() {
  if (!is_terminal()) final_scoring();
  std::array<int, kMaxPlayers> out{};
  for (int p = 0; p < rules_.players; ++p) out[p] = score(p);
  return out;
}

std::array<bool, kMaxPlayers> State::winners() const {
  std::array<bool, kMaxPlayers> out{};
  int best = -1;
  for (int p = 0; p < rules_.players; ++p) best = std::max(best, score(p));
  for (int p = 0; p < rules_.players; ++p) out[p] = score(p) == best;
  return out;
}

int State::followers_in_supply(int player) const {
  int n = 0;
  for (int slot = 0; slot < kFollowersPerPlayer; ++slot) n += tally_.figures[player][slot] == kInSupply;
  return n;
}

int State::figure_node(int player, int slot) const {
  return on_board(tally_.figures[player][slot]) ? tally_.figures[player][slot] : -1;
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
  for (int p = 0; p < kMaxPlayers; ++p) info.followers[p] = strength(features_.followers[root], p);
  return info;
}

bool State::Board::operator==(const Board& o) const {
  return num_tiles == o.num_tiles && frontier_size == o.frontier_size && cells == o.cells &&
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
                   followers[n] != o.followers[n]))
      return false;
  }
  return true;
}

}  // namespace meeple
