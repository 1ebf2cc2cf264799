// Scenario tests for The Count of Carcassonne, C1-C9 of docs/rules.md, and the Count footnotes [CKR fn N] of
// seeds/000_b9510b4c6106840e.txt.
//
// Board conventions: x grows east, y grows south. With the Count there is no start tile: the 12 tiles of
// the City of Carcassonne are the start block, all unrotated, CO.7 at (0,0):
//
//          x=-2    x=-1    x=0     x=1
//   y=-1   CO.1    CO.2    CO.3    CO.4       CO.1 road W (gate), CO.4 road N (gate)
//   y= 0   CO.5    CO.6    CO.7    CO.8
//   y=+1   CO.9    CO.10   CO.11   CO.12      CO.9 city cap S, CO.11 road S (gate), CO.12 city cap E
//
// The ring of fields round the walls is cut by the three roads into the top field (CO.1 north of its road,
// CO.2, CO.3, CO.4 west of its road), the right field (CO.4 east of its road, CO.8, CO.12, CO.11 east of
// its road; touches CO.12's cap) and the bottom-left field (CO.11 west of its road, CO.10, CO.9, CO.5,
// CO.1 south of its road; touches CO.9's cap).
//
// Most boards get followers into the City with "road pairs" on the row y=-2 north of the block:
//
//   y=-2   ... B2 A2 B1 A1 B0 A0        pair k: A_k = BA.LR rot 90 at (-2k,-2), road W ending at its cloister,
//   y=-1              CO.1 ... CO.4              with a thief; B_k = BA.LR rot 270 at (-2k-1,-2), road E
//                                                ending at its cloister, closes it: a 2-tile road, 2 points.
//
// A_k's placer scores 2, B_k's placer scores nothing, so B_k's placer may put a follower into a quarter
// (C3). None of those cloisters is ever completed (the row y=-3 stays empty).
//
// Every expected score is worked out by hand from core/data/tiles.txt and docs/rules.md.
//
// Abbey & Mayor footnotes (with rules count | abbey_mayor), at the end of the file: fn 11 (mayor and wagon
// into quarters, never the barn), fn 12 = [AM fn 50] (a barn placement that scores another player triggers
// the deploy), fn 19 (mayor only to the castle, wagon to castle, blacksmith or cathedral, and their
// redeploys), fn 25 (the cathedral follower onto a completed abbey), fn 27 and fn 28 = [AM fn 48, 54] (market
// followers at barn scorings and onto a barn farm in the final redeploy), and C3 with the abbey as trigger.
// Not covered because they need an expansion outside the project: the abbot of fn 11 and the German
// monasteries of fn 25 (its shrine part is tested), the dragon, magic portal, builder, big follower footnotes.
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "scenario.h"

namespace meeple::testing {
namespace {

using nlohmann::json;

int type_of(const char* id) {
  const int t = TileCatalog::get().find(id);
  if (t < 0) throw std::invalid_argument(std::string("no tile ") + id);
  return t;
}

Rules count_rules(int players, uint8_t more = 0,
                  const std::vector<std::pair<const char*, const char*>>& options = {}) {
  Rules r = rules_with(players, static_cast<uint8_t>(kCount | more));
  for (const auto& [name, value] : options) r.set_option(name, value);
  return r;
}

// The cloister or shrine of the tile at (x, y).
int building_node(const State& s, int x, int y) {
  const int idx = s.tile_at(x, y);
  if (idx < 0) throw std::invalid_argument("no tile at that cell");
  return s.node(idx, TileCatalog::get()[s.tile(idx).type].cloister);
}

// Record actions of the Count.
json count_deploy(const char* quarter, const char* count_to = nullptr) {
  json d = {{"figure", "follower"}, {"quarter", quarter}};
  d["count_to"] = count_to ? json(count_to) : json(nullptr);
  return json{{"count_deploy", d}};
}
json count_deploy_no_count_to(const char* quarter) {
  return json{{"count_deploy", {{"figure", "follower"}, {"quarter", quarter}}}};
}
json count_pass() { return json{{"count_deploy", nullptr}}; }
json redeploy(const char* from, int x, int y, const char* at) {
  return json{{"redeploy", {{"from", from}, {"figure", "follower"}, {"to", json::array({x, y, at})}}}};
}
json redeploy_pass() { return json{{"redeploy", nullptr}}; }

int legal_count(const State& s) {
  ActionList list;
  s.legal_actions(list);
  return list.size;
}
int in_city(const State& s, int player) {
  int n = 0;
  for (int q = 0; q < kNumQuarters; ++q) n += s.followers_in_quarter(player, q);
  return n;
}

// Road pair k (see the header): A_k with a thief, then B_k closes the 2-tile road.
void pair_a(Scenario& sc, int k) { sc.turn("BA.LR", -2 * k, -2, 90, "W"); }
void pair_b(Scenario& sc, int k) { sc.turn("BA.LR", -2 * k - 1, -2, 270); }

// Plays road pairs 0..quarters.size()-1. After each B the placer faces the Count deploy (C3): nobody has a
// follower in the blacksmith, so no redeploy lap comes first. quarters[k] "" passes; the first deploy also
// moves the Count to `first_count_to` (nullptr: it stays; only with count_move free).
void quarter_pairs(Scenario& sc, const std::vector<std::string>& quarters, const char* first_count_to = nullptr) {
  for (size_t k = 0; k < quarters.size(); ++k) {
    pair_a(sc, static_cast<int>(k));
    pair_b(sc, static_cast<int>(k));
    ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy) << "pair " << k;
    ASSERT_EQ(sc.state.current_player(), sc.state.turn_player());
    if (quarters[k].empty()) {
      sc.apply(count_pass());
    } else if (k == 0) {
      sc.apply(count_deploy(quarters[k].c_str(), first_count_to));
    } else {
      sc.apply(count_deploy(quarters[k].c_str()));
    }
  }
}

// ---- C1 Setup -------------------------------------------------------------------------------------------

// The 12 block tiles in their fixed layout, CO.7 at (0,0), all unrotated; the base start tile is out of the
// game (3 BA.RCr left, 71 tiles to draw); the Count stands in the castle and the City is empty.
TEST(Count, C1_BlockLayoutReplacesTheStartTile) {
  const State s(count_rules(2));
  EXPECT_EQ(s.num_tiles(), 12);
  for (int i = 0; i < 12; ++i) {
    const int x = i % 4 - 2, y = i / 4 - 1;
    const int idx = s.tile_at(x, y);
    ASSERT_GE(idx, 0) << x << "," << y;
    EXPECT_EQ(s.tile(idx).type, type_of(("CO." + std::to_string(i + 1)).c_str())) << x << "," << y;
    EXPECT_EQ(s.tile(idx).rotation, 0);
  }
  EXPECT_EQ(s.tile(s.tile_at(0, 0)).type, type_of("CO.7"));
  EXPECT_EQ(s.remaining(type_of("BA.RCr")), 3);
  EXPECT_EQ(s.tiles_left(), 71);
  EXPECT_EQ(s.count_quarter(), kCastle);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(in_city(s, p), 0);
    EXPECT_EQ(s.followers_in_supply(p), 7);
  }
  EXPECT_TRUE(s.is_chance());
  EXPECT_EQ(s.turn_player(), 0);
  // The 14 open outer edges of tiles.md section 5 are the frontier, nothing else.
  std::set<std::pair<int, int>> frontier;
  for (int i = 0; i < s.frontier_size(); ++i) frontier.insert({key_x(s.frontier_cell(i)), key_y(s.frontier_cell(i))});
  const std::set<std::pair<int, int>> expected = {{-2, -2}, {-1, -2}, {0, -2}, {1, -2}, {2, -1}, {2, 0}, {2, 1},
                                                  {1, 2},   {0, 2},   {-1, 2}, {-2, 2}, {-3, 1}, {-3, 0}, {-3, -1}};
  EXPECT_EQ(frontier, expected);

  // With a record deck the block is still placed by the rules and there is no start tile.
  Scenario sc(count_rules(2), {{"BA.C", 1}});
  EXPECT_EQ(sc.state.num_tiles(), 12);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 0)).type, type_of("CO.7"));
  EXPECT_EQ(sc.state.tiles_left(), 1);
}

// C1 with the River II [CKR fn 6, 7]: the spring goes at (2,-1) east of CO.4, the river flowing away from the
// City; the base start tile stays out (3 BA.RCr); 71 + 11 river tiles to draw; the fork (drawn first) can only
// continue the spring's mouth at (3,-1).
TEST(Count, C1_CKR_fn6_RiverIISpringEastOfTheBlock) {
  const State s(count_rules(2, kRiver2));
  EXPECT_EQ(s.num_tiles(), 13);
  ASSERT_GE(s.tile_at(2, -1), 0);
  EXPECT_EQ(s.tile(s.tile_at(2, -1)).type, type_of("RI.spring"));
  EXPECT_EQ(s.tile(s.tile_at(2, -1)).rotation, 0);
  EXPECT_EQ(s.tile(s.tile_at(0, 0)).type, type_of("CO.7"));
  EXPECT_EQ(s.remaining(type_of("BA.RCr")), 3);
  EXPECT_EQ(s.tiles_left(), 82);
  EXPECT_EQ(s.count_quarter(), kCastle);

  Scenario sc(count_rules(2, kRiver2), {{"BA.L", 1}});
  EXPECT_FALSE(sc.legal(json{{"draw", "BA.L"}}));  // the river comes first, the fork first of all
  sc.draw("RI2.III");
  ActionList list;
  sc.state.legal_actions(list);
  std::set<std::pair<int, int>> cells;
  for (const Action& a : list) cells.insert({a.x(), a.y()});
  EXPECT_EQ(cells, (std::set<std::pair<int, int>>{{3, -1}}));
  EXPECT_TRUE(sc.legal(json{{"place", {3, -1, 0}}}));
  EXPECT_FALSE(sc.legal(json{{"place", {3, -1, 90}}}));  // its field edge would face the spring's river
}

// [CKR fn 6] A river tile that cannot be placed near the City is removed and the same player draws again.
//
//   y=-2            IFC(270)                 the fork's north branch ends in IFC's city
//   y=-1  CO.4 spring fork(270)              the south branch: LIFI straight, then II turns west (right)
//   y= 0  CO.8  .     LIFI(90)
//   y= 1  CO.12 [?]   II(90)                 (2,1): river from E, CO.12's city W, the last turn was right
//         x=1   x=2   x=3
//
// At (2,1) only a left curve E-S with a city on its W edge fits (RI2.CcII+); the straight bridge-city RI2.CIcI
// would need a river edge against CO.12's city, and there is no other open river end: it is removed.
TEST(Count, CKR_fn6_RiverTileThatCannotBePlacedIsRemoved) {
  Scenario sc(count_rules(2, kRiver2), {{"BA.L", 1}});
  sc.turn("RI2.III", 3, -1, 270);  // seat 0
  sc.turn("RI2.IFC", 3, -2, 270);  // seat 1
  sc.turn("RI2.LIFI", 3, 0, 90);   // seat 0
  sc.turn("RI2.II", 3, 1, 90);     // seat 1
  ASSERT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.discarded(), 0);
  sc.draw("RI2.CIcI");
  EXPECT_EQ(sc.state.discarded(), 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.remaining(type_of("RI2.CIcI")), 0);
  // The game goes on: the same player draws the city curve, which fits, joining CO.12's cap.
  sc.turn("RI2.CcII+", 2, 1, 0);
  EXPECT_TRUE(sc.state.connected(edge_node(sc.state, 1, 1, "E"), edge_node(sc.state, 2, 1, "W")));
  EXPECT_EQ(sc.state.turn_player(), 1);
}

// ---- C2 Outer features ---------------------------------------------------------------------------------

// The block's outer features are ordinary features of one tile each: roads closed at the City's gates, city
// caps with one open wall, fields cut into three by the roads.
TEST(Count, C2_BlockFeaturesAreOrdinaryFeatures) {
  const State s(count_rules(2));
  for (auto [x, y, e] : {std::tuple{-2, -1, "W"}, std::tuple{1, -1, "N"}, std::tuple{0, 1, "S"}}) {
    const FeatureInfo road = s.feature(edge_node(s, x, y, e));
    EXPECT_EQ(road.kind, SegmentKind::kRoad);
    EXPECT_EQ(road.tiles, 1);
    EXPECT_EQ(road.open_edges, 1) << "the gate closes the road at the City";
    EXPECT_FALSE(road.complete);
  }
  for (auto [x, y, e] : {std::tuple{-2, 1, "S"}, std::tuple{1, 1, "E"}}) {
    const FeatureInfo cap = s.feature(edge_node(s, x, y, e));
    EXPECT_EQ(cap.kind, SegmentKind::kCity);
    EXPECT_EQ(cap.tiles, 1);
    EXPECT_EQ(cap.open_edges, 1);
    EXPECT_EQ(cap.pennants, 0);
  }
  const int top = field_node(s, -2, -1, "NL"), right = field_node(s, 1, -1, "EL"), left = field_node(s, 0, 1, "WL");
  EXPECT_TRUE(s.connected(top, field_node(s, 0, -1, "NR")));
  EXPECT_TRUE(s.connected(top, field_node(s, 1, -1, "NL")));
  EXPECT_TRUE(s.connected(right, field_node(s, 1, 0, "ER")));
  EXPECT_TRUE(s.connected(right, field_node(s, 1, 1, "SR")));
  EXPECT_TRUE(s.connected(right, field_node(s, 0, 1, "SL")));
  EXPECT_TRUE(s.connected(left, field_node(s, -1, 1, "SR")));
  EXPECT_TRUE(s.connected(left, field_node(s, -2, 1, "WR")));
  EXPECT_TRUE(s.connected(left, field_node(s, -2, 0, "WL")));
  EXPECT_TRUE(s.connected(left, field_node(s, -2, -1, "WL")));
  EXPECT_FALSE(s.connected(top, right));
  EXPECT_FALSE(s.connected(top, left));
  EXPECT_FALSE(s.connected(right, left));
}

// Roads off the three gates, each closed at the City (the block tile is one of the road's tiles):
//   (1,-2) BA.LR rot 0 closes CO.4's road N: seat 0's thief, 2 points.
//   (-3,-1) BA.LR rot 270 closes CO.1's road W: seat 1's thief, 2 points.
//   (0,2) BA.RFr rot 90 extends CO.11's road S with seat 0's thief; (0,3) BA.LR rot 180 closes it: 3 points.
TEST(Count, C2_RoadsOffTheGatesTakeFollowersAndCloseAtTheCity) {
  Scenario sc(count_rules(2), {{"BA.LR", 3}, {"BA.RFr", 1}, {"BA.L", 1}});
  sc.turn("BA.LR", 1, -2, 0, "S");
  EXPECT_EQ(sc.score(0, kRoadPoints), 2);
  sc.turn("BA.LR", -3, -1, 270, "E");
  EXPECT_EQ(sc.score(1, kRoadPoints), 2);
  sc.turn("BA.RFr", 0, 2, 90, "N");
  const FeatureInfo open = sc.state.feature(edge_node(sc.state, 0, 2, "N"));
  EXPECT_EQ(open.tiles, 2);
  EXPECT_EQ(open.open_edges, 1);
  EXPECT_EQ(open.followers[0], 1);
  sc.turn("BA.LR", 0, 3, 180);
  EXPECT_EQ(sc.score(0, kRoadPoints), 5);
  EXPECT_EQ(sc.score(1), 2);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  // Seat 1 scored nothing while seat 0 scored: the Count deploy (C3) follows; declined here.
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_pass());
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
}

// City caps: BA.C rot 0 at (-2,2) closes CO.9's cap, BA.C rot 270 at (2,1) closes CO.12's: 2-tile cities,
// 4 points each to the knight on them.
TEST(Count, C2_CityCapsCompleteWithOneTile) {
  Scenario sc(count_rules(2), {{"BA.C", 2}, {"BA.L", 1}});
  sc.turn("BA.C", -2, 2, 0, "N");
  EXPECT_EQ(sc.score(0, kCityPoints), 4);
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, -2, 1, "S")).complete);
  sc.turn("BA.C", 2, 1, 270, "W");
  EXPECT_EQ(sc.score(1, kCityPoints), 4);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // both scored their own city: no Count deploy
}

// ---- C3 The Count deploy ---------------------------------------------------------------------------------

// Road pair 0: seat 0's thief on A0 (0,-2), seat 1 closes it with B0 (-1,-2). Seat 0 scores 2, seat 1 none:
// seat 1 may put one follower from supply into any quarter, after the scoring [CKR fn 15].
TEST(Count, C3_DeployWhenOthersScoredAndPlacerDidNot) {
  Scenario sc(count_rules(2), {{"BA.LR", 2}, {"BA.L", 1}});
  pair_a(sc, 0);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // seat 0 completed nothing
  pair_b(sc, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_TRUE(scores_are(sc, {2, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);  // scoring came first: the thief is back
  EXPECT_EQ(legal_count(sc.state), 17);  // pass + 4 quarters x (Count stays or goes to one of the 3 others)
  for (const char* q : {"castle", "market", "blacksmith", "cathedral"}) EXPECT_TRUE(sc.legal(count_deploy(q))) << q;
  sc.apply(count_deploy("market"));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(sc.state.count_quarter(), kCastle);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.score(1), 0);
}

// [CKR fn 9] The trigger is points scored, not a completion: seat 1 closes the empty road CO.11-(0,2)-(0,3)
// (3 tiles, nobody scores): no Count deploy.
TEST(Count, C3_CKR_fn9_ZeroPointCompletionIsNotScoring) {
  Scenario sc(count_rules(2), {{"BA.RFr", 1}, {"BA.LR", 1}, {"BA.L", 1}});
  sc.turn("BA.RFr", 0, 2, 90);
  sc.turn("BA.LR", 0, 3, 180);
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 0, 2, "N")).complete);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(in_city(sc.state, 1), 0);
  EXPECT_EQ(sc.score(0) + sc.score(1), 0);
}

// Not when the placer also scored: seat 0's thief on CO.11's road (0,2), seat 1's thief on (1,2) BA.LR
// (road S to its cloister); seat 0 adds (1,3) BA.Rr rot 90 (road N-W), seat 1 closes with (0,3) BA.Rr rot 180
// (road N-E): CO.11, (0,2), (0,3), (1,3), (1,2) = 5 tiles, a 1-1 tie, both score 5. No Count deploy.
TEST(Count, C3_NoDeployWhenPlacerAlsoScored) {
  Scenario sc(count_rules(2), {{"BA.RFr", 1}, {"BA.LR", 1}, {"BA.Rr", 2}, {"BA.L", 1}});
  sc.turn("BA.RFr", 0, 2, 90, "N");
  sc.turn("BA.LR", 1, 2, 0, "S");
  sc.turn("BA.Rr", 1, 3, 90);
  sc.turn("BA.Rr", 0, 3, 180);
  EXPECT_TRUE(scores_are(sc, {5, 5}, kRoadPoints));
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(in_city(sc.state, 1), 0);
}

// Once per turn [CKR fn 15]: seat 0's thieves on (1,2) BA.LR rot 90 (road W) and (-1,2) BA.LR rot 270
// (road E); seat 1's BA.RRR rot 180 at (0,2) closes three roads at its junction: CO.11-(0,2) (empty),
// (1,2)-(0,2) and (-1,2)-(0,2) (seat 0: 2 + 2). Seat 1 gets one Count deploy, not two.
TEST(Count, C3_OnlyOneDeployPerTurn) {
  Scenario sc(count_rules(2), {{"BA.LR", 2}, {"BA.L", 1}, {"BA.RRR", 1}, {"BA.C", 1}});
  sc.turn("BA.LR", 1, 2, 90, "W");
  sc.turn("BA.L", -3, 0, 0);
  sc.turn("BA.LR", -1, 2, 270, "E");
  sc.turn("BA.RRR", 0, 2, 180);
  EXPECT_EQ(sc.score(0, kRoadPoints), 4);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  sc.apply(count_deploy("castle"));
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(in_city(sc.state, 1), 1);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
}

// The deploy needs a follower in supply: seat 1 closes seat 0's road pairs 0..6 and puts a follower into the
// castle each time, so after pair 6 it has none left; closing pair 7 scores seat 0 but offers seat 1 nothing.
TEST(Count, C3_NeedsAFollowerInSupply) {
  Scenario sc(count_rules(2), {{"BA.LR", 16}, {"BA.L", 1}});
  quarter_pairs(sc, std::vector<std::string>(7, "castle"));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 0);
  pair_a(sc, 7);
  pair_b(sc, 7);
  EXPECT_EQ(sc.score(0), 16);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
}

// [CKR fn 13] (Cult places) A challenge: seat 0's heretic on CU.S (-2,-2), seat 1's monk on BA.L (-1,-2).
// Seat 0 places the last tile round the cloister, (0,-3):
//   y=-3   BA.C   BA.C   BA.C*        (BA.C rot 0: city N, fields elsewhere)
//   y=-2   [S]    [K]    BA.C(90)
//   y=-1   CO.1   CO.2   CO.3
//          x=-2   x=-1   x=0
// The monk scores 9, the heretic returns with 0 points: seat 0 triggered scoring and got nothing, so it may
// put a follower into the City.
TEST(Count, C3_CKR_fn13_ChallengeLoserWhoCompletesTheRivalMayDeploy) {
  Scenario sc(count_rules(2, kCultPlaces), {{"CU.S", 1}, {"BA.L", 1}, {"BA.C", 5}, {"BA.RFr", 1}});
  sc.turn("CU.S", -2, -2, 0, "C");  // seat 0
  sc.turn("BA.L", -1, -2, 0, "C");  // seat 1: challenge
  ASSERT_EQ(sc.state.rival(sc.state.tile_at(-1, -2)), sc.state.tile_at(-2, -2));
  sc.turn("BA.C", 0, -2, 90);   // seat 0
  sc.turn("BA.C", -1, -3, 0);   // seat 1
  sc.turn("BA.C", -2, -3, 0);   // seat 0
  sc.turn("BA.C", -3, 0, 270);  // seat 1, elsewhere
  sc.turn("BA.C", 0, -3, 0);    // seat 0 completes the cloister
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  sc.apply(count_deploy("cathedral"));
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCathedral), 1);
}

// ---- C4 Moving the Count -----------------------------------------------------------------------------------

// count_move=free: the Count may go to any quarter or stay; into the Count's own quarter is allowed by default
// (count_blocks_entry off). Naming the Count's own quarter as its destination means it stays.
TEST(Count, C4_FreeMoveAnyQuarterOrStay) {
  Scenario sc(count_rules(2), {{"BA.LR", 6}, {"BA.L", 1}});
  pair_a(sc, 0);
  pair_b(sc, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_TRUE(sc.legal(count_deploy("market", "castle")));  // = stays
  for (const char* to : {"market", "blacksmith", "cathedral"}) EXPECT_TRUE(sc.legal(count_deploy("castle", to)));
  sc.apply(count_deploy("market", "cathedral"));
  EXPECT_EQ(sc.state.count_quarter(), kCathedral);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
  pair_a(sc, 1);
  pair_b(sc, 1);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy("castle"));
  EXPECT_EQ(sc.state.count_quarter(), kCathedral);  // no count_to: it stays
  pair_a(sc, 2);
  pair_b(sc, 2);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy("cathedral"));  // into the Count's quarter
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCathedral), 1);
  EXPECT_EQ(sc.state.count_quarter(), kCathedral);
  EXPECT_EQ(in_city(sc.state, 1), 3);
}

// count_move=clockwise: each deploy moves the Count on by one in the seed's order castle, market, blacksmith,
// cathedral, castle, wherever the follower goes; the player does not choose.
TEST(Count, C4_ClockwiseMovesToTheNextQuarter) {
  Scenario sc(count_rules(2, 0, {{"count_move", "clockwise"}}), {{"BA.LR", 8}, {"BA.L", 1}});
  const char* into[4] = {"castle", "market", "cathedral", "castle"};
  const int expected[4] = {kMarket, kBlacksmith, kCathedral, kCastle};
  for (int k = 0; k < 4; ++k) {
    pair_a(sc, k);
    pair_b(sc, k);
    ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy) << k;
    EXPECT_EQ(legal_count(sc.state), 5);  // pass + 4 quarters, no Count choice
    EXPECT_FALSE(sc.legal(count_deploy(into[k], "cathedral")));
    EXPECT_THROW(sc.apply(count_deploy(into[k], "cathedral")), std::invalid_argument);
    sc.apply(count_deploy_no_count_to(into[k]));
    EXPECT_EQ(sc.state.count_quarter(), expected[k]) << k;
  }
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 2);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCathedral), 1);
}

// count_move=follow: the Count goes to the quarter just deployed into.
TEST(Count, C4_FollowMovesToTheDeployedQuarter) {
  Scenario sc(count_rules(2, 0, {{"count_move", "follow"}}), {{"BA.LR", 6}, {"BA.L", 1}});
  const char* into[3] = {"market", "cathedral", "castle"};
  const int expected[3] = {kMarket, kCathedral, kCastle};
  for (int k = 0; k < 3; ++k) {
    pair_a(sc, k);
    pair_b(sc, k);
    ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy) << k;
    EXPECT_EQ(legal_count(sc.state), 5);
    EXPECT_THROW(sc.apply(count_deploy(into[k], "blacksmith")), std::invalid_argument);
    sc.apply(count_deploy(into[k]));
    EXPECT_EQ(sc.state.count_quarter(), expected[k]) << k;
  }
}

// [CKR fn 36] count_blocks_entry=on (RGG): no deploy into the Count's quarter. The Count is in the castle:
// pass + 3 quarters x 4 Count choices. Default off: the castle is open too.
TEST(Count, CKR_fn36_CountBlocksEntryOption) {
  Scenario on(count_rules(2, 0, {{"count_blocks_entry", "on"}}), {{"BA.LR", 2}, {"BA.L", 1}});
  pair_a(on, 0);
  pair_b(on, 0);
  ASSERT_EQ(on.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(legal_count(on.state), 13);
  EXPECT_FALSE(on.legal(count_deploy("castle")));
  EXPECT_FALSE(on.legal(count_deploy("castle", "market")));
  const std::string err = on.state.try_apply(action_from_json(on.state, count_deploy("castle")));
  EXPECT_NE(err.find("count_blocks_entry"), std::string::npos) << err;
  EXPECT_TRUE(on.legal(count_deploy("market")));
  on.apply(count_deploy("blacksmith", "market"));
  EXPECT_EQ(on.state.followers_in_quarter(1, kBlacksmith), 1);
  EXPECT_EQ(on.state.count_quarter(), kMarket);

  Scenario off(count_rules(2), {{"BA.LR", 2}, {"BA.L", 1}});
  pair_a(off, 0);
  pair_b(off, 0);
  ASSERT_EQ(off.state.phase(), Phase::kCountDeploy);
  EXPECT_TRUE(off.legal(count_deploy("castle")));
  off.apply(count_deploy("castle"));
  EXPECT_EQ(off.state.followers_in_quarter(1, kCastle), 1);
}

// ---- C5 The Count's quarter ----------------------------------------------------------------------------------

// Seat 1 has a follower in the castle (where the Count stays) and one in the blacksmith. Seat 0's thief on
// (-1,2) BA.LR rot 90 (road W); seat 1's BA.CRRR rot 0 at (-2,2) closes CO.9's cap (empty, 2 tiles) and that
// road at its junction (2 tiles). In the lap seat 1 may send the blacksmith follower to the road but not the
// castle follower to the city, even though empty cities may be entered (count_redeploy_empty on).
TEST(Count, C5_FollowersInTheCountsQuarterCannotLeave) {
  Scenario sc(count_rules(2), {{"BA.LR", 5}, {"BA.CRRR", 1}, {"BA.L", 1}});
  quarter_pairs(sc, {"castle", "blacksmith"});
  EXPECT_EQ(sc.state.count_quarter(), kCastle);
  EXPECT_EQ(sc.score(0), 4);
  sc.turn("BA.LR", -1, 2, 90, "W");  // seat 0
  sc.turn("BA.CRRR", -2, 2, 0);      // seat 1
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);  // seat 0 has nothing to move: skipped
  EXPECT_FALSE(sc.legal(redeploy("castle", -2, 2, "N")));
  const std::string err = sc.state.try_apply(action_from_json(sc.state, redeploy("castle", -2, 2, "N")));
  EXPECT_NE(err.find("C5"), std::string::npos) << err;
  EXPECT_TRUE(sc.legal(redeploy("blacksmith", -2, 2, "E")));
  EXPECT_EQ(legal_count(sc.state), 2);  // pass, or the blacksmith follower onto the road
  sc.apply(redeploy("blacksmith", -2, 2, "E"));
  // The road: seat 0 1, seat 1 1: both score 2; seat 1 scored, so no Count deploy.
  EXPECT_TRUE(scores_are(sc, {6, 2}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 1);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kBlacksmith), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
}

// ---- C6 The redeploy lap -------------------------------------------------------------------------------------

// Three players, road pairs 0..3 (pair k: A by seat 2k mod 3, B by seat 2k+1 mod 3): the castle gets seat 1
// (moving the Count to the cathedral), seat 0, seat 2, seat 1 again. Scores: seat 0 4 (roads A0 and A3),
// seat 1 2 (road A2), seat 2 2 (road A1). Then seat 2 plays (-2,2) BA.CFc rot 90 (city N-S, on CO.9's
// cap), with a knight when `knight`; it is seat 0's turn to close the city with (-2,3) BA.C.
Scenario three_players_in_castle(bool knight, const std::vector<std::pair<const char*, const char*>>& options = {}) {
  Scenario sc(count_rules(3, 0, options), {{"BA.LR", 8}, {"BA.CFc", 1}, {"BA.C", 1}, {"BA.L", 1}});
  quarter_pairs(sc, {"castle", "castle", "castle", "castle"}, "cathedral");
  sc.turn("BA.CFc", -2, 2, 90, knight ? "N" : "");
  return sc;
}

// The lap starts left of the placer: seat 0 closes CO.9-(-2,2)-(-2,3) (3 tiles, 6 points), so seat 1 decides
// first, then seat 2, then seat 0. Seat 1 moves both its castle followers, one action each; seat 2 (knight on
// the city, one follower in the castle) and seat 0 pass. Seat 1 has the majority 2-1: it alone scores 6, the
// knight scores nothing; all followers on the city return. Seat 0 scored nothing while seat 1 scored with
// redeployed followers: seat 0 may deploy (C3).
TEST(Count, C6_LapStartsLeftOfThePlacerAndRedeployedMajorityWins) {
  Scenario sc = three_players_in_castle(true);
  EXPECT_EQ(sc.state.count_quarter(), kCathedral);
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 1);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 2);
  EXPECT_EQ(sc.state.followers_in_quarter(2, kCastle), 1);
  ASSERT_EQ(sc.state.turn_player(), 0);
  sc.turn("BA.C", -2, 3, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(sc.state.turn_player(), 0);
  sc.apply(redeploy("castle", -2, 3, "N"));
  EXPECT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);  // may move more
  sc.apply(redeploy("castle", -2, 1, "S"));  // any tile of the city names it
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 2);  // seat 1 has nothing left to move
  const FeatureInfo city = sc.state.feature(edge_node(sc.state, -2, 3, "N"));
  EXPECT_EQ(city.followers[1], 2);
  EXPECT_EQ(city.followers[2], 1);
  EXPECT_EQ(sc.score(1), 2);  // not scored yet [CKR fn 22]
  sc.apply(redeploy_pass());
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 0);  // the placer last
  sc.apply(redeploy_pass());
  EXPECT_TRUE(scores_are(sc, {4, 8, 2}));
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.followers_in_supply(2), 6);  // the knight is back, one follower still in the castle
  EXPECT_EQ(sc.state.followers_in_quarter(2, kCastle), 1);
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 1);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
}

// [CKR fn 30] One lap only, the placer last: seat 1 moves one of its two castle followers and passes, seat 2
// and seat 0 move theirs. City: seat 2 has 2 (knight + 1), seats 1 and 0 one each: seat 2 alone scores 6.
// Seat 1 gets no second chance for the follower it kept [CKR fn 31: it scores nothing].
TEST(Count, C6_CKR_fn30_OneLapOnlyThePlacerLast) {
  Scenario sc = three_players_in_castle(true);
  sc.turn("BA.C", -2, 3, 0);
  ASSERT_EQ(sc.state.current_player(), 1);
  sc.apply(redeploy("castle", -2, 2, "N"));
  ASSERT_EQ(sc.state.current_player(), 1);
  sc.apply(redeploy_pass());
  ASSERT_EQ(sc.state.current_player(), 2);
  sc.apply(redeploy("castle", -2, 3, "N"));
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  ASSERT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.score(2), 2);
  sc.apply(redeploy("castle", -2, 3, "N"));
  EXPECT_TRUE(scores_are(sc, {4, 2, 8}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 1);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(2), 7);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);  // seat 0 (placer) scored nothing, seat 2 did
  EXPECT_EQ(sc.state.current_player(), 0);
}

// Only onto the features being scored, and only from the matching quarter: during the city lap CO.12's cap
// (incomplete city) and CO.11's road are no targets; the cathedral (the Count's) cannot be used.
TEST(Count, C6_OnlyOntoTheFeaturesBeingScored) {
  Scenario sc = three_players_in_castle(true);
  sc.turn("BA.C", -2, 3, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_TRUE(sc.legal(redeploy("castle", -2, 3, "N")));
  EXPECT_FALSE(sc.legal(redeploy("castle", 1, 1, "E")));
  EXPECT_FALSE(sc.legal(redeploy("castle", 0, 1, "S")));
  EXPECT_FALSE(sc.legal(redeploy("blacksmith", -2, 3, "N")));
  EXPECT_FALSE(sc.legal(redeploy("market", -1, 1, "SL")));
  EXPECT_EQ(legal_count(sc.state), 2);  // pass, or a castle follower onto the city
}

// A road completion does not open the lap to castle followers: in the fixture, pair 3's B (seat 1) closed a
// road while seats 0, 1, 2 each had a castle follower free of the Count; the engine went straight to the
// Count deploy. Here: seat 1's castle follower (Count in the market) stays put when seat 1 closes pair 1's
// road; it may go onto a city closed later.
TEST(Count, C6_QuarterMustMatchTheFeatureKind) {
  Scenario sc(count_rules(2), {{"BA.LR", 4}, {"BA.CFc", 1}, {"BA.C", 1}, {"BA.L", 1}});
  quarter_pairs(sc, {"castle"}, "market");
  pair_a(sc, 1);
  pair_b(sc, 1);
  EXPECT_EQ(sc.state.phase(), Phase::kCountDeploy);  // no redeploy lap for a road
  sc.apply(count_pass());
  sc.turn("BA.CFc", -2, 2, 90, "N");  // seat 0
  sc.turn("BA.C", -2, 3, 0);          // seat 1 closes the city
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_TRUE(sc.legal(redeploy("castle", -2, 3, "N")));
  sc.apply(redeploy_pass());
  EXPECT_EQ(sc.score(0), 4 + 6);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
}

// [CKR fn 20, 21] Unoccupied completed features are scored, so followers may be redeployed onto them
// (count_redeploy_empty on, the default): seat 2 plays (-2,2) without a knight, seat 0 closes the empty city;
// seat 1 moves one castle follower there and scores 6 alone, and it returns to supply. Seat 0 (placer) scored
// nothing while seat 1 did: seat 0 may deploy.
TEST(Count, C6_CKR_fn20_fn21_RedeployOntoUnoccupiedFeature) {
  Scenario sc = three_players_in_castle(false);
  sc.turn("BA.C", -2, 3, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_TRUE(sc.legal(redeploy("castle", -2, 3, "N")));
  sc.apply(redeploy("castle", -2, 3, "N"));
  sc.apply(redeploy_pass());
  ASSERT_EQ(sc.state.current_player(), 2);
  sc.apply(redeploy_pass());
  ASSERT_EQ(sc.state.current_player(), 0);
  sc.apply(redeploy_pass());
  EXPECT_EQ(sc.score(1), 8);
  EXPECT_EQ(sc.score(0), 4);
  EXPECT_EQ(sc.score(2), 2);
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 1);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
}

// [CKR fn 20] count_redeploy_empty=off: only occupied features may be entered. The empty city is closed,
// nobody is offered a move, nobody scores, and play goes on with seat 1's draw.
TEST(Count, C6_CKR_fn20_RedeployEmptyOffNeedsAnOccupiedFeature) {
  Scenario sc = three_players_in_castle(false, {{"count_redeploy_empty", "off"}});
  sc.turn("BA.C", -2, 3, 0);
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, -2, 3, "N")).complete);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_TRUE(scores_are(sc, {4, 2, 2}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 2);
  // With the option off an occupied city is still open to them.
  Scenario occupied = three_players_in_castle(true, {{"count_redeploy_empty", "off"}});
  occupied.turn("BA.C", -2, 3, 0);
  ASSERT_EQ(occupied.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(occupied.state.current_player(), 1);
  EXPECT_TRUE(occupied.legal(redeploy("castle", -2, 3, "N")));
}

// Building board for fn 15/22-25: the road CO.11-(0,2)-(0,3) gives seat 1 a Count deploy into the cathedral
// (seat 0's thief scores 3). Then seat 0 puts `building` (BA.L or CU.S) at (-1,-2) with a monk/heretic and
// the players fill its ring with BA.C (city caps pointing away):
//   y=-3   BA.C(0)  BA.C(0)  BA.C(0)*      * seat 1's tile completes the building
//   y=-2   BA.C(270) [B]     BA.C(90)
//   y=-1   CO.1     CO.2     CO.3
Scenario building_board(const char* building, uint8_t more) {
  Scenario sc(count_rules(2, more), {{"BA.RFr", 1}, {"BA.LR", 1}, {building, 1}, {"BA.C", 5}, {"BA.Rr", 1}});
  sc.turn("BA.RFr", 0, 2, 90, "N");
  sc.turn("BA.LR", 0, 3, 180);
  EXPECT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy("cathedral"));
  sc.turn(building, -1, -2, 0, "C");  // seat 0
  sc.turn("BA.C", -2, -2, 270);       // seat 1
  sc.turn("BA.C", 0, -2, 90);         // seat 0
  sc.turn("BA.C", -2, -3, 0);         // seat 1
  sc.turn("BA.C", -1, -3, 0);         // seat 0
  sc.turn("BA.C", 0, -3, 0);          // seat 1: completes the building
  return sc;
}

// [CKR fn 24] A second monk: seat 1 completes seat 0's cloister and moves its cathedral follower onto it:
// 1-1, both score 9. Seat 1 scored, so no Count deploy.
TEST(Count, C6_CKR_fn24_SecondMonkOntoAnOccupiedCloister) {
  Scenario sc = building_board("BA.L", 0);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);  // seat 0 has nothing in the City
  EXPECT_EQ(sc.state.feature(building_node(sc.state, -1, -2)).followers[0], 1);
  EXPECT_TRUE(sc.state.feature(building_node(sc.state, -1, -2)).complete);
  EXPECT_EQ(sc.score(0), 3);
  sc.apply(redeploy("cathedral", -1, -2, "C"));
  EXPECT_EQ(sc.score(0), 3 + 9);
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
}

// [CKR fn 25] (Cult places) The cathedral also feeds shrines: the same board with seat 0's heretic on CU.S.
// (Abbeys: CKR_fn25_CathedralFollowerOntoACompletedAbbey; German monasteries need another expansion.)
TEST(Count, C6_CKR_fn25_CathedralFollowerOntoAShrine) {
  Scenario sc = building_board("CU.S", kCultPlaces);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_TRUE(sc.legal(redeploy("cathedral", -1, -2, "C")));
  sc.apply(redeploy("cathedral", -1, -2, "C"));
  EXPECT_EQ(sc.score(0), 3 + 9);
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
}

// [CKR fn 15, 22] Seat 1 has a follower in the blacksmith (pair 0) and closes seat 0's road of pair 1. The lap
// comes before the scoring (nothing scored yet). If seat 1 uses its blacksmith follower it profits (1-1 tie,
// both 2) and may not deploy; if it passes, seat 0 scores alone and only then seat 1 may deploy; the follower
// deployed then cannot join the road, already scored.
TEST(Count, CKR_fn15_fn22_DeployComesAfterScoringAndUsingTheCityProfits) {
  for (bool use : {true, false}) {
    SCOPED_TRACE(use ? "redeploys" : "passes");
    Scenario sc(count_rules(2), {{"BA.LR", 4}, {"BA.L", 1}});
    quarter_pairs(sc, {"blacksmith"});
    pair_a(sc, 1);
    pair_b(sc, 1);
    ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
    EXPECT_EQ(sc.state.current_player(), 1);
    EXPECT_EQ(sc.score(0), 2);  // pair 1 not scored yet
    EXPECT_EQ(sc.state.feature(edge_node(sc.state, -3, -2, "E")).followers[0], 1);
    if (use) {
      sc.apply(redeploy("blacksmith", -3, -2, "E"));
      EXPECT_TRUE(scores_are(sc, {4, 2}));
      EXPECT_EQ(sc.state.followers_in_supply(1), 7);
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
      EXPECT_EQ(sc.state.turn_player(), 0);
    } else {
      sc.apply(redeploy_pass());
      EXPECT_TRUE(scores_are(sc, {4, 0}));
      ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
      EXPECT_EQ(sc.state.followers_in_supply(0), 7);
      sc.apply(count_deploy("blacksmith"));
      EXPECT_EQ(sc.state.followers_in_quarter(1, kBlacksmith), 2);
      EXPECT_EQ(sc.score(1), 0);
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    }
  }
}

// ---- C7 The market -------------------------------------------------------------------------------------------

// [CKR fn 27, 28] (barn scorings: see the Abbey & Mayor tests at the end) Seat 1's market follower never
// moves during a turn without a barn scoring: neither when seat 1 closes a road (pair 1) nor a city
// (CO.9-(-2,2)-(-2,3), seat 0's knight, 6 points): the engine goes straight to seat 1's Count deploy. At the
// end (seat 1 placed the last tile, seat 0 has nothing) seat 1 moves it onto the bottom-left ring farm, which
// touches the completed city and the City of Carcassonne: 6 points.
TEST(Count, C7_CKR_fn27_fn28_MarketFollowersMoveOnlyAtTheEnd) {
  Scenario sc(count_rules(2), {{"BA.LR", 4}, {"BA.CFc", 1}, {"BA.C", 1}});
  quarter_pairs(sc, {"market"});
  pair_a(sc, 1);
  pair_b(sc, 1);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_pass());
  sc.turn("BA.CFc", -2, 2, 90, "N");  // seat 0
  sc.turn("BA.C", -2, 3, 0);          // seat 1: the last tile
  EXPECT_EQ(sc.score(0), 2 + 2 + 6);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.tiles_left(), 0);
  sc.apply(count_pass());
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);  // seat 0 (left of seat 1) has nothing in the City
  EXPECT_TRUE(sc.legal(redeploy("market", -1, 1, "SL")));
  EXPECT_FALSE(sc.legal(redeploy("market", 1, 1, "E")));  // a city is no farm
  sc.apply(redeploy("market", -1, 1, "SL"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kFieldPoints), 6);
  EXPECT_EQ(sc.score(1), 6);
  EXPECT_EQ(sc.score(0), 10);
}

// ---- C8 The City in farm and King scoring ----------------------------------------------------------------------

// [CKR fn 2] Seat 0's farmer on the south field of (-1,2) BA.RFr (road W-E: north field is the ring, south
// field is not), seat 1's farmer on (-3,0) BA.L, whose field joins the bottom-left ring through CO.5. At the
// end the ring farm scores 3 for the City of Carcassonne (CO.9's cap is incomplete), the other field nothing.
TEST(Count, C8_CKR_fn2_RingFarmScoresThreeForTheCity) {
  Scenario sc(count_rules(2), {{"BA.RFr", 1}, {"BA.L", 1}});
  sc.turn("BA.RFr", -1, 2, 0, "SL");
  sc.turn("BA.L", -3, 0, 0, "NL");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(sc.state.connected(field_node(sc.state, -3, 0, "NL"), field_node(sc.state, -1, 2, "NL")));
  EXPECT_EQ(sc.score(1, kFieldPoints), 3);
  EXPECT_EQ(sc.score(1), 3);
  EXPECT_EQ(sc.score(0), 0);
}

// [CKR fn 2] The ring farm also touches the cap city: seat 0's farmer on (-1,2) BA.L; seat 1 closes CO.9's
// cap with (-2,2) BA.C (empty, its field joins the same farm). The farm touches the cap (completed) and the
// City: 3 + 3, each city once.
TEST(Count, C8_CKR_fn2_RingFarmCountsCapCityAndTheCity) {
  Scenario sc(count_rules(2), {{"BA.L", 1}, {"BA.C", 1}});
  sc.turn("BA.L", -1, 2, 0, "NL");
  sc.turn("BA.C", -2, 2, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kFieldPoints), 6);
  EXPECT_TRUE(scores_are(sc, {6, 0}));
}

// [CKR fn 40] (King & Robber) Seat 0 closes CO.9's cap (2 tiles, knight: 4) and takes the King: the City of
// Carcassonne is never a previous "largest city". Seat 1 closes CO.12's cap (2 tiles, not larger: the King
// stays). At the end the King scores 1 per completed city (2) + 1 for the City of Carcassonne = 3.
TEST(Count, C8_CKR_fn40_KingCountsTheCityButItIsNeverTheLargest) {
  Scenario sc(count_rules(2, kKingRobber), {{"BA.C", 2}});
  sc.turn("BA.C", -2, 2, 0, "N");
  EXPECT_EQ(sc.state.king(), 0);
  sc.turn("BA.C", 2, 1, 270, "W");
  EXPECT_EQ(sc.state.king(), 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kBonusPoints), 3);
  EXPECT_EQ(sc.score(0), 4 + 3);
  EXPECT_EQ(sc.score(1), 4);
  EXPECT_EQ(sc.state.robber(), -1);
}

// ---- C9 The final redeploy -----------------------------------------------------------------------------------

// Three players, road pairs 0..4: seat 1 castle (Count to the cathedral), seat 0 castle, seat 2 market,
// seat 1 market, seat 0 castle (pair 4's B is the last tile, so the Count deploy comes before the end
// [CKR fn 10]). City: seat 0 castle 2; seat 1 castle 1 + market 1; seat 2 market 1. Scores 4, 2, 4.
Scenario final_board(const std::vector<std::pair<const char*, const char*>>& options = {}) {
  Scenario sc(count_rules(3, 0, options), {{"BA.LR", 10}});
  quarter_pairs(sc, {"castle", "castle", "market", "market"}, "cathedral");
  pair_a(sc, 4);
  pair_b(sc, 4);
  EXPECT_EQ(sc.state.tiles_left(), 0);
  EXPECT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  sc.apply(count_deploy("castle"));
  return sc;
}

// [CKR fn 29, 31] Round robin from the left of the last placer (seat 0): seat 1, seat 2, seat 0, ... one
// follower per decision, any quarter but the Count's, onto incomplete features; a pass drops a player out.
//   seat 1: castle -> CO.12's cap (incomplete, 1 tile)      -> 1 point at the end
//   seat 2: market -> the top ring farm                      -> 3 (the City only)
//   seat 0: passes (out, with 2 followers still in the castle: they score nothing)
//   seat 1: market -> the bottom-left ring farm              -> 3 (the City; CO.9's cap is incomplete)
//   then seats 2, 0, 1 have nothing: the game ends.
TEST(Count, C9_CKR_fn29_fn31_FinalRedeployRoundRobin) {
  Scenario sc = final_board();
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_TRUE(scores_are(sc, {4, 2, 4}));
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_TRUE(sc.legal(redeploy("castle", -2, 1, "S")));
  EXPECT_FALSE(sc.legal(redeploy("castle", -1, -1, "NL")));  // castle: cities only
  EXPECT_FALSE(sc.legal(redeploy("blacksmith", 0, 1, "S")));  // seat 1 has nobody there
  sc.apply(redeploy("castle", 1, 1, "E"));
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 2);  // one follower per decision
  sc.apply(redeploy("market", -1, -1, "NL"));
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_TRUE(sc.legal(redeploy("castle", -2, 1, "S")));
  sc.apply(redeploy_pass());
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);  // seat 2 had nothing left
  sc.apply(redeploy("market", -1, 1, "SL"));
  ASSERT_TRUE(sc.state.is_terminal());  // seat 0 passed: out, not asked again
  EXPECT_EQ(sc.score(0), 4);
  EXPECT_EQ(sc.score(1), 2 + 1 + 3);
  EXPECT_EQ(sc.score(2), 4 + 3);
  EXPECT_EQ(sc.score(1, kCityPoints), 1);
  EXPECT_EQ(sc.score(1, kFieldPoints), 3);
  EXPECT_EQ(sc.score(2, kFieldPoints), 3);
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 2);
}

// [CKR fn 10] The last tile's scoring still gives its placer the Count deploy (see final_board), and that
// follower may move in the final redeploy; final scoring itself never triggers a deploy. Here seat 0 moves
// both castle followers, one per round, onto CO.9's cap (incomplete: 1 point for the majority 2).
TEST(Count, C9_CKR_fn10_LastTileDeployMovesInTheFinalRedeploy) {
  Scenario sc = final_board();
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 2);
  sc.apply(redeploy_pass());  // seat 1 out
  ASSERT_EQ(sc.state.current_player(), 2);
  sc.apply(redeploy_pass());  // seat 2 out
  ASSERT_EQ(sc.state.current_player(), 0);
  sc.apply(redeploy("castle", -2, 1, "S"));
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 0);  // the others are out
  sc.apply(redeploy("castle", -2, 1, "S"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0), 4 + 1);
  EXPECT_EQ(sc.score(1), 2);
  EXPECT_EQ(sc.score(2), 4);
}

// count_final_quarters=market (later editions): only market followers move at the end. Seat 1 may not send
// its castle follower; seat 1 and seat 2 move their market followers; seat 0 (castle only) has nothing.
TEST(Count, C9_MarketOnlyFinalRedeployOption) {
  Scenario sc = final_board({{"count_final_quarters", "market"}});
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_FALSE(sc.legal(redeploy("castle", 1, 1, "E")));
  EXPECT_TRUE(sc.legal(redeploy("market", -1, 1, "SL")));
  sc.apply(redeploy("market", -1, 1, "SL"));
  ASSERT_EQ(sc.state.current_player(), 2);
  sc.apply(redeploy("market", -1, -1, "NL"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0), 4);
  EXPECT_EQ(sc.score(1), 2 + 3);
  EXPECT_EQ(sc.score(2), 4 + 3);
}

// The Count still blocks its quarter at the end [CKR fn 29]: two players, seat 1 has a castle follower (the
// Count stays in the castle) and a market follower; seat 1 placed the last tile, seat 0 has nothing. Seat 1
// may move only the market follower (top ring farm: 3).
TEST(Count, C9_CountsQuarterStaysBlockedAtTheEnd) {
  Scenario sc(count_rules(2), {{"BA.LR", 4}});
  quarter_pairs(sc, {"castle", "market"});
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_FALSE(sc.legal(redeploy("castle", -2, 1, "S")));
  EXPECT_EQ(legal_count(sc.state), 1 + 3);  // pass, or the market follower onto one of the 3 ring farms
  sc.apply(redeploy("market", 0, -1, "NL"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {4, 3}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 1);
}

// ---- Abbey & Mayor with the Count -----------------------------------------------------------------------
//
// Rules count | abbey_mayor, two players. Each player also has a mayor, a wagon, a barn and an abbey. While the
// player to move holds an abbey and an empty square has tiles on all four sides the turn starts with the
// abbey choice (kTurnStart); none of these boards has such a square unless a test says so.

Rules am_rules() { return count_rules(2, kAbbeyMayor); }

json count_deploy_figure(const char* figure, const char* quarter, const char* count_to = nullptr) {
  json d = {{"figure", figure}, {"quarter", quarter}};
  d["count_to"] = count_to ? json(count_to) : json(nullptr);
  return json{{"count_deploy", d}};
}
json redeploy_figure(const char* from, const char* figure, int x, int y, const char* at) {
  return json{{"redeploy", {{"from", from}, {"figure", figure}, {"to", json::array({x, y, at})}}}};
}
json deploy_figure(const char* figure, const char* at) { return json{{"deploy", {{"figure", figure}, {"at", at}}}}; }
json abbey_at(int x, int y) { return json{{"abbey", json::array({x, y})}}; }
json wagon_to(int x, int y, const char* at) { return json{{"wagon", json::array({x, y, at})}}; }

// The turn player chooses to draw instead of placing its abbey (A1).
void draw_instead_of_abbey(Scenario& sc) {
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  ASSERT_EQ(sc.state.try_apply(Action::pass()), "");
  ASSERT_EQ(sc.state.phase(), Phase::kDraw);
}

// [CKR fn 11] The mayor and the wagon may be deployed into the City; the barn may not. Road pair 0: seat 1's
// Count deploy offers a follower for 4 quarters, the mayor for the castle only (fn 19), the wagon for 3, each
// with the Count staying or going to one of the 3 other quarters: 1 + 16 + 4 + 12 = 33 choices, no barn.
// After the wagon (pair 0) and the mayor (pair 1) are in the City, pair 2 offers the followers only.
TEST(Count, CKR_fn11_MayorAndWagonIntoQuartersButNeverTheBarn) {
  Scenario sc(am_rules(), {{"BA.LR", 6}, {"BA.L", 1}});
  pair_a(sc, 0);
  pair_b(sc, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(legal_count(sc.state), 33);
  for (const char* q : {"castle", "market", "blacksmith", "cathedral"}) {
    EXPECT_FALSE(sc.legal(count_deploy_figure("barn", q))) << q;
    EXPECT_FALSE(sc.legal(count_deploy_figure("barn", q, "market"))) << q;
  }
  EXPECT_NE(sc.state.try_apply(action_from_json(sc.state, count_deploy_figure("barn", "castle"))), "");
  EXPECT_TRUE(sc.legal(count_deploy_figure("mayor", "castle")));
  EXPECT_TRUE(sc.legal(count_deploy_figure("wagon", "castle")));
  sc.apply(count_deploy_figure("wagon", "cathedral"));
  EXPECT_TRUE(sc.state.figure_in_quarter(1, Figure::kWagon, kCathedral));
  EXPECT_FALSE(sc.state.in_supply(1, Figure::kWagon));
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(in_city(sc.state, 1), 0);  // ordinary followers only
  EXPECT_EQ(sc.state.count_quarter(), kCastle);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);

  pair_a(sc, 1);
  pair_b(sc, 1);  // a road: the wagon in the cathedral has no lap
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(legal_count(sc.state), 1 + 16 + 4);
  sc.apply(count_deploy_figure("mayor", "castle"));
  EXPECT_TRUE(sc.state.figure_in_quarter(1, Figure::kMayor, kCastle));
  EXPECT_FALSE(sc.state.in_supply(1, Figure::kMayor));

  pair_a(sc, 2);
  pair_b(sc, 2);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(legal_count(sc.state), 1 + 16);
  EXPECT_FALSE(sc.legal(count_deploy_figure("barn", "castle")));
  EXPECT_TRUE(sc.state.in_supply(1, Figure::kBarn));
  sc.apply(count_pass());
  EXPECT_TRUE(scores_are(sc, {6, 0}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [CKR fn 19] The mayor goes only to the castle. Seat 1 deploys it there after road pair 0 and moves the Count
// to the cathedral. Seat 0 puts a knight on (-2,2) BA.CFc+ rot 90 (city N-S, 1 pennant) on CO.9's cap; seat 1
// closes the city with (-2,3) AM.C!+ rot 90 (city N, 1 pennant): 3 tiles, 2 pennants, 6 + 4 = 10 points. In the
// lap (seat 0 has nothing in the City) seat 1 moves the mayor from the castle onto it: its strength is the
// city's 2 pennants (M1), beating the knight's 1, so seat 1 alone scores 10. Seat 1 scored: no Count deploy.
TEST(Count, CKR_fn19_MayorOnlyToTheCastleThenOntoACityWithItsPennants) {
  Scenario sc(am_rules(), {{"BA.LR", 2}, {"BA.CFc+", 1}, {"AM.C!+", 1}, {"BA.L", 1}});
  pair_a(sc, 0);
  pair_b(sc, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  for (const char* q : {"market", "blacksmith", "cathedral"}) {
    EXPECT_FALSE(sc.legal(count_deploy_figure("mayor", q))) << q;
    EXPECT_FALSE(sc.legal(count_deploy_figure("mayor", q, "cathedral"))) << q;
  }
  EXPECT_TRUE(sc.legal(count_deploy_figure("mayor", "castle")));
  sc.apply(count_deploy_figure("mayor", "castle", "cathedral"));
  EXPECT_EQ(sc.state.count_quarter(), kCathedral);
  EXPECT_TRUE(sc.state.figure_in_quarter(1, Figure::kMayor, kCastle));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 0);

  sc.turn("BA.CFc+", -2, 2, 90, "N");  // seat 0
  sc.turn("AM.C!+", -2, 3, 90);        // seat 1
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  const FeatureInfo city = sc.state.feature(edge_node(sc.state, -2, 3, "N"));
  EXPECT_TRUE(city.complete);
  EXPECT_EQ(city.tiles, 3);
  EXPECT_EQ(city.pennants, 2);
  EXPECT_EQ(city.followers[0], 1);
  EXPECT_EQ(legal_count(sc.state), 2);  // pass, or the mayor onto the city
  EXPECT_FALSE(sc.legal(redeploy("castle", -2, 3, "N")));  // no ordinary follower in the castle
  sc.apply(redeploy_figure("castle", "mayor", -2, 1, "S"));
  EXPECT_EQ(sc.score(1, kCityPoints), 10);
  EXPECT_EQ(sc.score(1), 10);
  EXPECT_EQ(sc.score(0, kCityPoints), 0);
  EXPECT_EQ(sc.score(0), 2);
  EXPECT_TRUE(sc.state.in_supply(1, Figure::kMayor));
  EXPECT_FALSE(sc.state.figure_in_quarter(1, Figure::kMayor, kCastle));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [CKR fn 19] The wagon goes to the castle, blacksmith or cathedral, not the market. Seat 1 puts it into the
// blacksmith (pair 0) and, closing seat 0's road of pair 1, moves it onto that road in the lap: a wagon counts
// as one follower, 1-1, both score 2. The wagon left a scored feature, so seat 1 may then move it (W2) to an
// adjacent incomplete, unoccupied feature: the cloister its road ends in on either tile, (-2,-2) or (-3,-2).
// Seat 1 scored: no Count deploy.
TEST(Count, CKR_fn19_WagonToCastleBlacksmithOrCathedralThenOntoARoad) {
  Scenario sc(am_rules(), {{"BA.LR", 4}, {"BA.L", 1}});
  pair_a(sc, 0);
  pair_b(sc, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_FALSE(sc.legal(count_deploy_figure("wagon", "market")));
  EXPECT_FALSE(sc.legal(count_deploy_figure("wagon", "market", "cathedral")));
  for (const char* q : {"castle", "blacksmith", "cathedral"})
    EXPECT_TRUE(sc.legal(count_deploy_figure("wagon", q))) << q;
  sc.apply(count_deploy_figure("wagon", "blacksmith"));
  EXPECT_TRUE(sc.state.figure_in_quarter(1, Figure::kWagon, kBlacksmith));

  pair_a(sc, 1);
  pair_b(sc, 1);
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(legal_count(sc.state), 2);
  EXPECT_FALSE(sc.legal(redeploy("blacksmith", -3, -2, "E")));  // no ordinary follower there
  EXPECT_EQ(sc.score(0), 2);
  sc.apply(redeploy_figure("blacksmith", "wagon", -3, -2, "E"));
  EXPECT_EQ(sc.score(0), 4);
  EXPECT_EQ(sc.score(1, kRoadPoints), 2);
  EXPECT_EQ(sc.score(1), 2);
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(legal_count(sc.state), 3);  // take it back, or one of the two cloisters
  EXPECT_TRUE(sc.legal(wagon_to(-2, -2, "C")));
  sc.apply(wagon_to(-3, -2, "C"));
  EXPECT_EQ(sc.state.figure_node(1, kWagonSlot), building_node(sc.state, -3, -2));
  EXPECT_EQ(sc.state.feature(building_node(sc.state, -3, -2)).followers[1], 1);
  EXPECT_FALSE(sc.state.figure_in_quarter(1, Figure::kWagon, kBlacksmith));
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// Abbey board for fn 25: seat 0's thief on the road CO.11-(0,2)-(0,3), closed by seat 1 (3 points to seat 0),
// and seat 1 deploys into the cathedral (the Count stays in the castle). Then BA.C tiles (cities facing away)
// leave a square at (-1,-2) enclosed on all four sides with all 8 neighbours placed:
//   y=-3   BA.C(0)   BA.C(0)   BA.C(0)
//   y=-2   BA.C(270) [ ]       BA.C(90)
//   y=-1   CO.1      CO.2      CO.3
// Seat 1, to move with the square open, draws instead (BA.L at (-3,0)); it is seat 0's turn, at kTurnStart.
Scenario abbey_square_board() {
  Scenario sc(am_rules(), {{"BA.RFr", 1}, {"BA.LR", 1}, {"BA.C", 5}, {"BA.L", 2}});
  sc.turn("BA.RFr", 0, 2, 90, "N");  // seat 0
  sc.turn("BA.LR", 0, 3, 180);       // seat 1
  EXPECT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy("cathedral"));
  sc.turn("BA.C", -2, -2, 270);  // seat 0
  sc.turn("BA.C", 0, -2, 90);    // seat 1
  sc.turn("BA.C", -2, -3, 0);    // seat 0
  sc.turn("BA.C", 0, -3, 0);     // seat 1
  sc.turn("BA.C", -1, -3, 0);    // seat 0: the square is enclosed
  draw_instead_of_abbey(sc);     // seat 1
  sc.turn("BA.L", -3, 0, 0);
  EXPECT_EQ(sc.state.phase(), Phase::kTurnStart);
  EXPECT_EQ(sc.state.turn_player(), 0);
  return sc;
}

// [CKR fn 25] An abbey is a cloister for the cathedral: seat 0 places its abbey at (-1,-2), completed at once
// (all 8 squares around hold tiles), with or without a monk. In the lap seat 1 moves its cathedral follower onto
// it. With the monk: 1-1, both score 9, no Count deploy. Without: seat 1 alone scores 9 with the follower it
// moved, seat 0 scored nothing: seat 0 may deploy (C3, the abbey being the placement).
TEST(Count, CKR_fn25_CathedralFollowerOntoACompletedAbbey) {
  for (bool monk : {true, false}) {
    SCOPED_TRACE(monk ? "with a monk" : "empty abbey");
    Scenario sc = abbey_square_board();
    ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
    EXPECT_TRUE(sc.legal(abbey_at(-1, -2)));
    sc.apply(abbey_at(-1, -2));
    EXPECT_FALSE(sc.state.has_abbey(0));
    EXPECT_EQ(sc.state.tiles_left(), 1);  // A3: the abbey is no tile draw
    ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
    EXPECT_FALSE(sc.legal(deploy_figure("mayor", "C")));  // M1: cities only
    sc.deploy(monk ? "C" : "");
    ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
    EXPECT_EQ(sc.state.current_player(), 1);
    const FeatureInfo abbey = sc.state.feature(building_node(sc.state, -1, -2));
    EXPECT_EQ(abbey.kind, SegmentKind::kCloister);
    EXPECT_TRUE(abbey.complete);
    EXPECT_EQ(abbey.followers[0], monk ? 1 : 0);
    EXPECT_EQ(legal_count(sc.state), 2);
    sc.apply(redeploy("cathedral", -1, -2, "C"));
    EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(1), 9);
    EXPECT_EQ(sc.score(0, kCloisterPoints), monk ? 9 : 0);
    EXPECT_EQ(sc.score(0), monk ? 3 + 9 : 3);
    EXPECT_EQ(sc.state.followers_in_quarter(1, kCathedral), 0);
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    EXPECT_EQ(sc.state.followers_in_supply(0), 7);
    if (monk) {
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    } else {
      ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
      EXPECT_EQ(sc.state.current_player(), 0);
      sc.apply(count_deploy("castle"));
      EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 1);
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    }
    EXPECT_EQ(sc.state.turn_player(), 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// C3 with the abbey as the placement: the square (-1,-2) is enclosed by (-2,-2) BA.C rot 270, (0,-2) BA.C
// rot 90, CO.2 and (-1,-3) BA.LR rot 0 (road S to its cloister) holding seat 1's thief; (-2,-3) BA.C joins the
// row. Seat 0 places its abbey there without a monk: its north side closes the 1-tile road (the abbey is not
// one of its tiles, A2): seat 1 scores 1, seat 0 nothing, so seat 0 may deploy. The abbey itself (7 of 8
// neighbours) is not complete.
TEST(Count, C3_AbbeyPlacementThatScoresAnotherPlayerTriggersTheDeploy) {
  Scenario sc(am_rules(), {{"BA.C", 3}, {"BA.LR", 1}, {"BA.L", 1}});
  sc.turn("BA.C", -2, -2, 270);    // seat 0
  sc.turn("BA.C", -2, -3, 0);      // seat 1
  sc.turn("BA.C", 0, -2, 90);      // seat 0
  sc.turn("BA.LR", -1, -3, 0, "S");  // seat 1
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(legal_count(sc.state), 2);  // draw, or the abbey on the one enclosed square
  sc.apply(abbey_at(-1, -2));
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  sc.deploy("");
  EXPECT_EQ(sc.score(1, kRoadPoints), 1);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_FALSE(sc.state.feature(building_node(sc.state, -1, -2)).complete);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.state.turn_player(), 0);
  sc.apply(count_deploy("blacksmith"));
  EXPECT_EQ(sc.state.followers_in_quarter(0, kBlacksmith), 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The same board with the deck used up by seat 1's road tile: the abbey round (A4) starts left of seat 1, so
// seat 0 places the abbey there, again closing seat 1's road (1 point), and may deploy (C3); it puts a follower
// into the blacksmith. Seat 1 has no square left. Then the final redeploy (C9) starts left of seat 1, who placed
// the last land tile: seat 0 moves the blacksmith follower onto CO.11's incomplete road (1 point in final
// scoring; its choices: the 3 open gate roads).
TEST(Count, C3_A4_AbbeyRoundPlacementTriggersTheDeployBeforeTheFinalRedeploy) {
  Scenario sc(am_rules(), {{"BA.C", 3}, {"BA.LR", 1}});
  sc.turn("BA.C", -2, -2, 270);      // seat 0
  sc.turn("BA.C", -2, -3, 0);        // seat 1
  sc.turn("BA.C", 0, -2, 90);        // seat 0
  sc.turn("BA.LR", -1, -3, 0, "S");  // seat 1: the last tile
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(legal_count(sc.state), 2);
  sc.apply(abbey_at(-1, -2));
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  sc.deploy("");
  EXPECT_EQ(sc.score(1, kRoadPoints), 1);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  sc.apply(count_deploy("blacksmith"));
  ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(legal_count(sc.state), 1 + 3);
  sc.apply(redeploy("blacksmith", 0, 1, "S"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kRoadPoints), 1);
  EXPECT_TRUE(scores_are(sc, {1, 1}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// Barn board for fn 12 and fn 27: seat 0's farmer on (0,-2) BA.L, on the top ring farm; seat 1 places (-1,-2)
// BA.L with its barn on the corner SE, where it meets (0,-2), CO.3 and CO.2. F2: the farmer scores at once as
// at the end, 3 for the City of Carcassonne (the only completed city the farm touches), and returns; seat 1
// scores nothing. Nobody has a follower in the City, so no lap. `spare` more BA.L stay in the deck.
Scenario barn_board(int spare) {
  Scenario sc(am_rules(), {{"BA.L", 2 + spare}});
  sc.turn("BA.L", 0, -2, 0, "NL");  // seat 0
  sc.draw("BA.L");                  // seat 1
  sc.place(-1, -2, 0);
  EXPECT_TRUE(sc.legal(deploy_figure("barn", "SE")));
  EXPECT_FALSE(sc.legal(deploy_figure("barn", "NE")));  // (-1,-3) and (0,-3) are empty
  sc.apply(deploy_figure("barn", "SE"));
  return sc;
}

// [CKR fn 12, AM fn 50] Only points scored now count: the barn will score at the end, but seat 1 scored nothing
// when its barn placement made seat 0 score, so seat 1 may deploy into the City.
TEST(Count, CKR_fn12_AM_fn50_BarnPlacementThatScoresAnotherPlayerTriggersTheDeploy) {
  Scenario sc = barn_board(1);
  EXPECT_EQ(sc.score(0, kFieldPoints), 3);
  EXPECT_TRUE(scores_are(sc, {3, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  ASSERT_GE(sc.state.figure_node(1, kBarnSlot), 0);  // the barn stays
  EXPECT_TRUE(sc.state.connected(sc.state.figure_node(1, kBarnSlot), field_node(sc.state, -2, -1, "NL")));
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(legal_count(sc.state), 33);  // as in fn 11: follower, mayor and wagon
  sc.apply(count_deploy("castle"));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kCastle), 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [CKR fn 27, C7, C9] A follower moved onto a farm with a barn in the final redeploy is scored at once, 1 per
// completed city, and returns: it is not on the farm in final scoring. The barn board's deck ends with seat 1's
// barn tile; seat 1 deploys into the market. No square for an abbey: no abbey round. Seat 0 has nothing in the
// City; seat 1's market follower may go onto the 3 ring farms:
//   onto the top ring (the barn's): 1 now (the City of Carcassonne), back to supply;
//   onto the bottom-left ring: 3 in final scoring (as a contrast).
// The barn scores 4 for the City of Carcassonne in final scoring (F5) either way.
TEST(Count, CKR_fn27_FinalRedeployOntoABarnFarmScoresAtOnceOnePerCity) {
  for (bool barn_farm : {true, false}) {
    SCOPED_TRACE(barn_farm ? "onto the barn's farm" : "onto another farm");
    Scenario sc = barn_board(0);
    ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
    sc.apply(count_deploy("market"));
    EXPECT_EQ(sc.state.tiles_left(), 0);
    ASSERT_EQ(sc.state.phase(), Phase::kFinalRedeploy);
    EXPECT_EQ(sc.state.current_player(), 1);
    EXPECT_EQ(legal_count(sc.state), 1 + 3);
    if (barn_farm) {
      sc.apply(redeploy("market", -1, -2, "NL"));
      EXPECT_EQ(sc.score(1, kFieldPoints), 1);  // at once, before final scoring
      EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    } else {
      sc.apply(redeploy("market", -1, 1, "SL"));  // the last move: final scoring follows at once
    }
    ASSERT_TRUE(sc.state.is_terminal());
    EXPECT_EQ(sc.score(1, kFieldPoints), barn_farm ? 1 : 3);
    EXPECT_EQ(sc.score(1, kBonusPoints), 4);
    EXPECT_EQ(sc.score(1), barn_farm ? 5 : 7);
    EXPECT_EQ(sc.score(0), 3);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [CKR fn 28, AM fn 48] A barn placement scores the farmers of its farm (F2), so market followers may move onto
// it, in the lap after the barn is placed and before the farmers are scored. Road pair 0 puts seat 1's follower
// into the market; seat 0's farmer goes on (-2,-2) BA.L (top ring farm); seat 1 places (1,-2) BA.LR rot 0
// (closing CO.4's empty road; its field all round the cloister joins the top and right ring farms) with its
// barn on the corner SW (with (0,-2), CO.3, CO.4). The farm touches one completed city, the City of
// Carcassonne: 3 points as at the end. If seat 1 moves its market follower there: 1-1, both score 3, no Count
// deploy. If it passes, seat 0 scores 3 alone and seat 1 may deploy.
TEST(Count, CKR_fn28_AM_fn48_MarketFollowerMovesBeforeABarnPlacementScoresFarmers) {
  for (bool use : {true, false}) {
    SCOPED_TRACE(use ? "redeploys" : "passes");
    Scenario sc(am_rules(), {{"BA.LR", 3}, {"BA.L", 2}});
    quarter_pairs(sc, {"market"});
    sc.turn("BA.L", -2, -2, 0, "NL");  // seat 0
    sc.draw("BA.LR");                  // seat 1
    sc.place(1, -2, 0);
    sc.apply(deploy_figure("barn", "SW"));
    ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
    EXPECT_EQ(sc.state.current_player(), 1);  // seat 0 has nothing in the City
    EXPECT_EQ(sc.score(0), 2);                // the farmer is not scored yet
    EXPECT_EQ(sc.state.feature(field_node(sc.state, 1, -2, "SL")).followers[0], 1);
    EXPECT_TRUE(sc.state.connected(field_node(sc.state, 1, -1, "ER"), field_node(sc.state, -1, -1, "NL")));
    EXPECT_EQ(legal_count(sc.state), 2);  // pass, or the market follower onto the barn's farm
    if (use) {
      sc.apply(redeploy("market", 1, -2, "SL"));
      EXPECT_TRUE(scores_are(sc, {3, 3}, kFieldPoints));
      EXPECT_TRUE(scores_are(sc, {5, 3}));
      EXPECT_EQ(sc.state.followers_in_supply(1), 7);
      EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 0);
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
      EXPECT_EQ(sc.state.turn_player(), 0);
    } else {
      sc.apply(redeploy_pass());
      EXPECT_EQ(sc.score(0, kFieldPoints), 3);
      EXPECT_TRUE(scores_are(sc, {5, 0}));
      EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
      ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
      EXPECT_EQ(sc.state.current_player(), 1);
      sc.apply(count_deploy("market"));
      EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 2);
    }
    EXPECT_EQ(sc.state.followers_in_supply(0), 7);
    EXPECT_GE(sc.state.figure_node(1, kBarnSlot), 0);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [CKR fn 27 (its note), AM fn 54] A tile joining a farm with farmers to a farm with a barn scores those farmers,
// 1 per completed city (F4), so a market follower may move onto the joined farm and is scored the same way.
//   seat 0: (2,1) BA.C rot 270 closes CO.12's cap with a knight (2 tiles, 4 points)
//   seat 1: (2,-1) BA.L;  seat 0: (2,0) BA.L with its barn on the corner NW (with CO.8, CO.4, (2,-1)): the
//           right ring farm, no farmer there (F2 scores nobody, and nobody has a follower in the City)
//   road pair 0 the other way round: seat 1's thief, seat 0 closes (seat 1 scores 2) and deploys into the market
//   seat 1: farmer on (-2,-2) BA.L (top ring farm)
//   seat 0: (1,-2) BA.LR rot 0 joins the top ring to the right ring (and closes CO.4's empty road)
// The joined farm touches CO.12's completed city and the City of Carcassonne: 2 points a side (not 6). If seat 0
// moves its market follower there: 1-1, both score 2, no Count deploy. If it passes, seat 1's farmer scores 2
// alone and seat 0 may deploy.
TEST(Count, CKR_fn27_AM_fn54_MarketFollowerOntoAFarmJoinedToABarn) {
  for (bool use : {true, false}) {
    SCOPED_TRACE(use ? "redeploys" : "passes");
    Scenario sc(am_rules(), {{"BA.C", 1}, {"BA.L", 4}, {"BA.LR", 3}});
    sc.turn("BA.C", 2, 1, 270, "W");  // seat 0
    EXPECT_EQ(sc.score(0, kCityPoints), 4);
    sc.turn("BA.L", 2, -1, 0);        // seat 1
    sc.draw("BA.L");                  // seat 0
    sc.place(2, 0, 0);
    sc.apply(deploy_figure("barn", "NW"));
    EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    pair_a(sc, 0);  // seat 1
    pair_b(sc, 0);  // seat 0
    ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
    EXPECT_EQ(sc.state.current_player(), 0);
    sc.apply(count_deploy("market"));
    sc.turn("BA.L", -2, -2, 0, "NL");  // seat 1
    EXPECT_FALSE(sc.state.connected(field_node(sc.state, -2, -2, "NL"), field_node(sc.state, 2, 0, "NL")));
    sc.turn("BA.LR", 1, -2, 0);  // seat 0
    ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
    EXPECT_EQ(sc.state.current_player(), 0);  // seat 1 has nothing in the City
    EXPECT_TRUE(sc.state.connected(field_node(sc.state, -2, -2, "NL"), field_node(sc.state, 2, 0, "NL")));
    EXPECT_EQ(sc.score(1), 2);  // the farmer is not scored yet
    EXPECT_EQ(legal_count(sc.state), 2);
    if (use) {
      sc.apply(redeploy("market", 2, 0, "NL"));
      EXPECT_TRUE(scores_are(sc, {2, 2}, kFieldPoints));
      EXPECT_EQ(sc.score(0), 4 + 2);
      EXPECT_EQ(sc.score(1), 2 + 2);
      EXPECT_EQ(sc.state.followers_in_quarter(0, kMarket), 0);
      EXPECT_EQ(sc.state.followers_in_supply(0), 7);
      EXPECT_EQ(sc.state.phase(), Phase::kDraw);
      EXPECT_EQ(sc.state.turn_player(), 1);
    } else {
      sc.apply(redeploy_pass());
      EXPECT_EQ(sc.score(1, kFieldPoints), 2);
      EXPECT_EQ(sc.score(1), 2 + 2);
      EXPECT_EQ(sc.score(0), 4);
      ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
      EXPECT_EQ(sc.state.current_player(), 0);
      sc.apply(count_pass());
    }
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    EXPECT_GE(sc.state.figure_node(0, kBarnSlot), 0);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

}  // namespace
}  // namespace meeple::testing
