// Scenario tests for The River II (R1-R8) and King & Robber Baron (K1-K3) of docs/rules.md.

#include <set>
#include <utility>

#include "scenario.h"

namespace meeple {
namespace {

using meeple::testing::rules_with;
using meeple::testing::Scenario;
using nlohmann::json;

int tile_id(const char* id) {
  const int t = TileCatalog::get().find(id);
  if (t < 0) throw std::invalid_argument(std::string("no tile ") + id);
  return t;
}

using meeple::testing::edge_node;
using meeple::testing::field_node;

json deploy_at(const std::string& at) { return json{{"deploy", {{"figure", "follower"}, {"at", at}}}}; }
json place_at(int x, int y, int rot) { return json{{"place", {x, y, rot}}}; }

std::set<std::pair<int, int>> legal_cells(const State& s) {
  ActionList list;
  s.legal_actions(list);
  std::set<std::pair<int, int>> cells;
  for (const Action& a : list)
    if (a.kind() == Action::kPlace) cells.insert({a.x(), a.y()});
  return cells;
}

// A complete, legal River II layout used by several tests. Turn n (1-based) is played by seat (n-1)%2.
//
//  y\x    0        1         2         3        4
//  -3              .       RrII(270)  lakeV
//  -2            CcII+     II+        .
//  -1            CIcI      .          .
//   0   spring   fork      LIFI       CIRI     II
//   1                                           RIrI
//   2                                           IFC(90)
//
// Branch A (fork N exit, a left turn): CIcI straight, CcII+ right, II+ left, RrII right, lake.
// Branch B (fork E exit, straight): LIFI, CIRI straight, II right, RIrI straight, IFC (ends in a city).
struct RiverStep {
  const char* tile;
  int x, y, rot;
};
constexpr RiverStep kRiver[11] = {
    {"RI2.III", 1, 0, 0},     // 1  seat 0
    {"RI2.CIcI", 1, -1, 0},   // 2  seat 1
    {"RI2.LIFI", 2, 0, 0},    // 3  seat 0
    {"RI2.CcII+", 1, -2, 0},  // 4  seat 1
    {"RI2.CIRI", 3, 0, 0},    // 5  seat 0
    {"RI2.II+", 2, -2, 0},    // 6  seat 1
    {"RI2.II", 4, 0, 0},      // 7  seat 0
    {"RI2.RrII", 2, -3, 270}, // 8  seat 1
    {"RI2.RIrI", 4, 1, 0},    // 9  seat 0
    {"RI2.IFC", 4, 2, 90},    // 10 seat 1
    {"RI2.lakeV", 3, -3, 0},  // 11 seat 0
};

// Plays river turns first..last (1-based, inclusive), deploying where `deploys` says.
void play_river(Scenario& sc, int first, int last, const std::map<int, std::string>& deploys = {}) {
  for (int n = first; n <= last; ++n) {
    const RiverStep& s = kRiver[n - 1];
    const auto it = deploys.find(n);
    sc.turn(s.tile, s.x, s.y, s.rot, it == deploys.end() ? "" : it->second);
  }
}

// ===================================================================================================
// The River II
// ===================================================================================================

// R1: the spring is the start tile at (0,0), unrotated, river flowing E; the base start tile is not
// placed and all 4 BA.RCr are shuffled into the normal pile.
TEST(River, R1_SpringIsStartAndStartTileShuffledIn) {
  const State s(rules_with(2, kRiver2));
  ASSERT_EQ(s.num_tiles(), 1);
  const int idx = s.tile_at(0, 0);
  ASSERT_GE(idx, 0);
  EXPECT_EQ(s.tile(idx).type, tile_id("RI.spring"));
  EXPECT_EQ(s.tile(idx).rotation, 0);
  // The river leaves the spring by its E edge.
  const TileType& spring = TileCatalog::get()[tile_id("RI.spring")];
  EXPECT_EQ(static_cast<int>(spring.rot[0].edge_word >> (4 * kEast) & 0xF), static_cast<int>(EdgeKind::kRiver));
  const int rcr = tile_id("BA.RCr");
  EXPECT_EQ(s.remaining(rcr), 4);
  EXPECT_EQ(State::draw_pile(rcr), 0);
  // 72 base tiles (all 4 BA.RCr) + 11 drawable river tiles (fork, 9 middle, lake).
  EXPECT_EQ(s.tiles_left(), 72 + 11);
  EXPECT_EQ(s.remaining(tile_id("RI.spring")), 0);

  const State kr(rules_with(2, kRiver2 | kKingRobber));
  EXPECT_EQ(kr.tiles_left(), 72 + 5 + 11);
  EXPECT_EQ(kr.remaining(rcr), 4);

  // Contrast: without the river the start tile is one of the 4 BA.RCr, at (0,0).
  const State base(rules_with(2));
  EXPECT_EQ(base.tile(base.tile_at(0, 0)).type, rcr);
  EXPECT_EQ(base.remaining(rcr), 3);
  EXPECT_EQ(base.tiles_left(), 71);

  // A custom deck with the river: the spring is still the start, BA.RCr is not pre-placed.
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  EXPECT_EQ(sc.state.num_tiles(), 1);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 0)).type, tile_id("RI.spring"));
  EXPECT_EQ(sc.state.tiles_left(), 1 + 11);
}

// R2: the fork is the only possible first draw (a chance node with one outcome, probability 1).
TEST(River, R2_ForkDrawnFirst) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 2}, {"BA.RFr", 1}});
  ASSERT_TRUE(sc.state.is_chance());
  EXPECT_EQ(sc.state.turn_player(), 0);
  ChanceOutcomes out;
  sc.state.chance_outcomes(out);
  ASSERT_EQ(out.size, 1);
  EXPECT_EQ(out.items[0].tile, tile_id("RI2.III"));
  EXPECT_DOUBLE_EQ(out.probability(0), 1.0);
  EXPECT_EQ(State::draw_pile(tile_id("RI2.III")), 1);
  // Nothing else can be drawn first: another river tile, the lake, a normal tile.
  for (const char* id : {"RI2.LIFI", "RI2.II", "RI2.lakeV", "BA.C"}) {
    const State before = sc.state;
    EXPECT_FALSE(sc.state.try_apply(Action::draw(tile_id(id))).empty()) << id;
    EXPECT_TRUE(sc.state == before) << id;
  }
  EXPECT_NO_THROW(sc.turn("RI2.III", 1, 0, 0));
}

// R2: after the fork, the 9 middle river tiles in any order; the lake is not drawable while any of them
// remains; it comes last; normal tiles only after it. Played on the standard layout (see kRiver).
TEST(River, R2_LakeLastThenNormalTiles) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 2}, {"BA.RFr", 1}});
  const int lake = tile_id("RI2.lakeV");
  EXPECT_EQ(State::draw_pile(lake), 3);
  play_river(sc, 1, 1);
  ChanceOutcomes out;
  sc.state.chance_outcomes(out);
  EXPECT_EQ(out.size, 9);
  EXPECT_EQ(out.total, 9);
  for (int i = 0; i < out.size; ++i) {
    EXPECT_EQ(State::draw_pile(out.items[i].tile), 2);
    EXPECT_NE(out.items[i].tile, lake);
    EXPECT_EQ(out.items[i].copies, 1);
  }
  for (int n = 2; n <= 10; ++n) {
    // The lake and normal tiles are refused while a middle river tile remains.
    const State before = sc.state;
    EXPECT_FALSE(sc.state.try_apply(Action::draw(lake)).empty()) << "turn " << n;
    EXPECT_FALSE(sc.state.try_apply(Action::draw(tile_id("BA.C"))).empty()) << "turn " << n;
    EXPECT_TRUE(sc.state == before);
    play_river(sc, n, n);
  }
  sc.state.chance_outcomes(out);
  ASSERT_EQ(out.size, 1);
  EXPECT_EQ(out.items[0].tile, lake);
  EXPECT_DOUBLE_EQ(out.probability(0), 1.0);
  EXPECT_FALSE(sc.state.try_apply(Action::draw(tile_id("BA.C"))).empty());
  play_river(sc, 11, 11);
  // Now only the normal deck: BA.C x2, BA.RFr x1.
  sc.state.chance_outcomes(out);
  ASSERT_EQ(out.size, 2);
  EXPECT_EQ(out.total, 3);
  for (int i = 0; i < out.size; ++i) EXPECT_EQ(State::draw_pile(out.items[i].tile), 0);
  EXPECT_EQ(sc.state.discarded(), 0);
  EXPECT_EQ(sc.state.num_tiles(), 12);
  EXPECT_EQ(sc.state.turn_player(), 1);  // 11 river turns, seat 0 placed the fork and the lake
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// R3: a river tile must continue the river, on either branch. Fork at (1,0) rot 0 (mouths at (1,-1)
// from S and (2,0) from W); the straight RI2.LIFI fits only at those two cells. Placements touching the
// board only by field edges (next to the spring or the fork's field side) are rejected.
//
//        .     (1,-1)
//  (-1,0) spring fork  (2,0)
//        (0,1) (1,1)
TEST(River, R3_RiverTileMustContinueRiver) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  play_river(sc, 1, 1);
  sc.draw("RI2.LIFI");
  EXPECT_EQ(legal_cells(sc.state), (std::set<std::pair<int, int>>{{1, -1}, {2, 0}}));
  EXPECT_TRUE(sc.legal(place_at(2, 0, 0)));
  EXPECT_TRUE(sc.legal(place_at(2, 0, 180)));
  EXPECT_TRUE(sc.legal(place_at(1, -1, 90)));
  EXPECT_TRUE(sc.legal(place_at(1, -1, 270)));
  EXPECT_FALSE(sc.legal(place_at(2, 0, 90)));  // field edge against the fork's river
  // Field-to-field contact only: edges match, but the river is not continued.
  EXPECT_FALSE(sc.legal(place_at(0, -1, 0)));   // S field on the spring's N field
  EXPECT_FALSE(sc.legal(place_at(0, 1, 0)));    // N field on the spring's S field
  EXPECT_FALSE(sc.legal(place_at(-1, 0, 90)));  // E field on the spring's W field
  EXPECT_FALSE(sc.legal(place_at(1, 1, 0)));    // N field on the fork's S field
  EXPECT_FALSE(sc.state.try_apply(Action::place(0, -1, 0)).empty());
  EXPECT_NO_THROW(sc.place(1, -1, 90));
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(1, -1)).type, tile_id("RI2.LIFI"));
}

// R4: the fork's N exit (fork rot 0) is a left turn, so a curve at (1,-1) turning left again (RI2.II rot 0,
// river S->W, back towards the spring) is a U-turn and rejected; the mirrored curve (rot 270, S->E) is
// accepted. After the fork's straight E exit, both turns are allowed.
//
//    (0,-1)<-?-(1,-1)-?->(2,-1)
//    spring==> fork ==> (2,0)
TEST(River, R4_NoImmediateUTurnAfterForkTurn) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  play_river(sc, 1, 1);
  sc.draw("RI2.II");
  EXPECT_FALSE(sc.legal(place_at(1, -1, 0)));   // S->W: left after left
  EXPECT_TRUE(sc.legal(place_at(1, -1, 270)));  // S->E: right after left
  EXPECT_FALSE(sc.legal(place_at(1, -1, 90)));  // edges do not match (field on S)
  EXPECT_TRUE(sc.legal(place_at(2, 0, 0)));     // W->S: right after straight
  EXPECT_TRUE(sc.legal(place_at(2, 0, 90)));    // W->N: left after straight
  EXPECT_FALSE(sc.state.try_apply(Action::place(1, -1, 0)).empty());
  EXPECT_EQ(sc.state.phase(), Phase::kPlace);
  EXPECT_NO_THROW(sc.place(1, -1, 270));
}

// R4 on a later tile: branch B turns right at (2,0) (RI2.II rot 0, W->S); at (2,1) another right turn
// (RI2.CcII+ rot 180, N->W) is rejected although all edges match, the left turn (rot 270, N->E) is fine.
//
//   spring fork  II(2,0)
//               (2,1) <- CcII+
TEST(River, R4_NoImmediateUTurnOnBranch) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  play_river(sc, 1, 1);
  sc.turn("RI2.II", 2, 0, 0);
  sc.draw("RI2.CcII+");
  EXPECT_FALSE(sc.legal(place_at(2, 1, 180)));  // flowing S, turning W = right again
  EXPECT_TRUE(sc.legal(place_at(2, 1, 270)));   // flowing S, turning E = left
  // On the other branch (fork N exit, a left turn) CcII+ rot 0 (river S->E) is a right turn: allowed.
  EXPECT_TRUE(sc.legal(place_at(1, -1, 0)));
  EXPECT_NO_THROW(sc.place(2, 1, 270));
}

// R4 with the fork rotated 180 (exits S and E): the S exit is a right turn, so at (1,1) a curve turning
// right again (RI2.II rot 90, N->W) is rejected, the left turn (rot 180, N->E) accepted.
//
//   spring fork(180) (2,0)
//          (1,1)
TEST(River, R4_ForkSouthExitCountsAsRightTurn) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  sc.turn("RI2.III", 1, 0, 180);
  sc.draw("RI2.II");
  EXPECT_FALSE(sc.legal(place_at(1, 1, 90)));
  EXPECT_TRUE(sc.legal(place_at(1, 1, 180)));
  EXPECT_TRUE(sc.legal(place_at(2, 0, 0)));
  EXPECT_TRUE(sc.legal(place_at(2, 0, 90)));
}

// R5: a river tile that cannot be placed is removed and the same player draws again. Fork rot 0;
// branch A turns right at (1,-1) (RI2.II rot 270, S->E), branch B turns left at (2,0) (RI2.II+ rot 0,
// W->N): both mouths face (2,-1). A tile there (e.g. RI2.RrII rot 0, river S,W,
// roads N,E onto empty cells, every edge matching) would join the branches, so no river tile fits
// anywhere: the 7 remaining middle tiles and the lake are all discarded, then normal tiles come.
//
//         II(270) -> (2,-1)
//  spring  fork  ==> II+(2,0)   (II+ flows N into (2,-1))
TEST(River, R5_UnplaceableRiverTilesAreRemoved) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}, {"BA.RFr", 1}});
  sc.turn("RI2.III", 1, 0, 0);     // seat 0
  sc.turn("RI2.II", 1, -1, 270);   // seat 1
  sc.turn("RI2.II+", 2, 0, 0);     // seat 0
  ASSERT_EQ(sc.state.turn_player(), 1);
  const char* rest[] = {"RI2.RrII", "RI2.IFC", "RI2.CIcI", "RI2.LIFI", "RI2.RIrI", "RI2.CIRI", "RI2.CcII+"};
  int discarded = 0;
  for (const char* id : rest) {
    ASSERT_TRUE(sc.state.is_chance());
    sc.draw(id);
    ++discarded;
    EXPECT_EQ(sc.state.discarded(), discarded) << id;
    EXPECT_TRUE(sc.state.is_chance()) << id;  // removed; the same player draws again
    EXPECT_EQ(sc.state.turn_player(), 1) << id;
    EXPECT_EQ(sc.state.remaining(tile_id(id)), 0) << id;
    EXPECT_EQ(sc.state.tile_at(2, -1), -1);
  }
  sc.draw("RI2.lakeV");
  EXPECT_EQ(sc.state.discarded(), 8);
  EXPECT_EQ(sc.state.num_tiles(), 4);
  ChanceOutcomes out;
  sc.state.chance_outcomes(out);
  EXPECT_EQ(out.total, 2);  // the normal deck
  // Seat 1 now plays a normal tile: BA.C rot 0 north of the spring.
  sc.turn("BA.C", 0, -1, 0);
  EXPECT_EQ(sc.state.turn_player(), 0);
}

// R5: the branches may never be joined, even where the joining curve would be a legal turn for one of
// them. Fork rot 180 (exits E and S). Branch E: LIFI straight at (2,0), mouth into (3,0) from W.
// Branch S: CIcI straight (1,1), II rot 180 (N->E, left) at (1,2), CIRI straight (2,2), II+ rot 0 (W->N,
// left after a straight) at (3,2), RIrI straight (3,1): mouth into (3,0) from S.
//
//  y\x   0      1        2       3
//   0  spring  fork(180) LIFI ==> (3,0) <== both mouths
//   1          CIcI      .        RIrI
//   2          II ====>  CIRI ==> II+
//
// At (3,0) RI2.RrII rot 0 (river W,S; roads N,E onto empty cells) or RI2.CcII+ rot 90 would match every
// edge and, seen from branch E (straight before it), be an allowed right turn; but it joins the branches,
// so neither fits anywhere and both are removed; so are RI2.IFC and the lake.
TEST(River, R5_BranchesMayNotJoin) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}, {"BA.RFr", 1}});
  sc.turn("RI2.III", 1, 0, 180);  // seat 0
  sc.turn("RI2.LIFI", 2, 0, 0);   // seat 1
  sc.turn("RI2.CIcI", 1, 1, 0);   // seat 0
  sc.turn("RI2.II", 1, 2, 180);   // seat 1
  sc.turn("RI2.CIRI", 2, 2, 0);   // seat 0
  sc.turn("RI2.II+", 3, 2, 0);    // seat 1
  sc.turn("RI2.RIrI", 3, 1, 0);   // seat 0
  ASSERT_EQ(sc.state.turn_player(), 1);
  int n = 0;
  for (const char* id : {"RI2.RrII", "RI2.CcII+", "RI2.IFC", "RI2.lakeV"}) {
    sc.draw(id);
    EXPECT_EQ(sc.state.discarded(), ++n) << id;
    EXPECT_TRUE(sc.state.is_chance()) << id;
    EXPECT_EQ(sc.state.turn_player(), 1) << id;
  }
  EXPECT_EQ(sc.state.tile_at(3, 0), -1);
  EXPECT_EQ(sc.state.num_tiles(), 8);
  ChanceOutcomes out;
  sc.state.chance_outcomes(out);
  EXPECT_EQ(out.total, 2);  // the normal deck
  // The dead mouths stay open: no normal tile matches river edges, so (3,0) stays empty.
  sc.draw("BA.C");
  EXPECT_EQ(legal_cells(sc.state).count({3, 0}), 0u);
}

// R6: followers may go on the non-river features of river tiles (city, road, cloister, fields), never on
// the river itself. Standard layout turns 1-5.
TEST(River, R6_FollowersOnNonRiverFeaturesOnly) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  // Fork: rivers on N, E, W; fields NL (NW), NR (NE), SL (S).
  sc.draw("RI2.III");
  sc.place(1, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_at("N")));
  EXPECT_FALSE(sc.legal(deploy_at("E")));
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  EXPECT_TRUE(sc.legal(deploy_at("NR")));
  EXPECT_TRUE(sc.legal(deploy_at("SL")));
  sc.deploy("");
  // CIcI (1,-1): bridge city W-E over the river N-S.
  sc.draw("RI2.CIcI");
  sc.place(1, -1, 0);
  EXPECT_TRUE(sc.legal(deploy_at("W")));  // the city
  EXPECT_TRUE(sc.legal(deploy_at("E")));  // same city
  EXPECT_FALSE(sc.legal(deploy_at("N")));  // river
  EXPECT_FALSE(sc.legal(deploy_at("S")));  // river
  sc.deploy("W");
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 1, -1, "E")).followers[1], 1);
  // LIFI (2,0): cloister and two banks; the river W-E is refused with a message.
  sc.draw("RI2.LIFI");
  sc.place(2, 0, 0);
  EXPECT_TRUE(sc.legal(deploy_at("C")));
  EXPECT_TRUE(sc.legal(deploy_at("NL")));
  EXPECT_TRUE(sc.legal(deploy_at("SR")));
  EXPECT_FALSE(sc.legal(deploy_at("E")));
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  {
    const State before = sc.state;
    const Action river = action_from_json(sc.state, deploy_at("E"));
    EXPECT_FALSE(sc.state.try_apply(river).empty());
    EXPECT_TRUE(sc.state == before);
  }
  sc.deploy("C");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  sc.turn("RI2.CcII+", 1, -2, 0);
  // CIRI (3,0): city N, road S over a bridge, river W-E.
  sc.draw("RI2.CIRI");
  sc.place(3, 0, 0);
  EXPECT_TRUE(sc.legal(deploy_at("N")));
  EXPECT_TRUE(sc.legal(deploy_at("S")));
  EXPECT_TRUE(sc.legal(deploy_at("EL")));
  EXPECT_FALSE(sc.legal(deploy_at("E")));
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  sc.deploy("S");
  EXPECT_EQ(sc.state.followers_in_supply(0), 5);
}

// R6: the spring's field wraps round the river end: the fork's NW field (left bank of the N branch) and
// its S field (right bank of the E branch) are one farm through the spring; the NE field between the
// branches is separate. Seat 0 puts a farmer on the fork's NW field; seat 1 then cannot farm LIFI's
// south bank (joined through the fork's S field and the spring) but can farm its north bank.
//
//  spring(all8) | fork: NW=farmer, NE, S | LIFI(2,0): N bank, S bank
TEST(River, R6_SpringFieldWrapsAroundRiverEnd) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  sc.turn("RI2.III", 1, 0, 0, "NL");
  const State& s = sc.state;
  EXPECT_TRUE(s.connected(field_node(s, 1, 0, "NL"), field_node(s, 1, 0, "SL")));
  EXPECT_TRUE(s.connected(field_node(s, 0, 0, "NL"), field_node(s, 0, 0, "SL")));
  EXPECT_FALSE(s.connected(field_node(s, 1, 0, "NL"), field_node(s, 1, 0, "NR")));
  sc.draw("RI2.LIFI");
  sc.place(2, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_at("SL")));  // occupied through the spring
  EXPECT_FALSE(sc.legal(deploy_at("WL")));
  EXPECT_TRUE(sc.legal(deploy_at("NL")));   // between the branches: free
  sc.deploy("NL");
}

// R6: the lake's field wraps round the river end too. In the standard layout, before the lake RrII's
// outer band (NR,EL,SR,WL) and its inner corner (ER,SL, between the two branches) are different farms;
// the lake at (3,-3) joins them.
TEST(River, R6_LakeFieldWrapsAroundRiverEnd) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}});
  play_river(sc, 1, 10);
  const State& s = sc.state;
  EXPECT_FALSE(s.connected(field_node(s, 2, -3, "EL"), field_node(s, 2, -3, "ER")));
  // The pig-herd field (right bank of branch A) and the fork's NW field (left bank) are still apart.
  EXPECT_FALSE(s.connected(field_node(s, 2, -2, "SL"), field_node(s, 1, 0, "NL")));
  play_river(sc, 11, 11);
  EXPECT_TRUE(s.connected(field_node(s, 2, -3, "EL"), field_node(s, 2, -3, "ER")));
  EXPECT_TRUE(s.connected(field_node(s, 3, -3, "WL"), field_node(s, 3, -3, "WR")));
  EXPECT_TRUE(s.connected(field_node(s, 2, -2, "SL"), field_node(s, 1, 0, "NL")));
  // The river-into-city end does not wrap: IFC's two sides stay apart.
  EXPECT_FALSE(s.connected(field_node(s, 4, 2, "WL"), field_node(s, 4, 2, "EL")));
}

// R7: no follower may be deployed on the volcano lake (default volcano_no_follower=on): the deploy
// decision is skipped even though the lake has a free field. Standard layout.
TEST(River, R7_NoFollowerOnVolcano) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 1}, {"BA.RFr", 1}});
  play_river(sc, 1, 10);
  ASSERT_EQ(sc.state.turn_player(), 0);
  const int supply = sc.state.followers_in_supply(0);
  sc.draw("RI2.lakeV");
  sc.place(3, -3, 0);
  EXPECT_NE(sc.state.phase(), Phase::kDeploy);
  EXPECT_TRUE(sc.state.is_chance());
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_FALSE(sc.legal(deploy_at("NL")));
  EXPECT_EQ(sc.state.followers_in_supply(0), supply);
  // Nobody stands in the lake's (free) farm.
  EXPECT_EQ(sc.state.feature(field_node(sc.state, 3, -3, "NL")).followers[0], 0);
}

// R7 with volcano_no_follower=off: a farmer may go on the volcano lake's field, never on its river.
TEST(River, R7_VolcanoFollowerAllowedWhenOptionOff) {
  Rules r = rules_with(2, kRiver2);
  r.set_option("volcano_no_follower", "off");
  Scenario sc(r, {{"BA.C", 1}, {"BA.RFr", 1}});
  play_river(sc, 1, 10);
  sc.draw("RI2.lakeV");
  sc.place(3, -3, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_TRUE(sc.legal(deploy_at("NL")));
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  sc.deploy("NL");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_EQ(sc.state.feature(field_node(sc.state, 3, -3, "SR")).followers[0], 1);
}

// R8: pig herd. Standard river, then 3 BA.C complete two cities: CIRI's city with BA.C at (3,-1) rot 180
// (2 tiles) and the bridge city of CIcI with BA.C at (0,-1) rot 90 and (2,-1) rot 270 (3 tiles).
//
//  y\x    0        1        2        3       4
//  -3             .       RrII     lake
//  -2            CcII+    II+(pig)  .
//  -1   BA.C>   <CIcI>   <BA.C     BA.C
//   0   spring   fork     LIFI     CIRI*    II
//
// Seat 1's farmer on the pig field of II+ (turn 6): after the lake this farm spans both banks of branch
// A, LIFI, the north-west field of CIRI and the three BA.C; completed cities touching it: CIcI's and
// CIRI's (CcII+'s city stays open) -> 2 x 4 = 8 with the pig herd. Seat 0's farmer on CIRI's NE field
// (turn 5; with II's outer field and RIrI's NE field, no pig herd) touches CIRI's city only -> 3.
// No other follower; the game ends with the last BA.C.
void pig_herd_game(Scenario& sc) {
  play_river(sc, 1, 11, {{5, "EL"}, {6, "SL"}});
  sc.turn("BA.C", 3, -1, 180);  // seat 1: CIRI's city complete (nobody in it)
  sc.turn("BA.C", 0, -1, 90);   // seat 0
  sc.turn("BA.C", 2, -1, 270);  // seat 1: CIcI's city complete
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

TEST(River, R8_PigHerdFarmScoresFourPerCity) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.C", 3}});
  pig_herd_game(sc);
  EXPECT_EQ(sc.score(1, kFieldPoints), 8);
  EXPECT_EQ(sc.score(0, kFieldPoints), 3);
  EXPECT_EQ(sc.score(1), 8);
  EXPECT_EQ(sc.score(0), 3);
}

TEST(River, R8_PigHerdOffScoresThreePerCity) {
  Rules r = rules_with(2, kRiver2);
  r.set_option("pig_herd", "off");
  Scenario sc(r, {{"BA.C", 3}});
  pig_herd_game(sc);
  EXPECT_EQ(sc.score(1, kFieldPoints), 6);
  EXPECT_EQ(sc.score(0, kFieldPoints), 3);
  EXPECT_EQ(sc.score(1), 6);
  EXPECT_EQ(sc.score(0), 3);
}

// R8: the inn on RIrI's bridge road is an ordinary road (no doubling, no zero when incomplete).
// Standard river with seat 0's thief on RIrI's road (turn 9). Then BA.Rr rot 180 at (3,1) joins CIRI's
// road (which ends at its city) to RIrI's W end, BA.LR rot 90 at (5,1) ends it at a cloister:
//   CIRI(3,0)
//      |
//   Rr(3,1) -- RIrI(4,1, inn) -- LR(5,1)      4 tiles, complete: 4 points (an inn would give 8).
// In the other branch, BA.RFr at (5,1) leaves it open; at the end RIrI + RFr score 2 (an inn would give 0).
TEST(River, R8_InnRoadIsOrdinaryRoad) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.Rr", 1}, {"BA.LR", 1}, {"BA.RFr", 1}, {"BA.C", 1}});
  play_river(sc, 1, 11, {{9, "W"}});
  ASSERT_EQ(sc.state.feature(edge_node(sc.state, 4, 1, "E")).followers[0], 1);
  Scenario open = sc;
  sc.turn("BA.Rr", 3, 1, 180);  // seat 1
  EXPECT_EQ(sc.score(0, kRoadPoints), 0);
  sc.turn("BA.LR", 5, 1, 90);   // seat 0: road complete
  EXPECT_EQ(sc.score(0, kRoadPoints), 4);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_FALSE(sc.state.is_terminal());

  // Incomplete inn road at the end of the game.
  open.turn("BA.RFr", 5, 1, 0);    // seat 1
  open.turn("BA.C", 3, -1, 180);   // seat 0
  open.turn("BA.Rr", -1, 0, 90);   // seat 1: a field tile west of the spring, away from the road
  open.turn("BA.LR", 0, 1, 0);     // seat 0: cloister south of the spring, last tile
  ASSERT_TRUE(open.state.is_terminal());
  EXPECT_EQ(open.score(0, kRoadPoints), 2);
}

// ===================================================================================================
// King & Robber Baron
// ===================================================================================================

// K1: the first completed city takes the King, even a 2-tile city and even with no follower in it.
// Start tile at (0,0) (city N). Seat 0 extends the start road (BA.RFr at (1,0)); seat 1 closes the start
// city with BA.C rot 180 at (0,-1).
TEST(KingRobber, K1_FirstCityTakesKing) {
  Scenario sc(rules_with(2, kKingRobber), {{"BA.RFr", 2}, {"BA.C", 1}});
  EXPECT_EQ(sc.state.king(), -1);
  EXPECT_EQ(sc.state.robber(), -1);
  sc.turn("BA.RFr", 1, 0, 0);
  EXPECT_EQ(sc.state.king(), -1);
  sc.turn("BA.C", 0, -1, 180);
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 0, 0, "N")).complete);
  EXPECT_EQ(sc.state.king(), 1);
  EXPECT_EQ(sc.state.robber(), -1);
  EXPECT_EQ(sc.score(1), 0);

  // Without the expansion nobody takes it.
  Scenario plain(rules_with(2), {{"BA.RFr", 2}, {"BA.C", 1}});
  plain.turn("BA.RFr", 1, 0, 0);
  plain.turn("BA.C", 0, -1, 180);
  EXPECT_EQ(plain.state.king(), -1);
}

// K1: a strictly larger city takes the King, an equal one does not, and the record follows the holder's
// own larger cities. Cities are columns: a cap BA.C rot 0 (city N) at the bottom, BA.CFc rot 90 (city
// N-S) in the middle, a cap BA.C rot 180 at the top; no followers anywhere.
//
//  y\x   0     1     2     3     4
//  -4                      C5    C5'      column 3: 4 tiles (seat 1, holder), column 4: 4 (seat 0)
//  -3          C3    C3'   |     |        column 1: 3 tiles (seat 1), column 2: 3 (seat 0)
//  -2          |     |     |     |
//  -1    C1    C3    C3'   C5    C5'
//   0   start
TEST(KingRobber, K1_LargerCityTakesKingEqualDoesNot) {
  Scenario sc(rules_with(2, kKingRobber), {{"BA.C", 9}, {"BA.CFc", 6}, {"BA.RFr", 1}});
  sc.turn("BA.C", 0, -1, 180);  // T1 seat 0: start city, 2 tiles
  EXPECT_EQ(sc.state.king(), 0);
  sc.turn("BA.C", 1, -1, 0);     // T2 seat 1
  sc.turn("BA.CFc", 1, -2, 90);  // T3 seat 0
  sc.turn("BA.C", 1, -3, 180);   // T4 seat 1: 3 tiles > 2
  EXPECT_EQ(sc.state.king(), 1);
  sc.turn("BA.C", 2, -1, 0);     // T5 seat 0
  sc.turn("BA.CFc", 2, -2, 90);  // T6 seat 1
  sc.turn("BA.C", 2, -3, 180);   // T7 seat 0: 3 tiles, equal
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 2, -3, "S")).complete);
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 2, -3, "S")).tiles, 3);
  EXPECT_EQ(sc.state.king(), 1);
  sc.turn("BA.C", 3, -1, 0);     // T8 seat 1
  sc.turn("BA.CFc", 3, -2, 90);  // T9 seat 0
  sc.turn("BA.CFc", 3, -3, 90);  // T10 seat 1
  sc.turn("BA.C", 4, -1, 0);     // T11 seat 0
  sc.turn("BA.C", 3, -4, 180);   // T12 seat 1 (the holder): 4 tiles, the record becomes 4
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 3, -4, "S")).tiles, 4);
  EXPECT_EQ(sc.state.king(), 1);
  sc.turn("BA.CFc", 4, -2, 90);  // T13 seat 0
  sc.turn("BA.CFc", 4, -3, 90);  // T14 seat 1
  sc.turn("BA.C", 4, -4, 180);   // T15 seat 0: 4 tiles: would beat 3, but equals the updated record
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 4, -4, "S")).complete);
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 4, -4, "S")).tiles, 4);
  EXPECT_EQ(sc.state.king(), 1);
  EXPECT_EQ(sc.state.robber(), -1);
  EXPECT_FALSE(sc.state.is_terminal());
  // Last tile: BA.RFr extends the start road (still open). Final: King (seat 1) +5 completed cities.
  sc.turn("BA.RFr", 1, 0, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kBonusPoints), 5);
  EXPECT_EQ(sc.score(0, kBonusPoints), 0);
  EXPECT_EQ(sc.score(1), 5);
  EXPECT_EQ(sc.score(0), 0);
}

// K2: the Robber Baron, the same for roads. Start road W-E closed by two BA.LR (roads end at cloisters).
// Road columns below: BA.LR rot 0 (road S) on top, BA.RFr rot 90 (N-S), BA.LR rot 180 (road N) at the
// bottom. No followers.
//
//  y\x  -1    0     1     2     3
//   0   LR- start -LR
//   1   L     LR    LR    LR    LR
//   2         |     |     |     |
//   3         LR    |     |     |
//   4               LR    |     |
//   5                     LR    LR
//  road1 3 tiles (seat 1, first), column 0: 3 (seat 0, equal), column 1: 4 (seat 0, larger),
//  column 2: 5 (seat 0, the holder), column 3: 5 (seat 1, equal to the updated record).
TEST(KingRobber, K2_RobberBaronForRoads) {
  Scenario sc(rules_with(2, kKingRobber), {{"BA.LR", 10}, {"BA.RFr", 10}, {"BA.L", 1}});
  sc.turn("BA.LR", -1, 0, 270);  // T1 seat 0
  EXPECT_EQ(sc.state.robber(), -1);
  sc.turn("BA.LR", 1, 0, 90);    // T2 seat 1: start road, 3 tiles: first road
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 0, 0, "E")).complete);
  EXPECT_EQ(sc.state.robber(), 1);
  EXPECT_EQ(sc.state.king(), -1);
  sc.turn("BA.LR", 0, 1, 0);     // T3 seat 0
  sc.turn("BA.RFr", 0, 2, 90);   // T4 seat 1
  sc.turn("BA.LR", 0, 3, 180);   // T5 seat 0: 3 tiles, equal
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 0, 3, "N")).complete);
  EXPECT_EQ(sc.state.robber(), 1);
  sc.turn("BA.LR", 1, 1, 0);     // T6 seat 1
  sc.turn("BA.RFr", 1, 2, 90);   // T7 seat 0
  sc.turn("BA.RFr", 1, 3, 90);   // T8 seat 1
  sc.turn("BA.LR", 1, 4, 180);   // T9 seat 0: 4 tiles > 3
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 1, 4, "N")).tiles, 4);
  EXPECT_EQ(sc.state.robber(), 0);
  sc.turn("BA.LR", 2, 1, 0);     // T10 seat 1
  sc.turn("BA.RFr", 2, 2, 90);   // T11 seat 0
  sc.turn("BA.RFr", 2, 3, 90);   // T12 seat 1
  sc.turn("BA.RFr", 2, 4, 90);   // T13 seat 0
  sc.turn("BA.L", -1, 1, 0);     // T14 seat 1: elsewhere
  sc.turn("BA.LR", 2, 5, 180);   // T15 seat 0 (holder): 5 tiles, record 5
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 2, 5, "N")).tiles, 5);
  EXPECT_EQ(sc.state.robber(), 0);
  sc.turn("BA.LR", 3, 1, 0);     // T16 seat 1
  sc.turn("BA.RFr", 3, 2, 90);   // T17 seat 0
  sc.turn("BA.RFr", 3, 3, 90);   // T18 seat 1
  sc.turn("BA.RFr", 3, 4, 90);   // T19 seat 0
  sc.turn("BA.LR", 3, 5, 180);   // T20 seat 1: 5 tiles: would beat 4, equals the updated record
  EXPECT_TRUE(sc.state.feature(edge_node(sc.state, 3, 5, "N")).complete);
  EXPECT_EQ(sc.state.feature(edge_node(sc.state, 3, 5, "N")).tiles, 5);
  EXPECT_EQ(sc.state.robber(), 0);
  EXPECT_EQ(sc.state.king(), -1);
  EXPECT_FALSE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// K3: at the end the King's holder scores 1 per completed city on the board, the Robber's holder 1 per
// completed road (whoever completed them), in the bonus category.
//
//  y\x  -1    0     1
//  -2               C(B)        city B: (1,-1)+(1,-2), completed by seat 1 (equal: King stays)
//  -1         C(A)  C(B)        city A: start + (0,-1), completed by seat 0 with a knight: 4 points
//   0   LR - start - LR         road 1: 3 tiles, completed by seat 1 with a thief: 3 points
//   1         LR                road 2: (0,1)+(0,2), completed by seat 0 (smaller: Robber stays)
//   2         LR
// Final: seat 0 = 4 + King 2 = 6, seat 1 = 3 + Robber 2 = 5. The cloisters on the BA.LR have no monks.
TEST(KingRobber, K3_EndBonusPerCompletedCityAndRoad) {
  const std::map<std::string, int> deck = {{"BA.C", 3}, {"BA.LR", 4}};
  Scenario sc(rules_with(2, kKingRobber), deck);
  sc.turn("BA.C", 0, -1, 180, "S");  // T1 seat 0: city A, 2 tiles, knight scores 4
  EXPECT_EQ(sc.score(0, kCityPoints), 4);
  EXPECT_EQ(sc.state.king(), 0);
  sc.turn("BA.LR", -1, 0, 270);      // T2 seat 1
  sc.turn("BA.C", 1, -1, 0);         // T3 seat 0
  sc.turn("BA.LR", 1, 0, 90, "W");   // T4 seat 1: road 1, 3 tiles, thief scores 3
  EXPECT_EQ(sc.score(1, kRoadPoints), 3);
  EXPECT_EQ(sc.state.robber(), 1);
  sc.turn("BA.LR", 0, 1, 0);         // T5 seat 0
  sc.turn("BA.C", 1, -2, 180);       // T6 seat 1: city B, 2 tiles
  EXPECT_EQ(sc.state.king(), 0);
  EXPECT_EQ(sc.score(0, kBonusPoints), 0);  // the bonus comes only at the end
  sc.turn("BA.LR", 0, 2, 180);       // T7 seat 0: road 2, 2 tiles; last tile
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.robber(), 1);
  EXPECT_TRUE(scores_are(sc, {2, 2}, kBonusPoints));
  EXPECT_TRUE(scores_are(sc, {6, 5}));

  // The same game without King & Robber: no bonus.
  Scenario plain(rules_with(2), deck);
  plain.turn("BA.C", 0, -1, 180, "S");
  plain.turn("BA.LR", -1, 0, 270);
  plain.turn("BA.C", 1, -1, 0);
  plain.turn("BA.LR", 1, 0, 90, "W");
  plain.turn("BA.LR", 0, 1, 0);
  plain.turn("BA.C", 1, -2, 180);
  plain.turn("BA.LR", 0, 2, 180);
  ASSERT_TRUE(plain.state.is_terminal());
  EXPECT_EQ(plain.score(0, kBonusPoints), 0);
  EXPECT_EQ(plain.score(1, kBonusPoints), 0);
  EXPECT_EQ(plain.score(0), 4);
  EXPECT_EQ(plain.score(1), 3);
}

// K3 with river and King & Robber together: the river's city and road features count too. Standard river;
// then BA.C rot 180 at (3,-1) completes CIRI's city (seat 1: first city, King), BA.Rr rot 180 at (3,1) and
// BA.LR rot 90 at (5,1) complete the inn road CIRI-(3,1)-RIrI-(5,1) (seat 1 again: Robber).
// IFC's city (S edge at (4,3)) stays open. Final: seat 1 gets +1 (King, 1 city) +1 (Robber, 1 road).
TEST(KingRobber, K3_WithRiverFeatures) {
  Scenario sc(rules_with(2, kRiver2 | kKingRobber), {{"BA.C", 1}, {"BA.Rr", 1}, {"BA.LR", 1}});
  play_river(sc, 1, 11);
  EXPECT_EQ(sc.state.king(), -1);
  EXPECT_EQ(sc.state.robber(), -1);
  sc.turn("BA.C", 3, -1, 180);  // seat 1
  EXPECT_EQ(sc.state.king(), 1);
  sc.turn("BA.Rr", 3, 1, 180);  // seat 0
  EXPECT_EQ(sc.state.robber(), -1);
  sc.turn("BA.LR", 5, 1, 90);   // seat 1: road of 4 tiles
  EXPECT_EQ(sc.state.robber(), 1);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kBonusPoints), 2);  // King: 1 city; Robber: 1 road
  EXPECT_EQ(sc.score(0, kBonusPoints), 0);
  EXPECT_EQ(sc.score(1), 2);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

}  // namespace
}  // namespace meeple
