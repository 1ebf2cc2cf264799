#include "meeple/ai/encoding.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

namespace meeple {
namespace {

// Window index (row * kWindow + column) of the same cell after the image is turned `turns` quarter turns
// clockwise: the north row becomes the east column.
int turn_cell(int cell, int turns) {
  int r = cell / kWindow, c = cell % kWindow;
  for (int k = 0; k < (turns & 3); ++k) {
    const int r2 = c, c2 = kWindow - 1 - r;
    r = r2, c = c2;
  }
  return r * kWindow + c;
}

int floor_half(int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

uint8_t saturate(int v) { return static_cast<uint8_t>(std::clamp(v, 0, 255)); }

// The quarter a redeploy onto a feature of this kind comes from (C6: each quarter feeds one kind).
int quarter_feeding(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::kCity: return kCastle;
    case SegmentKind::kField: return kMarket;
    case SegmentKind::kRoad: return kBlacksmith;
    case SegmentKind::kCloister:
    case SegmentKind::kShrine: return kCathedral;
    case SegmentKind::kRiver: break;
  }
  return -1;
}

// Whether `node` is a segment of a placed tile (ids name nodes, and an id may come from anywhere).
bool on_board(const State& s, int node) {
  if (node < 0 || node >= kMaxNodes) return false;
  const int tile = s.node_tile(node);
  if (tile < 0 || tile >= s.num_tiles()) return false;
  const int segment = node - s.tile(tile).node_base;
  return segment >= 0 && segment < TileCatalog::get()[s.tile(tile).type].num_segments;
}

// A feature's first segment ever placed: its smallest node, the same whatever node the union-find roots it at.
int first_node(const State& s, int node) {
  int first = node;
  s.for_each_member(node, [&](int m) { first = std::min(first, m); });
  return first;
}

// Ids of figures that move (redeploys, Count deploys): follower, mayor, wagon.
constexpr int kMovableFigures = 3;

}  // namespace

Window Window::of(const State& s, int turns) {
  const State::Extent e = s.extent();
  // The placed tiles and one cell more each way (where the next tile may go), centred.
  const int width = e.max_x - e.min_x + 3, height = e.max_y - e.min_y + 3;
  Window w;
  w.x0 = e.min_x - 1 - floor_half(kWindow - width);
  w.y0 = e.min_y - 1 - floor_half(kWindow - height);
  w.turns = turns & 3;
  w.fits = width <= kWindow && height <= kWindow;
  return w;
}

int Window::cell(int x, int y) const {
  const int r = y - y0, c = x - x0;
  if (r < 0 || r >= kWindow || c < 0 || c >= kWindow) return -1;
  return turn_cell(r * kWindow + c, turns);
}

CellKey Window::key(int cell) const {
  const int unturned = turn_cell(cell, 4 - turns);
  return cell_key(x0 + unturned % kWindow, y0 + unturned / kWindow);
}

Encoding::Encoding(int players) : players_(players), tile_types_(TileCatalog::get().size()) {
  if (players < 2 || players > kMaxPlayers)
    throw std::invalid_argument("an encoding is for 2 to 6 players, got " + std::to_string(players));
  int at = 0;
  const auto take = [&](int n) {
    const int start = at;
    at += n;
    return start;
  };
  const int p = players;
  flat_.in_hand = take(tile_types_);
  flat_.placed = take(tile_types_);
  flat_.placed_rotation = take(4);
  flat_.remaining = take(tile_types_);
  flat_.tiles_left = take(1);
  flat_.phase = take(static_cast<int>(Phase::kGameOver) + 1);
  flat_.acting = take(p);
  flat_.turn = take(p);
  flat_.scores = take(p);
  flat_.followers = take(p);
  flat_.specials = take(3 * p);
  flat_.abbeys = take(p);
  flat_.king = take(p);
  flat_.robber = take(p);
  flat_.count_quarter = take(kNumQuarters);
  flat_.in_quarters = take(kNumQuarters * p);
  flat_.expansions = take(kNumExpansions);
  flat_.outside_window = take(1);
  flat_.size = at;
}

bool Encoding::observe(const State& s, int seat, uint8_t* planes, float* flat, int turns) const {
  if (s.num_players() != players_)
    throw std::invalid_argument("a state of " + std::to_string(s.num_players()) + " players given to an encoding for " +
                                std::to_string(players_));
  if (seat < 0 || seat >= players_)
    throw std::invalid_argument("seat must be 0 to " + std::to_string(players_ - 1) + ", got " + std::to_string(seat));
  const TileCatalog& catalog = TileCatalog::get();
  const Window w = Window::of(s, turns);
  const int k = w.turns;
  std::memset(planes, 0, static_cast<size_t>(plane_size()));
  std::fill(flat, flat + flat_.size, 0.0f);
  const auto relative = [&](int p) { return p >= seat ? p - seat : p - seat + players_; };
  const auto at = [&](int plane, int cell) -> uint8_t& { return planes[plane * kWindowCells + cell]; };
  const auto seat_plane = [&](int p, int offset) { return kBoardPlanes + relative(p) * kSeatPlanes + offset; };
  // A feature's facts once per feature, not once per segment: a field or a long road crosses many tiles.
  std::array<int16_t, kMaxNodes + kMaxSegments> info_slot;
  info_slot.fill(-1);
  FeatureInfo infos[kMaxNodes];
  int num_infos = 0;
  const auto info_of = [&](int node) -> const FeatureInfo& {
    const int root = s.feature_root(node);
    int16_t& slot = info_slot[static_cast<size_t>(root)];
    if (slot < 0) {
      slot = static_cast<int16_t>(num_infos);
      infos[num_infos++] = s.feature(root);
    }
    return infos[slot];
  };

  for (int i = 0; i < s.num_tiles(); ++i) {
    const PlacedTile& pt = s.tile(i);
    const int c = w.cell(pt.x, pt.y);
    if (c < 0) continue;
    const TileType& t = catalog[pt.type];
    at(t.has(kFlagAbbey) ? kAbbeyTile : kTile, c) = 1;
    if (t.has(kFlagBlock)) at(kCountCity, c) = 1;
    at(kAround, c) = pt.around;
    const TileType::Rotated& rot = t.rot[pt.rotation];
    for (int e = 0; e < 4; ++e) {
      // What the edge is for matching (the Count's City has city edges but no segments), then the facts
      // of the city or road through it.
      const int edge = (e + k) & 3;
      const auto kind = static_cast<EdgeKind>((rot.edge_word >> (4 * e)) & 15);
      if (kind == EdgeKind::kCity) at(kCityEdge + edge, c) = 1;
      if (kind == EdgeKind::kRoad) at(kRoadEdge + edge, c) = 1;
      if (kind == EdgeKind::kRiver) at(kRiverEdge + edge, c) = 1;
      const int seg = rot.edge_segment[e];
      if (seg == kNoSegment || t.segments[static_cast<size_t>(seg)].kind == SegmentKind::kRiver) continue;
      const FeatureInfo& f = info_of(s.node(i, seg));
      at(kOpenEdges + edge, c) = saturate(f.open_edges);
      at(kFeatureTiles + edge, c) = saturate(f.tiles);
      for (int p = 0; p < players_; ++p) at(seat_plane(p, kOnEdge + edge), c) = saturate(f.followers[p]);
    }
    int pennants = 0;
    for (int seg = 0; seg < t.num_segments; ++seg) {
      const Segment& segment = t.segments[static_cast<size_t>(seg)];
      pennants += segment.pennants;
      if (segment.kind != SegmentKind::kField && segment.kind != SegmentKind::kCloister &&
          segment.kind != SegmentKind::kShrine)
        continue;
      const FeatureInfo& f = info_of(s.node(i, seg));
      if (segment.kind != SegmentKind::kField) at(segment.kind == SegmentKind::kShrine ? kShrine : kCloister, c) = 1;
      const int offset = segment.kind == SegmentKind::kField ? kOnField : kOnBuilding;
      for (int p = 0; p < players_; ++p) {
        uint8_t& v = at(seat_plane(p, offset), c);
        v = std::max(v, saturate(f.followers[p]));
      }
    }
    at(kPennants, c) = saturate(pennants);
  }

  s.for_each_figure([&](int p, int slot, int node) {
    const PlacedTile& pt = s.tile(s.node_tile(node));
    const int c = w.cell(pt.x, pt.y);
    if (c < 0) return;
    if (slot < kFollowersPerPlayer) ++at(seat_plane(p, kFollowers), c);
    else at(seat_plane(p, kSpecial), c) |= static_cast<uint8_t>(1 << (slot - kMayorSlot));  // 1 mayor, 2 wagon, 4 barn
  });

  for (int i = 0; i < s.frontier_size(); ++i) {
    const CellKey key = s.frontier_cell(i);
    const int c = w.cell(key_x(key), key_y(key));
    if (c >= 0) at(kFrontier, c) = 1;
  }
  if (s.phase() == Phase::kPlace || s.phase() == Phase::kTurnStart || s.phase() == Phase::kAbbeyRound) {
    ActionList legal;
    s.legal_actions(legal);
    const TileType* in_hand = s.drawn_tile() >= 0 ? &catalog[s.drawn_tile()] : nullptr;
    for (const Action a : legal) {
      const int c = a.kind() == Action::kPlace || a.kind() == Action::kAbbey ? w.cell(a.x(), a.y()) : -1;
      if (c < 0) continue;
      if (a.kind() == Action::kAbbey) {
        at(kAbbeyFits, c) = 1;
        continue;
      }
      // Every rotation with the listed one's layout fits too: the planes turn with the board.
      for (int r = 0; r < 4; ++r)
        if (in_hand->rot[r].canonical == a.rotation()) at(kFits + ((r + k) & 3), c) = 1;
    }
  }
  if (s.last_tile() >= 0) {
    const PlacedTile& last = s.tile(s.last_tile());
    if (const int c = w.cell(last.x, last.y); c >= 0) at(kLastPlaced, c) = 1;
    flat[flat_.placed + last.type] = 1;
    flat[flat_.placed_rotation + ((last.rotation + k) & 3)] = 1;
  }

  if (s.drawn_tile() >= 0) flat[flat_.in_hand + s.drawn_tile()] = 1;
  for (int t = 0; t < tile_types_; ++t) flat[flat_.remaining + t] = static_cast<float>(s.remaining(t));
  flat[flat_.tiles_left] = static_cast<float>(s.tiles_left());
  flat[flat_.phase + static_cast<int>(s.phase())] = 1;
  if (s.current_player() >= 0) flat[flat_.acting + relative(s.current_player())] = 1;
  if (!s.is_terminal()) flat[flat_.turn + relative(s.turn_player())] = 1;
  for (int p = 0; p < players_; ++p) {
    const int r = relative(p);
    flat[flat_.scores + r] = static_cast<float>(s.score(p));
    flat[flat_.followers + r] = static_cast<float>(s.followers_in_supply(p));
    flat[flat_.specials + 3 * r + 0] = s.in_supply(p, Figure::kMayor);
    flat[flat_.specials + 3 * r + 1] = s.in_supply(p, Figure::kWagon);
    flat[flat_.specials + 3 * r + 2] = s.in_supply(p, Figure::kBarn);
    flat[flat_.abbeys + r] = s.has_abbey(p);
    if (s.rules().has(kCount))
      for (int q = 0; q < kNumQuarters; ++q)
        flat[flat_.in_quarters + r * kNumQuarters + q] = static_cast<float>(
            s.followers_in_quarter(p, q) + s.figure_in_quarter(p, Figure::kMayor, q) + s.figure_in_quarter(p, Figure::kWagon, q));
  }
  if (s.king() >= 0) flat[flat_.king + relative(s.king())] = 1;
  if (s.robber() >= 0) flat[flat_.robber + relative(s.robber())] = 1;
  if (s.rules().has(kCount)) flat[flat_.count_quarter + s.count_quarter()] = 1;
  for (int x = 0; x < kNumExpansions; ++x) flat[flat_.expansions + x] = (s.rules().expansions >> x) & 1;
  flat[flat_.outside_window] = w.fits ? 0.0f : 1.0f;
  return w.fits;
}

int Encoding::legal_mask(const State& s, uint8_t* mask, int turns) const {
  std::memset(mask, 0, static_cast<size_t>(num_action_ids()));
  ActionList legal;
  s.legal_actions(legal);
  const Window w = Window::of(s, turns);
  int outside = 0;
  for (const Action a : legal) {
    const int id = id_of(s, w, a);
    if (id < 0) ++outside;
    else mask[id] = 1;
  }
  return outside;
}

int Encoding::id_of(const State& s, Action a, int turns) { return id_of(s, Window::of(s, turns), a); }

int Encoding::id_of(const State& s, const Window& w, Action a) {
  using namespace action_id;
  switch (a.kind()) {
    case Action::kPass: return kPass;
    case Action::kPlace: {
      const int c = w.cell(a.x(), a.y());
      if (c < 0) return -1;
      int rotation = (a.rotation() + w.turns) & 3;
      if (s.drawn_tile() >= 0) rotation = TileCatalog::get()[s.drawn_tile()].rot[rotation].canonical;
      return kPlace + 4 * c + rotation;
    }
    case Action::kAbbey: {
      const int c = w.cell(a.x(), a.y());
      return c < 0 ? -1 : kAbbey + c;
    }
    case Action::kDeploy:
      if (static_cast<int>(a.figure()) >= 4 || a.segment() >= kMaxSegments) return -1;
      return kDeploy + static_cast<int>(a.figure()) * kMaxSegments + a.segment();
    case Action::kCountDeploy:
      if (static_cast<int>(a.figure()) >= kMovableFigures || a.quarter() >= kNumQuarters || a.count_to() > kCountStays) return -1;
      return kCountDeploy + (static_cast<int>(a.figure()) * kNumQuarters + a.quarter()) * (kNumQuarters + 1) + a.count_to();
    case Action::kRedeploy:
      if (static_cast<int>(a.moved_figure()) >= kMovableFigures || !on_board(s, a.node())) return -1;
      return kRedeploy + static_cast<int>(a.moved_figure()) * kMaxNodes + first_node(s, a.node());
    case Action::kWagon:
      if (!on_board(s, a.node())) return -1;
      return kWagon + first_node(s, a.node());
    default: return -1;
  }
}

Action Encoding::action_of(const State& s, int id, int turns) {
  using namespace action_id;
  if (id == kPass) return Action::pass();
  if (id < kPass || id >= kEnd) return Action::none();
  if (id < kAbbey) {
    const Window w = Window::of(s, turns);
    const int cell = (id - kPlace) / 4;
    int rotation = ((id - kPlace) % 4 - w.turns) & 3;
    if (s.drawn_tile() >= 0) rotation = TileCatalog::get()[s.drawn_tile()].rot[rotation].canonical;
    return Action::place(w.key(cell), rotation);
  }
  if (id < kDeploy) return Action::abbey(Window::of(s, turns).key(id - kAbbey));
  if (id < kCountDeploy) return Action::deploy(static_cast<Figure>((id - kDeploy) / kMaxSegments), (id - kDeploy) % kMaxSegments);
  if (id < kRedeploy) {
    const int v = id - kCountDeploy;
    return Action::count_deploy(static_cast<Figure>(v / ((kNumQuarters + 1) * kNumQuarters)),
                                v / (kNumQuarters + 1) % kNumQuarters, v % (kNumQuarters + 1));
  }
  const bool wagon = id >= kWagon;
  const int node = wagon ? id - kWagon : (id - kRedeploy) % kMaxNodes;
  if (!on_board(s, node)) return Action::none();
  const int root = s.feature_root(node);
  if (wagon) return Action::wagon(root);
  const int quarter = quarter_feeding(s.feature(root).kind);
  if (quarter < 0) return Action::none();
  return Action::redeploy(quarter, static_cast<Figure>((id - kRedeploy) / kMaxNodes), root);
}

void Encoding::rotate_planes(uint8_t* planes, uint8_t* scratch, int turns) const {
  const int k = turns & 3;
  if (k == 0) return;
  std::memcpy(scratch, planes, static_cast<size_t>(plane_size()));
  // Planes that come four to a group, one per edge or rotation, pass to the next in the group per turn.
  const auto target_plane = [&](int plane) {
    const auto in_group = [&](int base) { return plane >= base && plane < base + 4; };
    for (const int base : {+kCityEdge, +kRoadEdge, +kRiverEdge, +kOpenEdges, +kFeatureTiles, +kFits})
      if (in_group(base)) return base + ((plane - base + k) & 3);
    if (plane >= kBoardPlanes) {
      const int seat_base = plane - (plane - kBoardPlanes) % kSeatPlanes;
      const int offset = plane - seat_base;
      if (offset < 4) return seat_base + ((offset + k) & 3);
    }
    return plane;
  };
  int turned[kWindowCells];
  for (int c = 0; c < kWindowCells; ++c) turned[c] = turn_cell(c, k);
  for (int p = 0; p < num_planes(); ++p) {
    const uint8_t* from = scratch + p * kWindowCells;
    uint8_t* to = planes + target_plane(p) * kWindowCells;
    for (int c = 0; c < kWindowCells; ++c) to[turned[c]] = from[c];
  }
}

void Encoding::rotate_flat(float* flat, int turns) const {
  float rotation[4];
  std::copy_n(flat + flat_.placed_rotation, 4, rotation);
  for (int r = 0; r < 4; ++r) flat[flat_.placed_rotation + ((r + turns) & 3)] = rotation[r];
}

int Encoding::rotate_id(int id, int turns, int in_hand) {
  using namespace action_id;
  const int k = turns & 3;
  if (id >= kPlace && id < kAbbey) {
    const int cell = (id - kPlace) / 4;
    int rotation = ((id - kPlace) % 4 + k) & 3;
    if (in_hand >= 0) rotation = TileCatalog::get()[in_hand].rot[rotation].canonical;
    return kPlace + 4 * turn_cell(cell, k) + rotation;
  }
  if (id >= kAbbey && id < kDeploy) return kAbbey + turn_cell(id - kAbbey, k);
  return id;
}

std::vector<Channel> Encoding::plane_channels() const {
  static const char* const kEdges[4] = {"N", "E", "S", "W"};
  std::vector<Channel> out(static_cast<size_t>(num_planes()));
  const auto set = [&](int plane, std::string name, std::string what) { out[static_cast<size_t>(plane)] = {std::move(name), std::move(what)}; };
  set(kTile, "tile", "1 on a placed land tile");
  set(kAbbeyTile, "abbey", "1 on an abbey");
  for (int e = 0; e < 4; ++e) {
    const std::string edge = kEdges[e];
    set(kCityEdge + e, "city_" + edge, "1 where the tile's " + edge + " edge is city");
    set(kRoadEdge + e, "road_" + edge, "1 where the tile's " + edge + " edge is road");
    set(kRiverEdge + e, "river_" + edge, "1 where the tile's " + edge + " edge is river");
    set(kOpenEdges + e, "open_" + edge, "open edges of the city or road through the " + edge + " edge (0: completed)");
    set(kFeatureTiles + e, "size_" + edge, "tiles of the city or road through the " + edge + " edge");
    set(kFits + e, "fits_" + std::to_string(90 * e), "the tile in hand may go here turned " + std::to_string(90 * e) + " degrees");
  }
  set(kCloister, "cloister", "1 on a tile with a cloister (abbeys included)");
  set(kShrine, "shrine", "1 on a tile with a shrine");
  set(kPennants, "pennants", "pennants on the tile");
  set(kCountCity, "count_city", "1 on a tile of the Count's City of Carcassonne");
  set(kAround, "around", "placed tiles among the 8 around (8: a cloister or shrine here is complete)");
  set(kFrontier, "frontier", "1 on an empty cell next to the board");
  set(kAbbeyFits, "abbey_fits", "the abbey may go here now");
  set(kLastPlaced, "last_placed", "1 on the tile placed this turn (deploys go on it)");
  for (int k = 0; k < players_; ++k) {
    const std::string who = "seat" + std::to_string(k), whose = k == 0 ? "the observer's" : "seat +" + std::to_string(k) + "'s";
    const int base = kBoardPlanes + k * kSeatPlanes;
    for (int e = 0; e < 4; ++e)
      set(base + kOnEdge + e, who + "_on_" + kEdges[e], std::string(whose) + " strength on the city or road through the " + kEdges[e] + " edge");
    set(base + kOnBuilding, who + "_on_building", std::string(whose) + " strength on the tile's cloister or shrine");
    set(base + kOnField, who + "_on_field", std::string(whose) + " largest strength on a field of the tile");
    set(base + kFollowers, who + "_followers", std::string(whose) + " followers standing on the tile");
    set(base + kSpecial, who + "_special", std::string(whose) + " mayor (1), wagon (2) and barn (4) on the tile, added");
  }
  return out;
}

std::vector<Channel> Encoding::flat_fields() const {
  const TileCatalog& catalog = TileCatalog::get();
  std::vector<Channel> out(static_cast<size_t>(flat_.size));
  const auto seat_name = [](int k) { return k == 0 ? std::string("observer") : "seat +" + std::to_string(k); };
  for (int t = 0; t < tile_types_; ++t) {
    const std::string& id = catalog[t].id;
    out[static_cast<size_t>(flat_.in_hand + t)] = {"in_hand." + id, "1 if the tile in hand is " + id};
    out[static_cast<size_t>(flat_.placed + t)] = {"placed." + id, "1 if the tile placed this turn is " + id};
    out[static_cast<size_t>(flat_.remaining + t)] = {"remaining." + id, "copies of " + id + " still to come"};
  }
  for (int r = 0; r < 4; ++r)
    out[static_cast<size_t>(flat_.placed_rotation + r)] = {"placed_rotation." + std::to_string(90 * r),
                                                           "1 if the tile placed this turn is turned " + std::to_string(90 * r) + " degrees"};
  out[static_cast<size_t>(flat_.tiles_left)] = {"tiles_left", "tiles still to come"};
  for (int ph = 0; ph <= static_cast<int>(Phase::kGameOver); ++ph)
    out[static_cast<size_t>(flat_.phase + ph)] = {std::string("phase.") + to_string(static_cast<Phase>(ph)), "1 in this phase"};
  static const char* const kSpecials[3] = {"mayor", "wagon", "barn"};
  for (int k = 0; k < players_; ++k) {
    const std::string who = seat_name(k), s = "." + std::to_string(k);
    out[static_cast<size_t>(flat_.acting + k)] = {"acting" + s, "1 if " + who + " decides now"};
    out[static_cast<size_t>(flat_.turn + k)] = {"turn" + s, "1 if it is " + who + "'s turn"};
    out[static_cast<size_t>(flat_.scores + k)] = {"score" + s, who + "'s points"};
    out[static_cast<size_t>(flat_.followers + k)] = {"followers" + s, who + "'s followers in supply"};
    for (int f = 0; f < 3; ++f)
      out[static_cast<size_t>(flat_.specials + 3 * k + f)] = {std::string(kSpecials[f]) + s, "1 if " + who + "'s " + kSpecials[f] + " is in supply"};
    out[static_cast<size_t>(flat_.abbeys + k)] = {"abbey" + s, "1 if " + who + " still holds the abbey"};
    out[static_cast<size_t>(flat_.king + k)] = {"king" + s, "1 if " + who + " holds the King"};
    out[static_cast<size_t>(flat_.robber + k)] = {"robber" + s, "1 if " + who + " holds the Robber Baron"};
    for (int q = 0; q < kNumQuarters; ++q)
      out[static_cast<size_t>(flat_.in_quarters + k * kNumQuarters + q)] = {
          std::string("in_") + quarter_name(q) + s, who + "'s figures in the Count's " + quarter_name(q) + " quarter"};
  }
  for (int q = 0; q < kNumQuarters; ++q)
    out[static_cast<size_t>(flat_.count_quarter + q)] = {std::string("count.") + quarter_name(q), std::string("1 if the Count stands in the ") + quarter_name(q)};
  for (int x = 0; x < kNumExpansions; ++x)
    out[static_cast<size_t>(flat_.expansions + x)] = {std::string("expansion.") + expansion_name(static_cast<Expansion>(1 << x)), "1 if this expansion is in play"};
  out[static_cast<size_t>(flat_.outside_window)] = {"outside_window", "1 if the board outgrew the window (the planes miss cells)"};
  return out;
}

}  // namespace meeple
