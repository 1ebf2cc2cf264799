// Base scoring: majorities (B9), features completed during a turn (B6-B8; a challenge between buildings is
// decided in cult_places.cpp, the King and the Robber in king_robber.cpp), farms (B12) and final scoring
// (B11), and the score queries.
#include "engine.h"

#include <algorithm>
#include <stdexcept>

namespace meeple {

// ---- Scoring -----------------------------------------------------------------------------------------

int State::strength_on(int root, int player) const {
  int n = strength(followers_at(root), player);
  const uint16_t mayor = tally_.figures[player][kMayorSlot];
  if (on_board(mayor) && find(mayor) == root) n += features_.pennants[root] - 1;  // M1: as strong as the pennants
  return n;
}

uint8_t State::award(int root, int points, int category, Scores& to) const {
  if (!occupied(root)) return 0;
  std::array<int, kMaxPlayers> strengths;
  int best = 0;
  for (int p = 0; p < rules_.players; ++p) best = std::max(best, strengths[p] = strength_on(root, p));
  if (best == 0) return 0;
  uint8_t leaders = 0;
  for (int p = 0; p < rules_.players; ++p) {
    if (strengths[p] != best) continue;
    to[p][category] = static_cast<int16_t>(to[p][category] + points);
    leaders = static_cast<uint8_t>(leaders | (1 << p));
  }
  return leaders;
}

void State::score_feature(int root, int points, int category, bool return_figures) {
  if (!occupied(root)) return;
  const uint8_t leaders = award(root, points, category, tally_.scores);
  if (points > 0) flow_.scored_mask = static_cast<uint8_t>(flow_.scored_mask | leaders);
  if (return_figures) this->return_figures(root, flow_.turn_scoring);
}

// Followers, mayors and wagons on the feature go back to supply (barns stay: F5). A wagon leaving a
// feature scored during a turn may then move (W2).
void State::return_figures(int root, bool wagons_may_move) {
  const uint32_t packed = followers_at(root);
  for (int p = 0; p < rules_.players; ++p) {
    if (!strength(packed, p)) continue;
    // Every slot looked at without a branch on where its figure is (a figure in supply looks up the root).
    bool wagon_back = false;
    for (int slot = 0; slot < kBarnSlot; ++slot) {
      uint16_t& f = tally_.figures[p][slot];
      const bool placed = on_board(f);
      const bool back = placed & (find(placed ? f : root) == root);
      f = back ? kInSupply : f;
      wagon_back |= back & (slot == kWagonSlot);
    }
    if (wagon_back && wagons_may_move) {
      abbey_mayor_.wagons_to_move = static_cast<uint8_t>(abbey_mayor_.wagons_to_move | (1 << p));
      abbey_mayor_.wagon_from[p] = static_cast<uint16_t>(root);
    }
  }
  clear_figures_at(root);
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
      const bool small = size == 2 && rules_.small_city() == SmallCity::kTwoPoints;
      score_feature(root, small ? size + features_.pennants[root] : 2 * size + 2 * features_.pennants[root], kCityPoints);
      city_completed(size);
    } else {
      score_feature(root, size, kRoadPoints);
      road_completed(size);
    }
  }
  score_buildings();
  score_farms_with_barns();
}

// Cloisters and shrines completed by the last tile (B8, S1). In a challenge the first completed wins
// (S4): it scores 9, the rival's follower returns with nothing; completed by the same tile, both score.
void State::score_buildings() {
  const TileCatalog& c = cat();
  for (int i = 0; i < completed_.num_cloisters; ++i) {
    PlacedTile& winner = board_.tiles[completed_.cloisters[i]];
    const int root = winner.node_base + c[winner.type].cloister;
    if (winner.rival != kNoRival) end_challenge(winner);
    score_feature(root, 9, kCloisterPoints);
  }
}

// Distinct completed cities a farm touches (B12), the City of Carcassonne included (C8); `pig` tells
// whether the pig herd is in it (R8).
int State::farm_cities(int root, bool& pig) const {
  const TileCatalog& c = cat();
  NodeSet cities;  // completed cities bordering the farm, each counted once
  int num_cities = 0;
  bool pig_herd = false, carcassonne = false;
  for_each_member(root, [&](int m) {
    const PlacedTile& pt = board_.tiles[features_.node_tile[m]];
    const TileType& tt = c[pt.type];
    const Segment& seg = tt.segments[m - pt.node_base];
    pig_herd |= seg.pig_herd;
    carcassonne |= tt.has(kFlagBlock);  // C8: the ring fields touch the City
    for (uint8_t touches = seg.touches; touches; touches &= static_cast<uint8_t>(touches - 1)) {
      const int city = find(pt.node_base + __builtin_ctz(touches));
      num_cities += cities.add(static_cast<unsigned>(city), features_.open[city] == 0);
    }
  });
  pig = pig_herd;
  return num_cities + (carcassonne ? 1 : 0);
}

namespace {
// Where final scoring writes its account: set only while State::final_account applies the last action, so
// that the account comes from the one scoring code path (a game's final scoring costs a null check more).
thread_local FinalAccount* t_account = nullptr;

ScoredFeature::What what_of(SegmentKind kind) {  // of a feature final scoring pays through its figures
  switch (kind) {
    case SegmentKind::kCity: return ScoredFeature::kCity;
    case SegmentKind::kRoad: return ScoredFeature::kRoad;
    case SegmentKind::kCloister: return ScoredFeature::kCloister;
    case SegmentKind::kShrine: return ScoredFeature::kShrine;
    case SegmentKind::kField:
    case SegmentKind::kRiver: break;
  }
  return ScoredFeature::kFarm;
}
}  // namespace

const char* to_string(ScoredFeature::What w) {
  static constexpr const char* kNames[] = {"city", "road", "cloister", "shrine", "farm", "barn", "king", "robber"};
  return kNames[w];
}

std::vector<std::array<int, 2>> State::feature_cells(int node) const {
  std::vector<std::array<int, 2>> cells;
  NodeSet tiles;  // tile indices, fewer than kMaxNodes
  for_each_member(node, [&](int m) {
    const int t = features_.node_tile[m];
    if (tiles.add(static_cast<unsigned>(t))) cells.push_back({board_.tiles[t].x, board_.tiles[t].y});
  });
  return cells;
}

// The account's entry for a payment (`node`: where the feature's cells start, -1 for none).
void State::note_payment(FinalAccount& account, ScoredFeature::What what, int node, uint8_t paid, int points,
                         int completed) const {
  if (!paid) return;  // nobody's majority (a mayor alone on a city without pennants)
  static constexpr ScoreCategory kCategory[] = {kCityPoints, kRoadPoints, kCloisterPoints, kCloisterPoints,
                                                kFieldPoints, kBonusPoints, kBonusPoints, kBonusPoints};
  ScoredFeature& e = account.features.emplace_back();
  e.what = what;
  e.category = kCategory[what];
  if (node >= 0) e.cells = feature_cells(node);
  e.pennants = what == ScoredFeature::kCity ? features_.pennants[find(node)] : 0;
  e.completed = completed;
  e.paid = paid;
  for (int p = 0; p < rules_.players; ++p) e.points[p] = (paid >> p & 1) ? points : 0;
}

// Final scoring (B11) added to `to`, changing nothing, so "if the game ended now" needs no copy: each
// occupied feature once (found through the figures, a few dozen, rather than every node), barns (F5),
// the King and the Robber (K3; with the Count the City of Carcassonne is one more completed city, C8).
// The roots of the features scored go to `scored` when one is given (final scoring returns their figures);
// with kAccount each payment goes to `account` (State::final_account), in an instantiation of its own so
// that scoring without one costs what it did before accounts existed.
template <bool kAccount>
void State::add_final_points(Scores& to, NodeSet* scored, FinalAccount* account) const {
  const TileCatalog& c = cat();
  const bool pig = rules_.on(Option::kPigHerd);
  NodeSet seen;
  for_each_figure([&](int, int slot, int figure) {
    if (slot == kBarnSlot) return;  // barns are paid below
    const int n = find(figure);
    if (!seen.add(static_cast<unsigned>(n))) return;
    const PlacedTile& pt = board_.tiles[features_.node_tile[n]];
    const SegmentKind kind = c[pt.type].segments[n - pt.node_base].kind;
    if (features_.open[n] == 0 && is_scored_linear(kind)) return;  // scored when completed
    if (scored) scored->add(static_cast<unsigned>(n));
    int points = 0, cities = 0;
    uint8_t paid = 0;
    switch (kind) {
      case SegmentKind::kCity: paid = award(n, points = features_.tile_count[n] + features_.pennants[n], kCityPoints, to); break;
      case SegmentKind::kRoad: paid = award(n, points = features_.tile_count[n], kRoadPoints, to); break;
      case SegmentKind::kCloister:
      case SegmentKind::kShrine: paid = award(n, points = 1 + pt.around, kCloisterPoints, to); break;  // S4: a challenge unresolved
      case SegmentKind::kField: {
        bool pig_herd = false;
        cities = farm_cities(n, pig_herd);
        paid = award(n, points = cities * ((pig_herd && pig) ? 4 : 3), kFieldPoints, to);
        break;
      }
      case SegmentKind::kRiver: return;  // holds no figure
    }
    if constexpr (kAccount) note_payment(*account, what_of(kind), figure, paid, points, cities);
  });
  // F5: each barn scores 4 per completed city of its farm (+1 with the pig herd and pig_herd_barn).
  for (int p = 0; p < rules_.players; ++p) {
    const uint16_t barn = tally_.figures[p][kBarnSlot];
    if (!on_board(barn)) continue;
    bool pig_herd = false;
    const int cities = farm_cities(find(barn), pig_herd);
    const int points = cities * (4 + ((pig_herd && rules_.on(Option::kPigHerdBarn)) ? 1 : 0));
    to[p][kBonusPoints] = static_cast<int16_t>(to[p][kBonusPoints] + points);
    if constexpr (kAccount) note_payment(*account, ScoredFeature::kBarn, barn, static_cast<uint8_t>(1 << p), points, cities);
  }
  if (king_robber_.king >= 0 || king_robber_.robber >= 0) add_king_robber_points(to, kAccount ? account : nullptr);
}

// The points, then the figures of the features scored go back to supply; challenges end unresolved (S4).
void State::final_scoring() {
  if (t_account)
    for (int p = 0; p < rules_.players; ++p)
      for (int c = 0; c < kNumCategories; ++c) t_account->before[p][c] = tally_.scores[p][c];
  NodeSet scored;
  if (t_account) {
    add_final_points<true>(tally_.scores, &scored, t_account);
  } else {
    add_final_points<false>(tally_.scores, &scored, nullptr);
  }
  // Back to supply: one pass over the figures for all the features (return_figures, once per feature,
  // would look at every figure of their owners each time; no wagon moves after the game). Each figure is
  // looked at once, so it may leave the board during the walk. Barns stay (F5).
  for_each_figure([&](int p, int slot, int node) {
    if (slot == kBarnSlot) return;
    const int root = find(node);
    if (!scored.has(static_cast<unsigned>(root))) return;
    tally_.figures[p][slot] = kInSupply;
    clear_figures_at(root);
  });
  for (int i = 0; i < board_.num_tiles; ++i) board_.tiles[i].rival = kNoRival;
}

std::optional<FinalAccount> State::final_account(Action last) const {
  State after = *this;
  FinalAccount account;
  struct Sink {  // unset however apply leaves
    explicit Sink(FinalAccount* a) { t_account = a; }
    ~Sink() { t_account = nullptr; }
  } sink(&account);
  const std::string error = after.try_apply(last);
  if (!error.empty()) throw std::invalid_argument(last.to_string() + ": " + error);
  if (!after.is_terminal()) return std::nullopt;
  return account;
}

// ---- Queries -----------------------------------------------------------------------------------------

int State::score(int player) const {
  int total = 0;
  for (int c = 0; c < kNumCategories; ++c) total += tally_.scores[player][c];
  return total;
}

std::array<int, kMaxPlayers> State::final_scores_if_ended_now() const {
  Scores scores = tally_.scores;
  if (!is_terminal()) add_final_points<false>(scores);
  std::array<int, kMaxPlayers> out{};
  for (int p = 0; p < rules_.players; ++p)
    for (int c = 0; c < kNumCategories; ++c) out[p] += scores[p][c];
  return out;
}

std::array<bool, kMaxPlayers> State::winners() const {
  std::array<bool, kMaxPlayers> out{};
  int best = -1;
  for (int p = 0; p < rules_.players; ++p) best = std::max(best, score(p));
  for (int p = 0; p < rules_.players; ++p) out[p] = score(p) == best;
  return out;
}

}  // namespace meeple
