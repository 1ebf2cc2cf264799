// Scenario tests for the base game rules B1-B13 of docs/rules.md.
//
// Board conventions: x grows east, y grows south; the start tile BA.RCr sits at (0,0) unrotated (city N,
// road W-E, field S). Rotations are clockwise; a rotation of 90 maps a tile's printed N edge to E. Every
// expected score below is worked out by hand from core/data/tiles.txt and docs/rules.md.
#include <string>

#include "scenario.h"

namespace meeple::testing {
namespace {

using nlohmann::json;

json deploy_at(const std::string& at) { return json{{"deploy", {{"figure", "follower"}, {"at", at}}}}; }
json place_at(int x, int y, int rot) { return json{{"place", {x, y, rot}}}; }
int type_of(const char* id) { return TileCatalog::get().find(id); }
// Follower deploy on the tile just placed, as an Action (for try_apply).
Action deploy_action(const Scenario& sc, const std::string& at) { return action_from_json(sc.state, deploy_at(at)); }

// ---- B1 Setup ------------------------------------------------------------------------------------------

// The start tile BA.RCr at (0,0) unrotated; 71 tiles to draw in the base game; first player draws.
TEST(Base, B1_StartTileAtOriginAndSeventyOneTilesLeft) {
  for (int players : {2, 3, 6}) {
    const State s(rules_with(players));
    EXPECT_EQ(s.tiles_left(), 71) << players << " players";
    EXPECT_EQ(s.num_tiles(), 1);
    ASSERT_EQ(s.tile_at(0, 0), 0);
    EXPECT_EQ(s.tile(0).type, type_of("BA.RCr"));
    EXPECT_EQ(s.tile(0).rotation, 0);
    EXPECT_EQ(s.remaining(type_of("BA.RCr")), 3);  // 4 in the set, one is the start tile
    EXPECT_TRUE(s.is_chance());
    EXPECT_EQ(s.turn_player(), 0);
    ChanceOutcomes out;
    s.chance_outcomes(out);
    EXPECT_EQ(out.total, 71);
    EXPECT_EQ(s.frontier_size(), 4);
  }
  // Unrotated: its city is on the north edge, so a city-south tile closes it at (0,-1) and a city-north
  // tile cannot go there; the east edge is a road.
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.L", 1}});
  EXPECT_EQ(sc.state.tile_at(0, 0), 0);
  sc.draw("BA.C");
  EXPECT_TRUE(sc.legal(place_at(0, -1, 180)));
  EXPECT_FALSE(sc.legal(place_at(0, -1, 0)));
  EXPECT_FALSE(sc.legal(place_at(1, 0, 90)));  // BA.C has no road for the start tile's east road
}

// ---- B2 Turn order -------------------------------------------------------------------------------------

// Draw, place, deploy, then score: a knight put on BA.C (0,-1) rot 180 that closes the start city is
// scored in the same turn (2 tiles: 4 points) and comes back; then seat 1 draws.
TEST(Base, B2_DrawPlaceDeployThenScore) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.L", 1}});
  EXPECT_EQ(sc.state.current_player(), kChance);
  sc.draw("BA.C");
  EXPECT_EQ(sc.state.phase(), Phase::kPlace);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.state.drawn_tile(), type_of("BA.C"));
  sc.place(0, -1, 180);
  EXPECT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.score(0, kCityPoints), 0);  // not scored before the deploy decision
  sc.deploy("S");
  EXPECT_EQ(sc.score(0, kCityPoints), 4);
  EXPECT_TRUE(scores_are(sc, {4, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
}

// ---- B3 Placement --------------------------------------------------------------------------------------

// Illegal placements are refused with a message and leave the state unchanged: an edge mismatch, a cell
// not touching the board, an occupied cell, and a cell where one edge matches but another does not.
TEST(Base, B3_IllegalPlacementsRejected) {
  Scenario sc(rules_with(2), {{"BA.C", 2}, {"BA.RFr", 1}, {"BA.L", 1}});
  sc.draw("BA.C");
  const State before = sc.state;
  EXPECT_FALSE(sc.state.try_apply(Action::place(0, -1, 0)).empty());  // field S against the start's city
  EXPECT_TRUE(sc.state == before);
  EXPECT_FALSE(sc.state.try_apply(Action::place(0, -2, 2)).empty());  // does not touch the board
  EXPECT_TRUE(sc.state == before);
  EXPECT_FALSE(sc.state.try_apply(Action::place(5, 5, 0)).empty());
  EXPECT_TRUE(sc.state == before);
  EXPECT_FALSE(sc.state.try_apply(Action::place(0, 0, 2)).empty());  // occupied
  EXPECT_TRUE(sc.state == before);
  for (int rot : {0, 90, 180, 270}) EXPECT_FALSE(sc.legal(place_at(1, 0, rot))) << rot;  // needs a road W
  EXPECT_EQ(sc.state.phase(), Phase::kPlace);
  sc.place(0, -1, 180);
  sc.deploy("");

  // Seat 1: BA.RFr fits east of the start only with its road W-E.
  sc.draw("BA.RFr");
  EXPECT_TRUE(sc.legal(place_at(1, 0, 0)));
  EXPECT_TRUE(sc.legal(place_at(1, 0, 180)));
  EXPECT_FALSE(sc.legal(place_at(1, 0, 90)));
  EXPECT_FALSE(sc.legal(place_at(1, 0, 270)));
  sc.place(1, 0, 0);
  sc.deploy("");

  // Seat 0: (1,-1) has field edges on its W (BA.C) and S (BA.RFr) neighbours; both must match.
  sc.draw("BA.C");
  EXPECT_TRUE(sc.legal(place_at(1, -1, 0)));     // city N: W and S are fields
  EXPECT_TRUE(sc.legal(place_at(1, -1, 90)));    // city E: W and S are fields
  EXPECT_FALSE(sc.legal(place_at(1, -1, 180)));  // city S against the road tile's field, W matches
  EXPECT_FALSE(sc.legal(place_at(1, -1, 270)));  // city W against BA.C's field, S matches
  const State before2 = sc.state;
  EXPECT_FALSE(sc.state.try_apply(Action::place(1, -1, 3)).empty());
  EXPECT_TRUE(sc.state == before2);
  sc.place(1, -1, 90);
  EXPECT_EQ(sc.state.num_tiles(), 4);
}

// ---- B4 A tile that fits nowhere -----------------------------------------------------------------------

// After BA.C (0,-1) rot 180 closes the start city, no frontier cell accepts a tile with four city edges
// (every open cell needs a field or road edge). BA.Cccc+ is removed and seat 1 draws again.
TEST(Base, B4_TileThatFitsNowhereIsDiscardedAndSamePlayerDrawsAgain) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.Cccc+", 1}, {"BA.L", 2}});
  sc.turn("BA.C", 0, -1, 180);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.tiles_left(), 3);
  sc.draw("BA.Cccc+");
  EXPECT_EQ(sc.state.discarded(), 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.remaining(type_of("BA.Cccc+")), 0);
  EXPECT_EQ(sc.state.tiles_left(), 2);
  EXPECT_EQ(sc.state.num_tiles(), 2);
  // Seat 1 plays the next tile (a monk proves whose turn it is).
  sc.turn("BA.L", 0, 1, 0, "C");
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_FALSE(sc.state.is_terminal());
}

// The same discard when the unplaceable tile is the last one: the game ends and is scored.
TEST(Base, B4_DiscardingTheLastTileEndsTheGame) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.Cccc+", 1}});
  sc.turn("BA.C", 0, -1, 180, "S");  // 4 points at once
  sc.draw("BA.Cccc+");
  EXPECT_EQ(sc.state.discarded(), 1);
  EXPECT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {4, 0}));
}

// ---- B5 Deployment -------------------------------------------------------------------------------------

// Seat 0 puts a thief on the start road via BA.RFr (1,0). Seat 1's BA.RFr (2,0) extends that road: no
// follower may go on it, but the unoccupied north field is fine. Seat 0 cannot add to its own road either.
TEST(Base, B5_CannotDeployOnOccupiedFeature) {
  Scenario sc(rules_with(2), {{"BA.RFr", 3}, {"BA.L", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "E");
  sc.draw("BA.RFr");
  sc.place(2, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  EXPECT_FALSE(sc.legal(deploy_at("E")));
  EXPECT_TRUE(sc.legal(deploy_at("NL")));
  EXPECT_TRUE(sc.legal(deploy_at("SR")));
  const State before = sc.state;
  EXPECT_FALSE(sc.state.try_apply(deploy_action(sc, "E")).empty());
  EXPECT_TRUE(sc.state == before);
  sc.deploy("NL");
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  // Seat 0's own road: also occupied. The south field is free; the north field now holds seat 1's farmer.
  sc.draw("BA.RFr");
  sc.place(3, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  EXPECT_FALSE(sc.legal(deploy_at("NR")));
  EXPECT_TRUE(sc.legal(deploy_at("SL")));
}

// Roads: A = start + BA.Rr (1,0) rot 0 (curving south), thief of seat 1; B = BA.RFr (0,1), empty. Seat 0's
// BA.Rr (1,1) rot 90 (road N-W) joins A and B: its road is now part of an occupied road, so no thief;
// its outer field is free.
TEST(Base, B5_CannotDeployOnFeatureJoinedToOccupiedOneByThisTile) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.Rr", 2}, {"BA.L", 1}});
  sc.turn("BA.RFr", 0, 1, 0);
  sc.turn("BA.Rr", 1, 0, 0, "W");
  sc.draw("BA.Rr");
  sc.place(1, 1, 90);
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_FALSE(sc.legal(deploy_at("N")));
  EXPECT_FALSE(sc.legal(deploy_at("W")));
  EXPECT_TRUE(sc.legal(deploy_at("SL")));  // outer field
  EXPECT_TRUE(sc.legal(deploy_at("NL")));  // inner corner field
  const State before = sc.state;
  EXPECT_FALSE(sc.state.try_apply(deploy_action(sc, "W")).empty());
  EXPECT_TRUE(sc.state == before);
  sc.deploy("SL");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
}

// BA.Cccc+ (0,-1) closes a city whose every piece is occupied: with nothing free on the tile the engine
// skips the deploy decision. (The rest of this position is the B9 minority scenario.)
TEST(Base, B5_NoDeployDecisionWhenEverythingOnTheTileIsOccupied) {
  Scenario sc(rules_with(2), {{"BA.RFr", 2}, {"BA.C", 2}, {"BA.Cccc+", 1}, {"BA.L", 1}});
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.C", -1, -1, 90, "E");
  sc.turn("BA.C", 1, -1, 270, "W");
  sc.draw("BA.Cccc+");
  sc.place(0, -1, 0);  // its only feature, the city, now holds both knights (still open to the north)
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
}

// A player with no follower left in supply deploys nothing: seat 0 puts a monk on each of its seven
// BA.L tiles along y = 1; its eighth turn skips the deploy decision.
TEST(Base, B5_NoDeployWithEmptySupply) {
  Scenario sc(rules_with(2), {{"BA.L", 17}});
  for (int x = 0; x < 14; ++x) sc.turn("BA.L", x, 1, 0, x % 2 == 0 ? "C" : "");
  EXPECT_EQ(sc.state.followers_in_supply(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  sc.draw("BA.L");
  sc.place(14, 1, 0);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
}

// Never on a river: the fork placed east of the spring takes farmers but no follower on its river.
TEST(Base, B5_NeverOnARiver) {
  Scenario sc(rules_with(2, kRiver2), {{"BA.L", 1}});
  sc.draw("RI2.III");
  sc.place(1, 0, 0);  // river W (to the spring), N and E
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  for (const char* river : {"W", "N", "E"}) EXPECT_FALSE(sc.legal(deploy_at(river))) << river;
  EXPECT_TRUE(sc.legal(deploy_at("SL")));
  const State before = sc.state;
  EXPECT_FALSE(sc.state.try_apply(deploy_action(sc, "N")).empty());
  EXPECT_TRUE(sc.state == before);
}

// ---- B6 Roads ------------------------------------------------------------------------------------------

// Start road closed east by BA.RRR (1,0)'s junction and west by BA.CccR (-1,0) rot 270, whose road ends
// at its city: 3 tiles, 3 points to the thief's owner; the thief returns.
TEST(Base, B6_RoadClosedByJunctionAndCityScoresOnePerTile) {
  Scenario sc(rules_with(2), {{"BA.RRR", 1}, {"BA.CccR", 1}, {"BA.L", 1}});
  sc.turn("BA.RRR", 1, 0, 0, "W");
  EXPECT_EQ(sc.score(0, kRoadPoints), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  sc.turn("BA.CccR", -1, 0, 270);
  EXPECT_EQ(sc.score(0, kRoadPoints), 3);
  EXPECT_TRUE(scores_are(sc, {3, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// Start road closed east by the cloister of BA.LR (1,0) rot 90 and west by BA.RRR (-1,0)'s junction: 3.
TEST(Base, B6_RoadClosedByCloister) {
  Scenario sc(rules_with(2), {{"BA.LR", 1}, {"BA.RRR", 1}, {"BA.L", 1}});
  sc.turn("BA.LR", 1, 0, 90, "W");
  sc.turn("BA.RRR", -1, 0, 0);
  EXPECT_EQ(sc.score(0, kRoadPoints), 3);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// A loop of four BA.Rr curves south of the start: (0,1) E-S, (1,1) W-S, (1,2) N-W, (0,2) N-E. No end at
// all, yet complete: 4 points.
TEST(Base, B6_RoadLoopIsComplete) {
  Scenario sc(rules_with(2), {{"BA.Rr", 4}, {"BA.L", 1}});
  sc.turn("BA.Rr", 0, 1, 270, "E");
  sc.turn("BA.Rr", 1, 1, 0);
  sc.turn("BA.Rr", 1, 2, 90);
  EXPECT_EQ(sc.score(0, kRoadPoints), 0);
  sc.turn("BA.Rr", 0, 2, 180);
  EXPECT_EQ(sc.score(0, kRoadPoints), 4);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// A road leaves the junction BA.RRR (1,0) eastward, loops through BA.Rr (2,0) W-S, (2,1) N-W, (1,1) N-E and
// comes back into the same junction from the south. The junction tile counts once: 4 tiles, not 5.
TEST(Base, B6_RoadCrossingATileTwiceCountsItOnce) {
  Scenario sc(rules_with(2), {{"BA.RRR", 1}, {"BA.Rr", 3}, {"BA.L", 1}});
  sc.turn("BA.RRR", 1, 0, 0, "E");
  sc.turn("BA.Rr", 2, 0, 0);
  sc.turn("BA.Rr", 2, 1, 90);
  EXPECT_EQ(sc.score(0, kRoadPoints), 0);
  sc.turn("BA.Rr", 1, 1, 180);
  EXPECT_EQ(sc.score(0, kRoadPoints), 4);
  EXPECT_EQ(sc.state.feature(sc.state.node(sc.state.tile_at(1, 1), 0)).tiles, 4);
  EXPECT_EQ(sc.state.check_consistency(), "");
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// ---- B7 Cities -----------------------------------------------------------------------------------------

// Start city + BA.CFc+ (0,-1) rot 90 (city N-S, pennant) + BA.C (0,-2) rot 180: 3 tiles and 1 pennant = 8.
TEST(Base, B7_CityScoresTwoPerTileAndPennant) {
  Scenario sc(rules_with(2), {{"BA.CFc+", 1}, {"BA.C", 1}, {"BA.L", 1}});
  sc.turn("BA.CFc+", 0, -1, 90, "N");
  EXPECT_EQ(sc.score(0, kCityPoints), 0);
  sc.turn("BA.C", 0, -2, 180);
  EXPECT_EQ(sc.score(0, kCityPoints), 8);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// A ring through a tile with two separate cities: BA.CC (0,1) rot 180 (city S, city E), BA.Cc (1,1)
// rot 270 (W-S), BA.Cc (0,2) rot 90 (N-E), BA.Cc+ (1,2) rot 0 (N-W). One city over 4 tiles (BA.CC counts
// once) with 1 pennant: 10.
TEST(Base, B7_CityThroughATileTwiceCountsItOnce) {
  Scenario sc(rules_with(2), {{"BA.CC", 1}, {"BA.Cc", 2}, {"BA.Cc+", 1}, {"BA.L", 1}});
  sc.turn("BA.CC", 0, 1, 180, "S");
  sc.turn("BA.Cc", 1, 1, 270);
  sc.turn("BA.Cc", 0, 2, 90);
  EXPECT_EQ(sc.score(0, kCityPoints), 0);
  sc.turn("BA.Cc+", 1, 2, 0);
  EXPECT_EQ(sc.score(0, kCityPoints), 10);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.feature(sc.state.node(sc.state.tile_at(0, 1), 0)).tiles, 4);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// small_city=two_points: a completed 2-tile city scores 1 per tile (2); a 3-tile city is unaffected (8).
// Board: the B7 3-tile city, then BA.C (-1,-1) rot 0 and BA.C (-1,-2) rot 180 close a 2-tile city.
TEST(Base, B7_SmallCityOptionTwoPoints) {
  for (const bool two_points : {false, true}) {
    Rules r = rules_with(2);
    if (two_points) r.set_option("small_city", "two_points");
    Scenario sc(r, {{"BA.CFc+", 1}, {"BA.C", 3}, {"BA.L", 1}});
    sc.turn("BA.CFc+", 0, -1, 90, "N");
    sc.turn("BA.C", 0, -2, 180);
    EXPECT_EQ(sc.score(0, kCityPoints), 8) << two_points;
    sc.turn("BA.C", -1, -1, 0, "N");
    sc.turn("BA.C", -1, -2, 180);
    EXPECT_EQ(sc.score(0, kCityPoints), two_points ? 8 + 2 : 8 + 4) << two_points;
    EXPECT_EQ(sc.score(1), 0);
  }
}

// ---- B8 Cloisters --------------------------------------------------------------------------------------

// Monk on BA.L (0,1); the 8 squares around it are filled (start, BA.RFr (±1,0), BA.L elsewhere). It
// scores 9 only when the eighth neighbour arrives, placed by the other player.
TEST(Base, B8_CloisterScoresNineWhenSurrounded) {
  Scenario sc(rules_with(2), {{"BA.L", 7}, {"BA.RFr", 2}});
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.L", 1, 1, 0);
  sc.turn("BA.L", -1, 1, 0);
  sc.turn("BA.L", -1, 2, 0);
  sc.turn("BA.L", 0, 2, 0);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  sc.turn("BA.L", 1, 2, 0);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
}

// The ring is built first; BA.L with a monk dropped into the hole at (0,1) is complete at once: 9.
TEST(Base, B8_CloisterPlacedIntoSurroundedHoleScoresAtOnce) {
  Scenario sc(rules_with(2), {{"BA.L", 7}, {"BA.RFr", 2}});
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.L", 1, 1, 0);
  sc.turn("BA.L", -1, 1, 0);
  sc.turn("BA.L", -1, 2, 0);
  sc.turn("BA.L", 0, 2, 0);
  sc.turn("BA.L", 1, 2, 0);
  ASSERT_EQ(sc.state.turn_player(), 1);
  sc.turn("BA.L", 0, 1, 0, "C");
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
}

// ---- B9 Majority ---------------------------------------------------------------------------------------

// Seat 1 has knights on BA.C (1,-1) rot 270 and BA.C (0,-2) rot 180, seat 0 one on BA.C (-1,-1) rot 90.
// Seat 0's BA.Cccc+ (0,-1) joins them with the start city: 5 tiles + 1 pennant = 12, all to seat 1;
// seat 0, in the minority, scores nothing although it completed the city. All three knights return.
TEST(Base, B9_MajorityScoresMinorityScoresNothing) {
  Scenario sc(rules_with(2), {{"BA.RFr", 2}, {"BA.C", 3}, {"BA.L", 2}, {"BA.Cccc+", 1}});
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.C", -1, -1, 90, "E");
  sc.turn("BA.C", 1, -1, 270, "W");
  sc.turn("BA.L", -1, -2, 0);
  sc.turn("BA.C", 0, -2, 180, "S");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_EQ(sc.state.followers_in_supply(1), 5);
  sc.turn("BA.Cccc+", 0, -1, 0);
  EXPECT_EQ(sc.score(1, kCityPoints), 12);
  EXPECT_EQ(sc.score(0, kCityPoints), 0);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
}

// Road A (start + BA.Rr (1,0) W-S, seat 0's thief) and road B (BA.RFr (0,1), seat 1's thief) are joined by
// BA.Rr (1,1) N-W and closed into a loop by BA.Rr (-1,0) E-S and (-1,1) N-E: 6 tiles, tie, both score 6.
TEST(Base, B9_TiedPlayersBothScore) {
  Scenario sc(rules_with(2), {{"BA.Rr", 4}, {"BA.RFr", 1}, {"BA.L", 1}});
  sc.turn("BA.Rr", 1, 0, 0, "W");
  sc.turn("BA.RFr", 0, 1, 0, "W");
  sc.turn("BA.Rr", 1, 1, 90);
  sc.turn("BA.Rr", -1, 0, 270);
  EXPECT_EQ(sc.score(0) + sc.score(1), 0);
  sc.turn("BA.Rr", -1, 1, 180);
  EXPECT_TRUE(scores_are(sc, {6, 6}, kRoadPoints));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
}

// BA.C (0,-1) rot 180 closes the start city with nobody in it: complete, but no one scores.
TEST(Base, B9_CompletedFeatureWithoutFollowersScoresNobody) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.L", 1}});
  sc.turn("BA.C", 0, -1, 180);
  const FeatureInfo city = sc.state.feature(sc.state.node(0, 0));
  EXPECT_EQ(city.kind, SegmentKind::kCity);
  EXPECT_TRUE(city.complete);
  EXPECT_EQ(city.tiles, 2);
  EXPECT_TRUE(scores_are(sc, {0, 0}));
}

// ---- B10 Farmers ---------------------------------------------------------------------------------------

// Seat 0's farmer on BA.C (0,-1) rot 180 (which closes the start city) stays on the board while the city
// and later a road (start + BA.CccR (-1,0) + BA.RRR (1,0), seat 1's thief) are scored; at the end its
// farm scores 3 for the completed start city.
TEST(Base, B10_FarmersStayUntilTheEnd) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.CccR", 1}, {"BA.RRR", 1}});
  sc.turn("BA.C", 0, -1, 180, "NL");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_GE(sc.state.figure_node(0, 0), 0);
  EXPECT_EQ(sc.score(0), 0);
  sc.turn("BA.CccR", -1, 0, 270, "E");
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  // Last tile: closes the road (3 tiles) for seat 1; the game ends.
  sc.turn("BA.RRR", 1, 0, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kRoadPoints), 3);
  EXPECT_EQ(sc.score(1), 3);
  EXPECT_EQ(sc.score(0, kFieldPoints), 3);
  EXPECT_EQ(sc.score(0), 3);
}

// ---- B11 Final scoring ---------------------------------------------------------------------------------

// Final scoring of incomplete features: seat 0's thief on start + BA.RFr (1,0) (2 tiles: 2), seat 1's
// knight on start + BA.CFc+ (0,-1) rot 90 (2 tiles + 1 pennant: 3), seat 0's monk on BA.L (0,1) with
// neighbours (0,0) and (1,0) (1 + 2 = 3). The game ends after the last tile, not before.
TEST(Base, B11_FinalScoringOfIncompleteFeatures) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.CFc+", 1}, {"BA.L", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "W");
  sc.turn("BA.CFc+", 0, -1, 90, "N");
  EXPECT_FALSE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0) + sc.score(1), 0);
  sc.turn("BA.L", 0, 1, 0, "C");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.current_player(), kTerminal);
  EXPECT_EQ(sc.score(0, kRoadPoints), 2);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 3);
  EXPECT_EQ(sc.score(0), 5);
  EXPECT_EQ(sc.score(1, kCityPoints), 3);
  EXPECT_EQ(sc.score(1), 3);
}

// ---- B12 Farms -----------------------------------------------------------------------------------------

// Seat 0's farmer on BA.C (0,-1) rot 180 (closing the start city); seat 1's BA.C (0,-2) rot 0 adds an
// open city to the same farm. End: 3 for the completed city, nothing for the incomplete one.
TEST(Base, B12_ThreePerCompletedCityIncompleteCitiesDoNotCount) {
  Scenario sc(rules_with(2), {{"BA.C", 2}});
  sc.turn("BA.C", 0, -1, 180, "NL");
  sc.turn("BA.C", 0, -2, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kFieldPoints), 3);
  EXPECT_TRUE(scores_are(sc, {3, 0}));
}

// BA.CFC (0,-1) rot 0 has two separate cities and one field touching both. Its S city closes the start
// city; seat 1's knight on BA.C (0,-2) rot 180 closes the N city (4 points). Seat 0's farmer: 2 cities, 6.
TEST(Base, B12_FarmTouchingSeveralCities) {
  Scenario sc(rules_with(2), {{"BA.CFC", 1}, {"BA.C", 1}});
  sc.turn("BA.CFC", 0, -1, 0, "EL");
  sc.turn("BA.C", 0, -2, 180, "S");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kCityPoints), 4);
  EXPECT_EQ(sc.score(1), 4);
  EXPECT_EQ(sc.score(0, kFieldPoints), 6);
  EXPECT_EQ(sc.score(0), 6);
}

// The start city (closed by BA.C (0,-1) rot 180) touches two separate farms: the start's north field
// (seat 0's farmer via BA.RFr (1,0)) and BA.C's own field (seat 1's farmer). Each farm scores it: 3 each.
TEST(Base, B12_CityScoresThroughTwoDifferentFarms) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "NL");
  sc.turn("BA.C", 0, -1, 180, "NL");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {3, 3}, kFieldPoints));
  EXPECT_TRUE(scores_are(sc, {3, 3}));
}

// As above, then BA.L (1,-1) joins the two farms (tie 1-1: both score 3, the city once per farm), seat 0
// puts a second farmer in the start's south field via BA.L (0,1) (build_contested_farm), and BA.LR (-1,0)
// rot 270, whose field wraps around its road end, joins the south field to the rest: 2 farmers to 1, seat 0
// alone scores 3.
TEST(Base, B12_FarmMajority) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 1}, {"BA.L", 2}, {"BA.LR", 1}});
  testing::build_contested_farm(sc);
  const auto tied = sc.state.final_scores_if_ended_now();
  EXPECT_EQ(tied[0], 3);
  EXPECT_EQ(tied[1], 3);
  sc.turn("BA.LR", -1, 0, 270);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {3, 0}, kFieldPoints));
  EXPECT_TRUE(scores_are(sc, {3, 0}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// ---- B13 Winners ---------------------------------------------------------------------------------------

// A single winner, then a shared win: in a 3-player game seat 0 scores a 2-tile city (4), seat 1 a 3-tile
// road at the end (3) and seat 2 a cloister with 3 neighbours (1 + 3 = 4): seats 0 and 2 share the win.
TEST(Base, B13_WinnersAndTies) {
  {
    Scenario sc(rules_with(2), {{"BA.C", 1}});
    sc.turn("BA.C", 0, -1, 180, "S");
    ASSERT_TRUE(sc.state.is_terminal());
    const auto w = sc.state.winners();
    EXPECT_TRUE(w[0]);
    EXPECT_FALSE(w[1]);
  }
  Scenario sc(rules_with(3), {{"BA.C", 1}, {"BA.RFr", 2}, {"BA.L", 1}});
  sc.turn("BA.C", 0, -1, 180, "S");
  sc.turn("BA.RFr", 1, 0, 0, "E");
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("BA.RFr", -1, 0, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {4, 3, 4}));
  const auto w = sc.state.winners();
  EXPECT_TRUE(w[0]);
  EXPECT_FALSE(w[1]);
  EXPECT_TRUE(w[2]);
}

// Two-player tie (the two-farm game of B12): both win.
TEST(Base, B13_TiedGameIsSharedWin) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "NL");
  sc.turn("BA.C", 0, -1, 180, "NL");
  ASSERT_TRUE(sc.state.is_terminal());
  ASSERT_EQ(sc.score(0), sc.score(1));
  const auto w = sc.state.winners();
  EXPECT_TRUE(w[0]);
  EXPECT_TRUE(w[1]);
}

}  // namespace
}  // namespace meeple::testing
