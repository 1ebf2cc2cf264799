// Scenario tests for the cult places rules S1-S5 of docs/rules.md and the Heretics & Shrines footnotes
// [HS fn N] (seeds/001_8a4fb976ae4d096d.txt) that concern shrines alone.
//
// Board conventions: x grows east, y grows south; the start tile BA.RCr sits at (0,0) unrotated (city N,
// road W-E, field S). Rotations are clockwise. Most boards are built from three rows below the city:
//
//   y=0   RFr  start  RFr  RFr        BA.RFr: road W-E, fields N and S
//   y=1   L    [K]    [S]  S          L = BA.L cloister, S = CU.S shrine (all four edges field)
//   y=2   RFr  RFr    RFr  RFr
//         x=-1  x=0   x=1  x=2
//
// K at (0,1) is the challenged cloister, S at (1,1) the shrine next to it. The four squares they share are
// (0,0), (1,0), (0,2), (1,2); K alone needs (-1,*), S alone needs (2,*). Every expected score below is
// worked out by hand from core/data/tiles.txt and docs/rules.md. Out of scope: abbeys [HS fn 6], wagons
// [HS fn 20], and the footnotes about Cathars, the magic portal, the fairy, the dragon and the abbot.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenario.h"

namespace meeple::testing {
namespace {

using nlohmann::json;

json place_at(int x, int y, int rot) { return json{{"place", {x, y, rot}}}; }
int type_of(const char* id) { return TileCatalog::get().find(id); }

Rules cult_rules() { return rules_with(2, kCultPlaces); }
Rules cult_rules(const char* option, const char* value) {
  Rules r = rules_with(2, kCultPlaces);
  r.set_option(option, value);
  return r;
}

// The cloister or shrine feature of the tile at (x, y).
FeatureInfo building(const Scenario& sc, int x, int y) {
  const int i = sc.state.tile_at(x, y);
  if (i < 0) throw std::runtime_error("no tile at (" + std::to_string(x) + "," + std::to_string(y) + ")");
  const int seg = TileCatalog::get()[sc.state.tile(i).type].cloister;
  if (seg < 0) throw std::runtime_error("no building at (" + std::to_string(x) + "," + std::to_string(y) + ")");
  return sc.state.feature(sc.state.node(i, seg));
}
int occupants(const FeatureInfo& f) {
  int n = 0;
  for (int s : f.followers) n += s;
  return n;
}
// The tile challenging the building at (x, y), or -1.
int rival_at(const Scenario& sc, int x, int y) { return sc.state.rival(sc.state.tile_at(x, y)); }
// Both buildings are each other's rival.
void expect_challenge(const Scenario& sc, int x1, int y1, int x2, int y2) {
  EXPECT_EQ(rival_at(sc, x1, y1), sc.state.tile_at(x2, y2));
  EXPECT_EQ(rival_at(sc, x2, y2), sc.state.tile_at(x1, y1));
}
void expect_no_challenge(const Scenario& sc, int x1, int y1, int x2, int y2) {
  EXPECT_EQ(rival_at(sc, x1, y1), -1);
  EXPECT_EQ(rival_at(sc, x2, y2), -1);
}

// The deck for the K/S board above, with one spare BA.RFr so that the game never ends by itself.
const std::map<std::string, int> kPairDeck = {{"BA.L", 2}, {"CU.S", 2}, {"BA.RFr", 8}};

// Seat 0's monk on K (0,1), seat 1's heretic on S (1,1): a challenge.
void open_challenge(Scenario& sc) {
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("CU.S", 1, 1, 0, "C");
}

// K's ring but (1,2) is filled: after the 8th turn (seat 1 places BA.RFr (1,2)) K is complete, S has 5
// neighbours ((0,0), (1,0), (0,1), (0,2), (1,2)).
Scenario cloister_first_before_last_tile(const Rules& rules, const std::map<std::string, int>& deck = kPairDeck) {
  Scenario sc(rules, deck);
  open_challenge(sc);                  // 1 seat 0, 2 seat 1
  sc.turn("BA.RFr", 1, 0, 0);          // 3 seat 0
  sc.turn("BA.RFr", -1, 0, 0);         // 4 seat 1
  sc.turn("BA.L", -1, 1, 0);           // 5 seat 0
  sc.turn("BA.RFr", 0, 2, 0);          // 6 seat 1
  sc.turn("BA.RFr", -1, 2, 0);         // 7 seat 0
  return sc;
}

// S's ring but (2,2): after the 8th turn (seat 1 places BA.RFr (2,2)) S is complete, K has 5 neighbours
// ((0,0), (1,0), (1,1), (0,2), (1,2)).
Scenario shrine_first_before_last_tile(const Rules& rules) {
  Scenario sc(rules, kPairDeck);
  open_challenge(sc);                  // 1 seat 0, 2 seat 1
  sc.turn("BA.RFr", 1, 0, 0);          // 3 seat 0
  sc.turn("BA.RFr", 2, 0, 0);          // 4 seat 1
  sc.turn("CU.S", 2, 1, 0);            // 5 seat 0: a shrine next to a shrine, no cloister near
  sc.turn("BA.RFr", 0, 2, 0);          // 6 seat 1
  sc.turn("BA.RFr", 1, 2, 0);          // 7 seat 0
  return sc;
}

// Both rings but the shared square (1,2): seat 0 fills it on turn 11 and completes K and S together.
Scenario both_before_last_tile(const Rules& rules) {
  Scenario sc(rules, kPairDeck);
  open_challenge(sc);                  // 1 seat 0, 2 seat 1
  sc.turn("BA.RFr", 1, 0, 0);          // 3 seat 0
  sc.turn("BA.RFr", -1, 0, 0);         // 4 seat 1
  sc.turn("BA.RFr", 2, 0, 0);          // 5 seat 0
  sc.turn("BA.L", -1, 1, 0);           // 6 seat 1
  sc.turn("CU.S", 2, 1, 0);            // 7 seat 0
  sc.turn("BA.RFr", -1, 2, 0);         // 8 seat 1
  sc.turn("BA.RFr", 0, 2, 0);          // 9 seat 0
  sc.turn("BA.RFr", 2, 2, 0);          // 10 seat 1
  return sc;
}

// ---- S1 A shrine is scored like a cloister ---------------------------------------------------------------

// Seat 0's heretic on CU.S (0,1); the ring around it: start, BA.RFr (±1,0), CU.S (±1,1) (shrines may
// neighbour shrines), BA.RFr (-1..1,2). Seat 1 places the 8th neighbour: seat 0 scores 9, follower back.
TEST(Cult, S1_ShrineScoresLikeCloister) {
  Scenario sc(cult_rules(), {{"CU.S", 3}, {"BA.RFr", 6}});
  sc.turn("CU.S", 0, 1, 0, "C");
  EXPECT_EQ(building(sc, 0, 1).kind, SegmentKind::kShrine);
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("CU.S", 1, 1, 0);
  sc.turn("CU.S", -1, 1, 0);
  sc.turn("BA.RFr", -1, 2, 0);
  sc.turn("BA.RFr", 0, 2, 0);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_FALSE(building(sc, 0, 1).complete);
  sc.turn("BA.RFr", 1, 2, 0);
  EXPECT_TRUE(building(sc, 0, 1).complete);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_TRUE(scores_are(sc, {9, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(occupants(building(sc, 0, 1)), 0);
  EXPECT_FALSE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// Exact deck. Heretics: seat 0 on CU.S (0,1), seat 1 on CU.S (1,1); then BA.RFr (1,0), (2,0); game over.
// (0,1) has (0,0), (1,0), (1,1): 1 + 3 = 4. (1,1) has (0,0), (1,0), (2,0), (0,1): 1 + 4 = 5.
// Two shrines next to each other never challenge.
TEST(Cult, S1_IncompleteShrineScoresOnePlusNeighboursAtEnd) {
  Scenario sc(cult_rules(), {{"CU.S", 2}, {"BA.RFr", 2}});
  sc.turn("CU.S", 0, 1, 0, "C");
  sc.turn("CU.S", 1, 1, 0, "C");
  expect_no_challenge(sc, 0, 1, 1, 1);
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", 2, 0, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {4, 5}, kCloisterPoints));
  EXPECT_TRUE(scores_are(sc, {4, 5}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// ---- S2 Placement [HS fn 2-4] ----------------------------------------------------------------------------

//   y=0   RFr       start      RFr
//   y=1   BA.C(180) (0,1)?     BA.C(180)     city S, fields N E W
//   y=2   KR.LC     (0,2)?     KR.LC         cloisters, city N (closing the BA.C cities)
//         x=-1      x=0        x=1
// A shrine at (0,1) would touch both cloisters diagonally, at (0,2) orthogonally: both refused although
// every edge matches. One cloister neighbour is fine: (-2,2) (orthogonal) and (-2,1) (diagonal).
TEST(Cult, S2_HS_fn2_ShrineNextToTwoCloistersRejected) {
  Scenario sc(cult_rules(), {{"BA.RFr", 3}, {"BA.C", 2}, {"KR.LC", 2}, {"CU.S", 1}, {"BA.L", 1}, {"CU.SR", 1}});
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.C", -1, 1, 180);
  sc.turn("BA.C", 1, 1, 180);
  sc.turn("KR.LC", -1, 2, 0);
  sc.turn("KR.LC", 1, 2, 0);
  sc.draw("CU.S");
  for (int rot : {0, 90, 180, 270}) {
    EXPECT_FALSE(sc.legal(place_at(0, 1, rot))) << rot;  // two diagonal cloisters
    EXPECT_FALSE(sc.legal(place_at(0, 2, rot))) << rot;  // two orthogonal cloisters
  }
  EXPECT_TRUE(sc.legal(place_at(-2, 2, 0)));  // one orthogonal cloister
  EXPECT_TRUE(sc.legal(place_at(-2, 1, 0)));  // one diagonal cloister
  sc.place(-2, 1, 0);
  sc.deploy("");
  // Control: a cloister may go to (0,1): cloisters may neighbour any number of cloisters.
  sc.draw("BA.L");
  EXPECT_TRUE(sc.legal(place_at(0, 1, 0)));
  sc.place(0, 1, 0);
  sc.deploy("");
  // [HS fn 3] CU.SR (road S) at (-2,2): only one cloister, KR.LC (-1,2), next to it, but that cloister
  // already has the shrine (-2,1) diagonally: it would neighbour two shrines.
  sc.draw("CU.SR");
  EXPECT_FALSE(sc.legal(place_at(-2, 2, 0)));
  EXPECT_TRUE(sc.legal(place_at(2, 2, 0)));  // next to KR.LC (1,2) only, which has no shrine yet
  sc.place(2, 2, 0);
  sc.deploy("");
  EXPECT_EQ(sc.state.num_tiles(), 10);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The mirror image: CU.SC (shrine, city N) at (-1,2) and (1,2). A cloister at (0,1) (diagonal to both) or
// (0,2) (orthogonal to both) is refused; (-2,1) and (-2,2) touch one shrine and are fine. Then BA.LR
// (road S) at (0,1) is refused too; at (-2,2) it would leave the shrine (-1,2) next to BA.L (-2,1) and to
// itself [HS fn 3, 4]: refused.
TEST(Cult, S2_HS_fn2_CloisterNextToTwoShrinesRejected) {
  Scenario sc(cult_rules(), {{"BA.RFr", 3}, {"BA.C", 2}, {"CU.SC", 2}, {"BA.L", 1}, {"BA.LR", 1}});
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.C", -1, 1, 180);
  sc.turn("BA.C", 1, 1, 180);
  sc.turn("CU.SC", -1, 2, 0);
  sc.turn("CU.SC", 1, 2, 0);
  sc.draw("BA.L");
  EXPECT_FALSE(sc.legal(place_at(0, 1, 0)));
  EXPECT_FALSE(sc.legal(place_at(0, 2, 0)));
  EXPECT_TRUE(sc.legal(place_at(-2, 1, 0)));
  EXPECT_TRUE(sc.legal(place_at(-2, 2, 0)));
  sc.place(-2, 1, 0);
  sc.deploy("");
  sc.draw("BA.LR");
  EXPECT_FALSE(sc.legal(place_at(0, 1, 0)));   // the only rotation whose edges fit there
  EXPECT_FALSE(sc.legal(place_at(-2, 2, 0)));  // edges fit (N field, E field, road S to nothing)
  EXPECT_TRUE(sc.legal(place_at(2, 2, 0)));    // next to CU.SC (1,2) only, which has no cloister yet
  sc.place(2, 2, 0);
  sc.deploy("");
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [HS fn 3] BA.L (0,1), CU.S (-1,1): the cloister has one shrine. Another shrine at (1,1) would touch
// only that one cloister, yet leave the cloister next to two shrines: refused. So are (0,2) and (-1,2)
// (the latter diagonal to the cloister). A shrine next to shrines only, (-2,1), is fine.
TEST(Cult, S2_HS_fn3_ShrineMayNotLeaveCloisterNextToTwoShrines) {
  Scenario sc(cult_rules(), {{"BA.L", 1}, {"CU.S", 2}, {"BA.RFr", 1}});
  sc.turn("BA.L", 0, 1, 0);
  sc.draw("CU.S");
  EXPECT_TRUE(sc.legal(place_at(-1, 1, 0)));  // one cloister neighbour is fine
  sc.place(-1, 1, 0);
  sc.deploy("");
  sc.draw("CU.S");
  EXPECT_FALSE(sc.legal(place_at(1, 1, 0)));
  EXPECT_FALSE(sc.legal(place_at(0, 2, 0)));
  EXPECT_FALSE(sc.legal(place_at(-1, 2, 0)));
  EXPECT_TRUE(sc.legal(place_at(-2, 1, 0)));
  sc.place(-2, 1, 0);
  sc.deploy("");
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The reverse: CU.S (0,1), BA.L (-1,1). Another cloister at (1,1), (0,2) or (-1,2) would leave the shrine
// next to two cloisters: refused. A cloister next to cloisters only, (-2,1), is fine.
TEST(Cult, S2_CloisterMayNotLeaveShrineNextToTwoCloisters) {
  Scenario sc(cult_rules(), {{"CU.S", 1}, {"BA.L", 2}, {"BA.RFr", 1}});
  sc.turn("CU.S", 0, 1, 0);
  sc.draw("BA.L");
  EXPECT_TRUE(sc.legal(place_at(-1, 1, 0)));
  sc.place(-1, 1, 0);
  sc.deploy("");
  sc.draw("BA.L");
  EXPECT_FALSE(sc.legal(place_at(1, 1, 0)));
  EXPECT_FALSE(sc.legal(place_at(0, 2, 0)));
  EXPECT_FALSE(sc.legal(place_at(-1, 2, 0)));
  EXPECT_TRUE(sc.legal(place_at(-2, 1, 0)));
  sc.place(-2, 1, 0);
  sc.deploy("");
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// ---- S3 Challenges [HS fn 7, 9, 10, 13] ------------------------------------------------------------------

// Seat 0's monk on K (0,1); seat 1 places CU.S (1,1) with a heretic: challenge. And diagonally: monk on
// BA.L (0,1), BA.RFr (0,2), BA.RFr (-1,0), then CU.SR (1,2) rot 90 (road W to (0,2)) with a heretic.
TEST(Cult, S3_HereticNextToOccupiedCloisterChallenges) {
  {
    Scenario sc(cult_rules(), kPairDeck);
    sc.turn("BA.L", 0, 1, 0, "C");
    EXPECT_EQ(rival_at(sc, 0, 1), -1);
    sc.turn("CU.S", 1, 1, 0, "C");
    expect_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(building(sc, 0, 1).followers[0], 1);
    EXPECT_EQ(building(sc, 1, 1).followers[1], 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc(cult_rules(), {{"BA.L", 1}, {"CU.SR", 1}, {"BA.RFr", 3}});
    sc.turn("BA.L", 0, 1, 0, "C");
    sc.turn("BA.RFr", 0, 2, 0);
    sc.turn("BA.RFr", -1, 0, 0);
    sc.turn("CU.SR", 1, 2, 90, "C");
    expect_challenge(sc, 0, 1, 1, 2);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [HS fn 9] Seat 0's heretic on CU.S (0,1); seat 1 places BA.L (1,1) with a monk: the monk challenges.
TEST(Cult, S3_HS_fn9_MonkNextToOccupiedShrineChallenges) {
  Scenario sc(cult_rules(), kPairDeck);
  sc.turn("CU.S", 0, 1, 0, "C");
  sc.turn("BA.L", 1, 1, 0, "C");
  expect_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// No challenge against an unoccupied neighbour: BA.L (0,1) empty, seat 1's heretic on CU.S (1,1). When K
// is completed (unoccupied, nobody scores) the heretic stays. The reverse (empty shrine, monk) too.
TEST(Cult, S3_UnoccupiedNeighbourNoChallenge) {
  {
    Scenario sc(cult_rules(), kPairDeck);
    sc.turn("BA.L", 0, 1, 0);
    sc.turn("CU.S", 1, 1, 0, "C");
    expect_no_challenge(sc, 0, 1, 1, 1);
    sc.turn("BA.RFr", 1, 0, 0);
    sc.turn("BA.RFr", -1, 0, 0);
    sc.turn("BA.L", -1, 1, 0);
    sc.turn("BA.RFr", -1, 2, 0);
    sc.turn("BA.RFr", 0, 2, 0);
    sc.turn("BA.RFr", 1, 2, 0);  // K complete, empty
    EXPECT_TRUE(building(sc, 0, 1).complete);
    EXPECT_TRUE(scores_are(sc, {0, 0}));
    EXPECT_EQ(sc.state.followers_in_supply(1), 6);
    EXPECT_EQ(building(sc, 1, 1).followers[1], 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc(cult_rules(), kPairDeck);
    sc.turn("CU.S", 0, 1, 0);
    sc.turn("BA.L", 1, 1, 0, "C");
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// Seat 0: monk on BA.L (0,1); seat 1: BA.RFr (1,0); seat 0: own heretic on CU.S (1,1). Then K's ring is
// closed (BA.RFr (-1,0), BA.L (-1,1), BA.RFr (-1,2), (0,2), (1,2) by seat 1 last).
void own_followers_game(Scenario& sc) {
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("CU.S", 1, 1, 0, "C");
}
void close_own_cloister(Scenario& sc) {
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.L", -1, 1, 0);
  sc.turn("BA.RFr", -1, 2, 0);
  sc.turn("BA.RFr", 0, 2, 0);
  sc.turn("BA.RFr", 1, 2, 0);
}

// [HS fn 10] challenge_own=on (default): the own heretic challenges the own monk. The cloister is completed
// first: 9 for seat 0, and its heretic returns with nothing (7 followers in supply).
TEST(Cult, S3_HS_fn10_OwnFollowersChallengeByDefault) {
  Scenario sc(cult_rules(), kPairDeck);
  own_followers_game(sc);
  expect_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.followers_in_supply(0), 5);
  close_own_cloister(sc);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(0), 9);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(occupants(building(sc, 1, 1)), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// challenge_own=off: no challenge between own followers; the cloister scores 9 and the heretic stays.
// Another player's follower still challenges.
TEST(Cult, S3_HS_fn10_ChallengeOwnOffNoOwnChallenge) {
  {
    Scenario sc(cult_rules("challenge_own", "off"), kPairDeck);
    own_followers_game(sc);
    expect_no_challenge(sc, 0, 1, 1, 1);
    close_own_cloister(sc);
    EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
    EXPECT_EQ(sc.state.followers_in_supply(0), 6);
    EXPECT_EQ(building(sc, 1, 1).followers[0], 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc(cult_rules("challenge_own", "off"), kPairDeck);
    open_challenge(sc);
    expect_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [HS fn 13] A follower on the road or field of a shrine tile is no heretic. Seat 0's monk on K (0,1);
// seat 1 puts a thief on the road of CU.SR (1,1) rot 270 (road E). No challenge; K is closed (as in the
// pair board, CU.SR in S's place) and scores 9; the thief stays. Second game: a farmer on CU.S (1,1).
TEST(Cult, S3_HS_fn13_FollowerOnRoadOrFieldOfShrineTileNoChallenge) {
  {
    Scenario sc(cult_rules(), {{"BA.L", 2}, {"CU.SR", 1}, {"BA.RFr", 6}});
    sc.turn("BA.L", 0, 1, 0, "C");
    sc.turn("CU.SR", 1, 1, 270, "E");
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(occupants(building(sc, 1, 1)), 0);
    EXPECT_EQ(sc.state.followers_in_supply(1), 6);
    sc.turn("BA.RFr", 1, 0, 0);
    sc.turn("BA.RFr", -1, 0, 0);
    sc.turn("BA.L", -1, 1, 0);
    sc.turn("BA.RFr", -1, 2, 0);
    sc.turn("BA.RFr", 0, 2, 0);
    sc.turn("BA.RFr", 1, 2, 0);
    EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(1), 0);
    EXPECT_EQ(sc.state.followers_in_supply(0), 7);
    EXPECT_EQ(sc.state.followers_in_supply(1), 6);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc(cult_rules(), kPairDeck);
    sc.turn("BA.L", 0, 1, 0, "C");
    sc.turn("CU.S", 1, 1, 0, "NL");
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.followers_in_supply(1), 6);
    EXPECT_EQ(occupants(building(sc, 1, 1)), 0);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// ---- S4 Resolving a challenge [HS fn 14-18, 21] ----------------------------------------------------------

// [HS fn 16-18] Monk (seat 0) on K, heretic (seat 1) on S. Seat 1 itself places the tile that completes
// K ((1,2)): the monk scores 9, the heretic returns with 0 points. Both followers are back in supply, the
// challenge is over, S is left incomplete (5 neighbours) and empty.
TEST(Cult, S4_HS_fn16_fn18_CloisterCompletedFirstWins) {
  Scenario sc = cloister_first_before_last_tile(cult_rules());
  expect_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  ASSERT_EQ(sc.state.turn_player(), 1);
  sc.turn("BA.RFr", 1, 2, 0);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_TRUE(scores_are(sc, {9, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  expect_no_challenge(sc, 0, 1, 1, 1);
  const FeatureInfo s = building(sc, 1, 1);
  EXPECT_FALSE(s.complete);
  EXPECT_EQ(occupants(s), 0);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(1, 1)).around, 5);
  EXPECT_FALSE(sc.state.is_terminal());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [HS fn 16, 17] The shrine is completed first ((2,2), placed by seat 1): the heretic scores 9, the monk
// returns with 0; K stays incomplete (5 neighbours) and empty.
TEST(Cult, S4_HS_fn16_fn17_ShrineCompletedFirstWins) {
  Scenario sc = shrine_first_before_last_tile(cult_rules());
  expect_challenge(sc, 0, 1, 1, 1);
  sc.turn("BA.RFr", 2, 2, 0);
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(1), 9);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_FALSE(building(sc, 0, 1).complete);
  EXPECT_EQ(occupants(building(sc, 0, 1)), 0);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 1)).around, 5);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [HS fn 14] BA.RFr (1,2), placed by seat 0, is the 8th neighbour of both K and S: nobody completed first,
// both score 9.
TEST(Cult, S4_HS_fn14_CompletedBySameTileBothScore) {
  Scenario sc = both_before_last_tile(cult_rules());
  expect_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 1)).around, 7);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(1, 1)).around, 7);
  ASSERT_EQ(sc.state.turn_player(), 0);
  sc.turn("BA.RFr", 1, 2, 0);
  EXPECT_TRUE(scores_are(sc, {9, 9}, kCloisterPoints));
  EXPECT_TRUE(scores_are(sc, {9, 9}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// Exact deck: monk on K (0,1), heretic on S (1,1), BA.RFr (1,0), (2,0); game over with the challenge
// open. Both score as incomplete cloisters: K has (0,0), (1,0), (1,1): 4; S has (0,0), (1,0), (2,0),
// (0,1): 5. The house rule changes nothing here.
TEST(Cult, S4_UnresolvedAtEndBothScoreAsIncomplete) {
  for (const char* house : {"off", "winner_takes_both"}) {
    SCOPED_TRACE(house);
    Scenario sc(cult_rules("shrine_house_rule", house), {{"BA.L", 1}, {"CU.S", 1}, {"BA.RFr", 2}});
    open_challenge(sc);
    sc.turn("BA.RFr", 1, 0, 0);
    expect_challenge(sc, 0, 1, 1, 1);
    EXPECT_FALSE(sc.state.is_terminal());
    sc.turn("BA.RFr", 2, 0, 0);
    ASSERT_TRUE(sc.state.is_terminal());
    EXPECT_TRUE(scores_are(sc, {4, 5}, kCloisterPoints));
    EXPECT_TRUE(scores_are(sc, {4, 5}));
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [HS fn 21] Both followers return when the challenge is resolved, so the loser's building stays empty:
// the cloister-first game with an exact deck ends on the resolving tile, and final scoring gives the
// empty, incomplete shrine to nobody. Final scores 9 : 0.
TEST(Cult, S4_HS_fn21_LoserBuildingStaysEmptyAndScoresNothingAtEnd) {
  Scenario sc = cloister_first_before_last_tile(cult_rules(), {{"BA.L", 2}, {"CU.S", 1}, {"BA.RFr", 5}});
  expect_challenge(sc, 0, 1, 1, 1);
  sc.turn("BA.RFr", 1, 2, 0);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(occupants(building(sc, 1, 1)), 0);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_TRUE(scores_are(sc, {9, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// Seat 0's monk on K (0,1); S's ring is built first (BA.RFr (1,0), (2,0), CU.S (2,1), BA.RFr (0,2),
// (1,2), (2,2)); then seat 1 drops CU.S with a heretic into the hole (1,1). The challenge is laid when the
// heretic is deployed (turn step 3) and the shrine is already complete when buildings are scored (step
// 5): it is completed first, scores 9, and the monk returns with nothing (S3, S4, section 8).
TEST(Cult, S4_ShrineCompletedByItsOwnPlacementWinsAtOnce) {
  Scenario sc(cult_rules(), {{"BA.L", 1}, {"CU.S", 2}, {"BA.RFr", 6}});
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", 2, 0, 0);
  sc.turn("CU.S", 2, 1, 0);
  sc.turn("BA.RFr", 0, 2, 0);
  sc.turn("BA.RFr", 1, 2, 0);
  sc.turn("BA.RFr", 2, 2, 0);
  ASSERT_EQ(sc.state.turn_player(), 1);
  sc.turn("CU.S", 1, 1, 0, "C");
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_FALSE(building(sc, 0, 1).complete);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [HS fn 15] A building completed by the very tile placed is complete before any follower is deployed,
// so it cannot be challenged: K's ring is closed by CU.S (1,1) itself, with seat 1's heretic on it.
// The monk scores 9, the heretic stays on its (incomplete) shrine.
TEST(Cult, S4_HS_fn15_NeighbourCompletedByThePlacementIsNotChallenged) {
  Scenario sc(cult_rules(), {{"BA.L", 2}, {"CU.S", 1}, {"BA.RFr", 6}});
  sc.turn("BA.L", 0, 1, 0, "C");
  sc.turn("BA.RFr", 1, 0, 0);
  sc.turn("BA.RFr", -1, 0, 0);
  sc.turn("BA.L", -1, 1, 0);
  sc.turn("BA.RFr", -1, 2, 0);
  sc.turn("BA.RFr", 0, 2, 0);
  sc.turn("BA.RFr", 1, 2, 0);
  ASSERT_EQ(sc.state.turn_player(), 1);
  sc.turn("CU.S", 1, 1, 0, "C");
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 6);
  EXPECT_EQ(building(sc, 1, 1).followers[1], 1);
  expect_no_challenge(sc, 0, 1, 1, 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// ---- House rule shrine_house_rule=winner_takes_both ------------------------------------------------------

// The winner also scores the loser's building as an incomplete cloister (kBonusPoints). Shrine first:
// K has 5 neighbours, so the heretic's owner gets 9 + (1 + 5) = 15. Cloister first: S has 5 neighbours,
// the monk's owner gets 9 + 6 = 15. The loser gets nothing.
TEST(Cult, HouseRule_WinnerTakesBoth) {
  const Rules r = cult_rules("shrine_house_rule", "winner_takes_both");
  {
    Scenario sc = shrine_first_before_last_tile(r);
    sc.turn("BA.RFr", 2, 2, 0);
    EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(1, kBonusPoints), 6);
    EXPECT_EQ(sc.score(1), 15);
    EXPECT_EQ(sc.score(0), 0);
    EXPECT_EQ(sc.state.followers_in_supply(0), 7);
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc = cloister_first_before_last_tile(r);
    sc.turn("BA.RFr", 1, 2, 0);
    EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(0, kBonusPoints), 6);
    EXPECT_TRUE(scores_are(sc, {15, 0}));
    EXPECT_EQ(sc.state.followers_in_supply(0), 7);
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    expect_no_challenge(sc, 0, 1, 1, 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// Never 18: when one tile completes both buildings there is no winner, each scores its own 9, no bonus.
TEST(Cult, HouseRule_SameTileCompletionNeverEighteen) {
  Scenario sc = both_before_last_tile(cult_rules("shrine_house_rule", "winner_takes_both"));
  sc.turn("BA.RFr", 1, 2, 0);
  EXPECT_TRUE(scores_are(sc, {9, 9}, kCloisterPoints));
  EXPECT_TRUE(scores_are(sc, {0, 0}, kBonusPoints));
  EXPECT_TRUE(scores_are(sc, {9, 9}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The default (off): the winner gets its 9 only.
TEST(Cult, HouseRule_OffByDefault) {
  Scenario sc = shrine_first_before_last_tile(cult_rules());
  sc.turn("BA.RFr", 2, 2, 0);
  EXPECT_EQ(sc.score(1, kBonusPoints), 0);
  EXPECT_EQ(sc.score(1), 9);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// ---- S5 Tile sets ----------------------------------------------------------------------------------------

struct ShrineCounts {
  int s, sc, sr, scfr, srfr, srcr;
};
void expect_shrines(const State& st, const ShrineCounts& n) {
  EXPECT_EQ(st.remaining(type_of("CU.S")), n.s);
  EXPECT_EQ(st.remaining(type_of("CU.SC")), n.sc);
  EXPECT_EQ(st.remaining(type_of("CU.SR")), n.sr);
  EXPECT_EQ(st.remaining(type_of("CU.SCFR")), n.scfr);
  EXPECT_EQ(st.remaining(type_of("CU.SRFR")), n.srfr);
  EXPECT_EQ(st.remaining(type_of("CU.SRCR")), n.srcr);
  ChanceOutcomes out;
  st.chance_outcomes(out);
  EXPECT_EQ(out.total, st.tiles_left());
  EXPECT_EQ(st.check_consistency(), "");
}

// Default shrine_sets=ckr: the 5 shrine tiles of Count, King & Robber join the 71 base tiles.
TEST(Cult, S5_ShrineSetCkrByDefault) {
  const State st(cult_rules());
  EXPECT_EQ(st.tiles_left(), 71 + 5);
  expect_shrines(st, {1, 1, 1, 1, 1, 0});
  Rules r = cult_rules();
  r.set_option("shrine_sets", "ckr");
  EXPECT_TRUE(r == cult_rules());
}

// Cult, Siege & Creativity: 6 tiles, CU.SRCR included.
TEST(Cult, S5_ShrineSetCsc) {
  const State st(cult_rules("shrine_sets", "csc"));
  EXPECT_EQ(st.tiles_left(), 71 + 6);
  expect_shrines(st, {1, 1, 1, 1, 1, 1});
}

// ckr + spielbox: both sets of 5, 10 shrine tiles.
TEST(Cult, S5_ShrineSetsCkrAndSpielbox) {
  Rules r = cult_rules();
  r.set_option("shrine_sets", std::vector<std::string>{"ckr", "spielbox"});
  const State st(r);
  EXPECT_EQ(st.tiles_left(), 71 + 10);
  expect_shrines(st, {2, 2, 2, 2, 2, 0});
  const State spielbox(cult_rules("shrine_sets", "spielbox"));
  EXPECT_EQ(spielbox.tiles_left(), 71 + 5);
  expect_shrines(spielbox, {1, 1, 1, 1, 1, 0});
}

// Without the expansion no shrine is in the pile, whatever shrine_sets says.
TEST(Cult, S5_NoShrinesWithoutTheExpansion) {
  Rules r = rules_with(2);
  r.set_option("shrine_sets", "csc");
  const State st(r);
  EXPECT_EQ(st.tiles_left(), 71);
  expect_shrines(st, {0, 0, 0, 0, 0, 0});
}

}  // namespace
}  // namespace meeple::testing
