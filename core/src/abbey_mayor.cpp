// Abbey & Mayor (docs/rules.md sections 6 and 7): abbey squares and the end round, barn corners and barn
// scorings, wagon moves. The mayor's strength is in State::strength_on, deploy choices in
// State::generate_deploys.
#include <algorithm>
#include <string>

#include "engine.h"

namespace meeple {

namespace {

int abbey_type() {
  static const int type = TileCatalog::get().find("AM.A");
  return type;
}

// The three other tiles meeting at corner k of a tile (offsets), and which of their corners it is.
constexpr int kCornerDx[4][3] = {{0, 1, 1}, {1, 1, 0}, {0, -1, -1}, {-1, -1, 0}};
constexpr int kCornerDy[4][3] = {{-1, -1, 0}, {0, 1, 1}, {1, 1, 0}, {0, -1, -1}};
constexpr int kCornerOf[4][3] = {{kSE, kSW, kNW}, {kSW, kNW, kNE}, {kNW, kNE, kSE}, {kNE, kSE, kSW}};

}  // namespace

// ---- Abbey (A1-A4) -----------------------------------------------------------------------------------

// Empty squares with a tile on all four sides, in key order; with cult places, also S2 (an abbey is a
// cloister there).
namespace {
// A frontier cell with a tile on all four sides: a requirement on every edge (no empty cell is next to an
// abbey, whose edges would require nothing: an abbey's four sides all touch tiles).
bool enclosed(uint32_t frontier_entry) {
  uint32_t nibbles = frontier_entry & 0xFFFF;
  nibbles |= nibbles >> 1;
  nibbles |= nibbles >> 2;
  return (nibbles & 0x1111) == 0x1111;
}
}  // namespace

void State::generate_abbeys(ActionList& out) const {
  const int first = out.size;
  const TileType& abbey = cat()[abbey_type()];
  for (int i = 0; i < board_.frontier_size; ++i) {
    if (!enclosed(board_.frontier[i])) continue;
    const CellKey cell = static_cast<CellKey>(board_.frontier[i] >> 16);
    if (rules_.has(kCultPlaces) && !building_placement_ok(abbey, cell)) continue;
    out.push(Action::abbey(cell));
  }
  std::sort(out.items.begin() + first, out.items.begin() + out.size);
}

void State::apply_abbey(Action a) {
  if (flow_.phase == Phase::kAbbeyRound) flow_.turn_player = flow_.acting;
  abbey_mayor_.abbeys = static_cast<uint8_t>(abbey_mayor_.abbeys & ~(1 << flow_.turn_player));
  place_tile(abbey_type(), 0, a.cell());
  placed();
}

// A1: passing at the start of a turn is drawing instead (tiles are left: kTurnStart is offered only then).
void State::draw_instead_of_abbey() { flow_.phase = Phase::kDraw; }

std::string State::why_not_abbey(Action) const {
  return "the abbey goes on an empty square with tiles on all four sides (A1), next to at most one shrine (S2)";
}

bool State::can_place_abbey() const {
  // A count without an early exit, so the loop vectorizes: enclosed cells are rare.
  const int size = board_.frontier_size;
  int enclosed_cells = 0;
  for (int i = 0; i < size; ++i) enclosed_cells += enclosed(board_.frontier[i]);
  if (enclosed_cells == 0) return false;
  ActionList squares;
  squares.size = 0;
  generate_abbeys(squares);
  return squares.size > 0;
}

// A4: after the last tile, one lap from the left of the last tile's placer; each player still holding an
// abbey places it (a turn of their own, with deployment and scoring) or declines.
bool State::start_abbey_round() {
  if (abbey_mayor_.in_abbey_round || !abbey_mayor() || !abbey_mayor_.abbeys || !rules_.on(Option::kAbbeyEndRound)) return false;
  abbey_mayor_.in_abbey_round = true;
  flow_.acting = next_seat(flow_.last_placer);
  abbey_mayor_.round_left = rules_.players;
  continue_abbey_round();
  return true;
}

void State::continue_abbey_round() {
  while (abbey_mayor_.round_left > 0) {
    if (has_abbey(flow_.acting) && can_place_abbey()) {
      flow_.turn_player = flow_.acting;
      flow_.phase = Phase::kAbbeyRound;
      return;
    }
    flow_.acting = next_seat(flow_.acting);
    --abbey_mayor_.round_left;
  }
  end_of_tiles();
}

void State::decline_abbey_round() {
  flow_.acting = next_seat(flow_.acting);
  --abbey_mayor_.round_left;
  continue_abbey_round();
}

// ---- Barn (F1-F5) ------------------------------------------------------------------------------------

int State::corner_field(int tile_index, int corner) const {
  const PlacedTile& pt = board_.tiles[tile_index];
  const auto& rot = cat()[pt.type].rot[pt.rotation];
  const uint8_t a = rot.half_segment[2 * corner + 1], b = rot.half_segment[(2 * corner + 2) & 7];
  return (a != kNoSegment && a == b) ? a : -1;
}

bool State::has_barn(int root) const {
  for (int p = 0; p < rules_.players; ++p) {
    const uint16_t f = tally_.figures[p][kBarnSlot];
    if (on_board(f) && find(f) == root) return true;
  }
  return false;
}

// F1: four tiles meet at the corner, each with a field filling it, on a farm without a barn.
bool State::barn_corner_ok(int corner) const {
  const PlacedTile& pt = board_.tiles[flow_.last_tile];
  if (pt.around < 3) return false;  // three other tiles at one corner: three neighbours at least
  const int own = corner_field(flow_.last_tile, corner);
  if (own < 0) return false;
  for (int i = 0; i < 3; ++i) {
    const int j = find_cell(cell_key(pt.x + kCornerDx[corner][i], pt.y + kCornerDy[corner][i]));
    if (j < 0 || corner_field(j, kCornerOf[corner][i]) < 0) return false;
  }
  return !has_barn(find(pt.node_base + own));
}

// Farms the last tile puts to a barn scoring: the farm of a barn just placed (F2: its farmers score as at
// the end) and farms with a barn that the tile joined to farmers (F4: 1 per city). Barns stay.
void State::score_farms_with_barns() {
  if (!abbey_mayor()) return;
  const TileCatalog& c = cat();
  const int barn_root = abbey_mayor_.barn_placed ? find(tally_.figures[flow_.turn_player][kBarnSlot]) : -1;
  for (int i = 0; i < completed_.num_features; ++i) {
    const int root = completed_.features[i];
    const PlacedTile& pt = board_.tiles[features_.node_tile[root]];
    if (c[pt.type].segments[root - pt.node_base].kind != SegmentKind::kField) continue;
    bool pig = false;
    const int cities = farm_cities(root, pig);
    const bool pig_counts = pig && rules_.on(Option::kPigHerd);
    const int points = root == barn_root ? cities * (pig_counts ? 4 : 3) : cities * (pig_counts ? 2 : 1);
    score_feature(root, points, kFieldPoints);
  }
}

// ---- Wagon (W1-W4) -----------------------------------------------------------------------------------

// W3 (1st edition): a road and the city, cloister, shrine or abbey it runs into on the same tile; roads
// meeting at one crossing; an abbey and the cities and roads on its sides. Never through a field, never
// city to city. Targets must be incomplete and unoccupied (W2). In action (root node) order.
// Seat `player`'s wagon has moved or stays: no longer due to move, and the feature it left is forgotten
// (unused entries are zero, so equal positions compare equal).
void State::wagon_done(int player) {
  abbey_mayor_.wagons_to_move = static_cast<uint8_t>(abbey_mayor_.wagons_to_move & ~(1 << player));
  abbey_mayor_.wagon_from[player] = 0;
}

void State::generate_wagon_moves(ActionList& out, int player) const {
  const TileCatalog& c = cat();
  const int from = find(abbey_mayor_.wagon_from[player]);
  std::array<uint16_t, 64> found;
  int num_found = 0;
  auto consider = [&](int node) {
    const int root = find(node);
    if (root == from || occupied(root)) return;
    const PlacedTile& pt = board_.tiles[features_.node_tile[root]];
    const SegmentKind kind = c[pt.type].segments[root - pt.node_base].kind;
    const bool complete = (kind == SegmentKind::kCity || kind == SegmentKind::kRoad) ? features_.open[root] == 0
                          : (kind == SegmentKind::kCloister || kind == SegmentKind::kShrine) ? pt.around == 8
                                                                                            : true;
    if (complete) return;
    if (std::find(found.begin(), found.begin() + num_found, root) == found.begin() + num_found && num_found < 64)
      found[num_found++] = static_cast<uint16_t>(root);
  };
  for_each_member(from, [&](int m) {
    const int t = features_.node_tile[m];
    const PlacedTile& pt = board_.tiles[t];
    const TileType& tt = c[pt.type];
    const int s = m - pt.node_base;
    const Segment& seg = tt.segments[s];
    for (int o = 0; o < tt.num_segments; ++o) {
      if (o == s) continue;
      const Segment& other = tt.segments[o];
      const bool linked =
          (seg.kind == SegmentKind::kRoad &&
           ((seg.end == RoadEnd::kCity && seg.end_city == o) ||
            ((seg.end == RoadEnd::kCloister || seg.end == RoadEnd::kShrine) && o == tt.cloister) ||
            (seg.end == RoadEnd::kJunction && other.kind == SegmentKind::kRoad && other.end == RoadEnd::kJunction))) ||
          (other.kind == SegmentKind::kRoad && other.end == RoadEnd::kCity && other.end_city == s) ||
          (s == tt.cloister && other.kind == SegmentKind::kRoad &&
           (other.end == RoadEnd::kCloister || other.end == RoadEnd::kShrine));
      if (linked) consider(pt.node_base + o);
    }
    // Across an abbey's sides, both ways.
    const auto& rot = tt.rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      const int j = find_cell(neighbour(cell_key(pt.x, pt.y), e));
      if (j < 0) continue;
      const PlacedTile& nt = board_.tiles[j];
      const TileType& ntt = c[nt.type];
      if (tt.has(kFlagAbbey)) {
        const uint8_t their = ntt.rot[nt.rotation].edge_segment[kOpposite(e)];
        if (their != kNoSegment && ntt.segments[their].kind != SegmentKind::kRiver) consider(nt.node_base + their);
      } else if (ntt.has(kFlagAbbey) && rot.edge_segment[e] == s) {
        consider(nt.node_base + ntt.cloister);
      }
    }
  });
  std::sort(found.begin(), found.begin() + num_found);
  for (int i = 0; i < num_found; ++i) out.push(Action::wagon(found[i]));
}

// W2: owners decide clockwise from the placing player; a wagon with nowhere to go stays in supply.
void State::continue_wagons() {
  if (!abbey_mayor_.wagons_to_move) {
    after_wagons();
    return;
  }
  ActionList options;
  for (int i = 0; i < rules_.players; ++i) {
    const int p = (flow_.turn_player + i) % rules_.players;
    if (!(abbey_mayor_.wagons_to_move & (1 << p))) continue;
    options.size = 0;
    generate_wagon_moves(options, p);
    if (options.size > 0) {
      flow_.acting = static_cast<uint8_t>(p);
      flow_.phase = Phase::kWagonMove;
      return;
    }
    wagon_done(p);
  }
  after_wagons();
}

void State::apply_wagon_move(Action a) {
  place_figure(flow_.acting, Figure::kWagon, a.node());
  wagon_done(flow_.acting);
  continue_wagons();
}

void State::keep_wagon() {  // the wagon goes back to supply
  wagon_done(flow_.acting);
  continue_wagons();
}

std::string State::why_not_wagon_move(Action) const {
  return "the wagon may only move to an incomplete, unoccupied feature adjacent to the one just scored (W2, W3)";
}

}  // namespace meeple
