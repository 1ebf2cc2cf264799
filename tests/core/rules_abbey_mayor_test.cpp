// Scenario tests for Abbey & Mayor, A1-A4 and M1, W1-W4, F1-F5 of docs/rules.md, and the Abbey & Mayor footnotes
// [AM fn N] of seeds/003_949dc0877cea91ee.txt (numbered in order of appearance), plus the seed's three English
// wagon-move examples.
//
// Board conventions: x grows east, y grows south; the start tile BA.RCr sits at (0,0) unrotated (city N, road
// W-E, field S). Rotations are clockwise. Seats alternate 0, 1, ... one turn each; an abbey placement is a
// turn. With Abbey & Mayor a turn starts in kTurnStart when the player still holds an abbey and an enclosed
// empty square exists: play() below then chooses to draw (Action::pass()) unless the test places the abbey.
// Every expected score is worked out by hand from core/data/tiles.txt and docs/rules.md.
//
// Footnotes covered, by test name: 1-3, 6-9, 11, 12, 15, 18-20, 25-27, 29, 30, 33-36, 38-41, 43, 45, 47, 48,
// 50, 52-54, 56-58. Some need a second expansion, which the engine plays together with Abbey & Mayor: fn 7 and
// 12 (abbeys and shrines) and W4 need Cult places; fn 43, 57, 58 the River II (the volcano and the pig herd are
// river tiles); fn 41, 48, 50, 54 the Count of Carcassonne (the barn and the City).
// Not covered:
//   fn 37  (wagon between a city and a cloister inside it): no tile of the implemented sets has a cloister
//          inside a city (KR.LC's cloister stands in its field, and JCZ gives it no wagon link); the other
//          "shared surface" case, the abbey, is fn 36.
//   fn 4, 5, 10, 13, 14, 16, 17, 21-24, 28, 31, 32, 42, 44, 46, 49, 51, 55: other expansions (tunnel,
//          builder, trade goods, siege, flier, magic portal, dragon, tower, princess, castles, fairy, feast,
//          pigs) or editorial remarks, not in the list asked for.
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "scenario.h"

namespace meeple::testing {
namespace {

using nlohmann::json;

Rules am_rules(int players, uint8_t more = 0) { return rules_with(players, static_cast<uint8_t>(kAbbeyMayor | more)); }

json deploy_of(const std::string& figure, const std::string& at) {
  return json{{"deploy", {{"figure", figure}, {"at", at}}}};
}
json no_deploy() { return json{{"deploy", nullptr}}; }
json abbey_at(int x, int y) { return json{{"abbey", {x, y}}}; }
json no_abbey() { return json{{"abbey", nullptr}}; }
json wagon_to(int x, int y, const std::string& at) { return json{{"wagon", {x, y, at}}}; }
json wagon_back() { return json{{"wagon", nullptr}}; }

// One turn: if offered the abbey (kTurnStart), draw instead; then draw `tile`, place it, and deploy `figure`
// at `at` (nothing when `at` is empty).
void play(Scenario& sc, const std::string& tile, int x, int y, int rot, const std::string& at = "",
          const std::string& figure = "follower") {
  if (sc.state.phase() == Phase::kTurnStart) sc.state.apply(Action::pass());
  sc.draw(tile);
  sc.place(x, y, rot);
  const int last = sc.state.last_tile();
  if (sc.state.phase() == Phase::kDeploy && last >= 0 && sc.state.tile(last).x == x && sc.state.tile(last).y == y) {
    sc.apply(at.empty() ? no_deploy() : deploy_of(figure, at));
  } else if (!at.empty()) {
    throw std::runtime_error("cannot deploy at " + at + ": the engine skipped the deploy decision");
  }
}

// The abbey, then a figure on it (or nothing).
void place_abbey(Scenario& sc, int x, int y, const std::string& at = "", const std::string& figure = "follower") {
  sc.apply(abbey_at(x, y));
  if (sc.state.phase() == Phase::kDeploy) sc.apply(at.empty() ? no_deploy() : deploy_of(figure, at));
}

// Declines every abbey of the end round.
void decline_abbey_round(Scenario& sc) {
  while (sc.state.phase() == Phase::kAbbeyRound) sc.apply(no_abbey());
}

// The feature (root node) at a location of the tile at (x, y): an edge N E S W, a half-edge NL ... WR, or C.
int root_at(const State& s, int x, int y, const std::string& at) {
  const int idx = s.tile_at(x, y);
  if (idx < 0) throw std::invalid_argument("no tile at (" + std::to_string(x) + "," + std::to_string(y) + ")");
  const PlacedTile& pt = s.tile(idx);
  const TileType& tt = TileCatalog::get()[pt.type];
  int seg = kNoSegment;
  if (at == "C") {
    seg = tt.cloister < 0 ? kNoSegment : tt.cloister;
  } else if (const int e = parse_edge(at); e >= 0) {
    seg = tt.rot[pt.rotation].edge_segment[e];
  } else if (const int h = parse_half(at); h >= 0) {
    seg = tt.rot[pt.rotation].half_segment[h];
  }
  if (seg == kNoSegment) throw std::invalid_argument("no feature at " + at + " of (" + std::to_string(x) + "," + std::to_string(y) + ")");
  return s.feature_root(s.node(idx, seg));
}
FeatureInfo feature_at(const State& s, int x, int y, const std::string& at) { return s.feature(root_at(s, x, y, at)); }

// Where the wagon may go now (kWagonMove): root nodes.
std::set<int> wagon_targets(const State& s) {
  ActionList list;
  s.legal_actions(list);
  std::set<int> out;
  for (const Action& a : list)
    if (a.kind() == Action::kWagon) out.insert(a.node());
  return out;
}

// Deploy choices now, as "figure@location" strings (record names).
std::set<std::string> deploy_options(const State& s) {
  ActionList list;
  s.legal_actions(list);
  std::set<std::string> out;
  for (const Action& a : list) {
    if (a.kind() != Action::kDeploy) continue;
    const json j = action_to_json(s, a);
    out.insert(j["deploy"]["figure"].get<std::string>() + "@" + j["deploy"]["at"].get<std::string>());
  }
  return out;
}
bool any_barn(const State& s) {
  for (const std::string& d : deploy_options(s))
    if (d.rfind("barn@", 0) == 0) return true;
  return false;
}

std::set<std::pair<int, int>> abbey_squares(const State& s) {
  ActionList list;
  s.legal_actions(list);
  std::set<std::pair<int, int>> out;
  for (const Action& a : list)
    if (a.kind() == Action::kAbbey) out.insert({a.x(), a.y()});
  return out;
}

int abbeys_on_board(const State& s) {
  int n = 0;
  for (int i = 0; i < s.num_tiles(); ++i) n += TileCatalog::get()[s.tile(i).type].has(kFlagAbbey);
  return n;
}

// =============================================================================================================
// Abbey (A1-A4)
// =============================================================================================================

// The hole board. The hole (0,1) gets its four sides one by one, each of a different kind:
//
//   y=0   RFr(-1,0)    start        .            N side: the start's field
//   y=1   C(90) city E [hole]       RFr road W-E  W side: a 1-tile city; E side: a road to LR(2,1) (road W
//   y=2   L            CFc(90)      L                                    ending at its cloister)
//   y=3                C city N                  S side: the 2-tile city CFc(90) + C
//         x=-1         x=0          x=1   x=2
//
// Seat 1 has knights in both cities, seat 0 a thief on the road. After turn 7 the hole is enclosed (the
// diagonal (1,0) stays empty). Turn 8 (seat 1) draws instead and places LR (2,1). Turn 9: seat 0's turn
// starts in kTurnStart.
Scenario hole_board() {
  Scenario sc(am_rules(2), {{"BA.RFr", 3}, {"BA.C", 2}, {"BA.L", 3}, {"BA.CFc", 1}, {"BA.LR", 1}});
  play(sc, "BA.RFr", -1, 0, 0);       // 1 s0
  play(sc, "BA.C", -1, 1, 90, "E");   // 2 s1 knight
  play(sc, "BA.L", -1, 2, 0);         // 3 s0
  play(sc, "BA.CFc", 0, 2, 90, "N");  // 4 s1 knight
  play(sc, "BA.C", 0, 3, 0);          // 5 s0
  play(sc, "BA.L", 1, 2, 0);          // 6 s1
  // Until now no square was enclosed: the player holding an abbey was never asked (A1).
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_TRUE(sc.state.has_abbey(0));
  play(sc, "BA.RFr", 1, 1, 0, "E");   // 7 s0 thief
  EXPECT_EQ(sc.state.phase(), Phase::kTurnStart);
  EXPECT_EQ(sc.state.current_player(), 1);
  play(sc, "BA.LR", 2, 1, 90);        // 8 s1: draws instead of placing the abbey
  return sc;
}

// A1, [AM fn 6]: the abbey goes only on an empty square with tiles on all four orthogonal sides (diagonals do
// not matter: (1,0) is empty), whatever those sides show (field, city, road, city). (1,0) itself has only
// two sides. The choice is offered at the start of the turn instead of the draw; the holder of an abbey with
// no such square draws as usual (turns 1-7; and seat 1 on turn 10 after the hole was filled).
TEST(AbbeyMayor, AM_A1_fn6_AbbeyOnlyInEnclosedSquareWhateverItsSides) {
  Scenario sc = hole_board();
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.state.tile_at(1, 0), -1);  // a diagonal of the hole is empty
  EXPECT_EQ(abbey_squares(sc.state), (std::set<std::pair<int, int>>{{0, 1}}));
  EXPECT_FALSE(sc.legal(abbey_at(1, 0)));
  EXPECT_FALSE(sc.legal(abbey_at(3, 1)));
  ActionList list;
  sc.state.legal_actions(list);
  EXPECT_EQ(list.size, 2);  // draw instead (pass), or the abbey at (0,1)
  EXPECT_TRUE(list.contains(Action::pass()));
  // A draw is not possible before choosing: {"draw": ...} in kTurnStart only stands for "draw instead".
  EXPECT_FALSE(sc.state.is_legal(Action::draw(TileCatalog::get().find("BA.L"))));
  sc.apply(abbey_at(0, 1));
  EXPECT_EQ(sc.state.phase(), Phase::kDeploy);
  sc.apply(no_deploy());
  EXPECT_FALSE(sc.state.has_abbey(0));
  EXPECT_TRUE(sc.state.has_abbey(1));
  // Seat 1 still holds an abbey, but no square is enclosed any more: it simply draws.
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  play(sc, "BA.RFr", 1, 0, 0);
  // Seat 0 has used its abbey: never asked again.
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// A2, A3, [AM fn 11]: seat 0 places the abbey at (0,1) instead of drawing (the bag is untouched: tiles left
// and remaining copies unchanged). Only a monk or a wagon may go on it; nothing may go "next to" it (there is
// no city on the abbey tile). Its sides close the three features without joining them:
//   city (-1,1) (1 tile, seat 1):           2 points (2 per real tile)
//   city (0,2)+(0,3) (2 tiles, seat 1):     4 points (not 6: the abbey is no tile of it)
//   road (1,1)+(2,1) (2 tiles, seat 0):     2 points
// The abbey (with seat 0's monk) has 7 neighbours; seat 1 fills (1,0) with RFr next turn: 9 points (A2:
// scored as a cloister), the monk returns. Had the game ended before, it would score 1 + 7 = 8.
TEST(AbbeyMayor, AM_A2_A3_fn11_AbbeyClosesFeaturesAndScoresAsCloister) {
  Scenario sc = hole_board();
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  const int left = sc.state.tiles_left();
  const int drawable = sc.state.drawable_now();
  const int copies_l = sc.state.remaining(TileCatalog::get().find("BA.L"));
  const int tiles_on_board = sc.state.num_tiles();
  EXPECT_EQ(left, 2);
  sc.apply(abbey_at(0, 1));
  EXPECT_EQ(sc.state.tiles_left(), left);  // A3
  EXPECT_EQ(sc.state.drawable_now(), drawable);
  EXPECT_EQ(sc.state.remaining(TileCatalog::get().find("BA.L")), copies_l);
  EXPECT_EQ(sc.state.num_tiles(), tiles_on_board + 1);
  EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 1)).type, TileCatalog::get().find("AM.A"));
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  // fn 11: monk or wagon on the abbey, nothing else (no mayor: no city; no barn: no field corner).
  EXPECT_EQ(deploy_options(sc.state), (std::set<std::string>{"follower@C", "wagon@C"}));
  EXPECT_FALSE(sc.legal(deploy_of("follower", "W")));
  EXPECT_FALSE(sc.legal(deploy_of("mayor", "C")));
  EXPECT_TRUE(scores_are(sc, {0, 0}));
  sc.apply(deploy_of("follower", "C"));
  EXPECT_EQ(sc.score(1, kCityPoints), 2 + 4);
  EXPECT_EQ(sc.score(0, kRoadPoints), 2);
  EXPECT_TRUE(scores_are(sc, {2, 6}));
  const FeatureInfo south_city = feature_at(sc.state, 0, 2, "N");
  EXPECT_TRUE(south_city.complete);
  EXPECT_EQ(south_city.tiles, 2);
  EXPECT_TRUE(feature_at(sc.state, -1, 1, "E").complete);
  EXPECT_EQ(feature_at(sc.state, -1, 1, "E").tiles, 1);
  EXPECT_TRUE(feature_at(sc.state, 1, 1, "W").complete);
  EXPECT_EQ(feature_at(sc.state, 1, 1, "W").tiles, 2);
  // Not joined through the abbey: the two cities stay different features.
  EXPECT_FALSE(sc.state.connected(root_at(sc.state, -1, 1, "E"), root_at(sc.state, 0, 2, "N")));
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.followers_in_supply(0), 6);  // the monk
  const FeatureInfo abbey = feature_at(sc.state, 0, 1, "C");
  EXPECT_EQ(abbey.kind, SegmentKind::kCloister);
  EXPECT_FALSE(abbey.complete);
  EXPECT_EQ(abbey.followers[0], 1);
  // Seat 1's turn: a normal draw (no enclosed square).
  ASSERT_EQ(sc.state.phase(), Phase::kDraw);
  Scenario incomplete = sc;
  play(sc, "BA.RFr", 1, 0, 0);
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_TRUE(scores_are(sc, {11, 6}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.check_consistency(), "");
  // Otherwise: the last two tiles go away from the abbey (BA.L (-1,3), RFr (-2,0)); at the end the incomplete
  // abbey scores like an incomplete cloister, 1 + 7 neighbours = 8.
  play(incomplete, "BA.L", -1, 3, 0);     // 10 s1
  play(incomplete, "BA.RFr", -2, 0, 0);   // 11 s0, the last tile
  decline_abbey_round(incomplete);
  ASSERT_TRUE(incomplete.state.is_terminal());
  EXPECT_EQ(incomplete.score(0, kCloisterPoints), 8);
  EXPECT_EQ(incomplete.score(0), 2 + 8);
  EXPECT_EQ(incomplete.score(1), 6);
  EXPECT_EQ(incomplete.state.check_consistency(), "");
}

// [AM fn 15] The abbey bounds farms too. A city wall across y=2 cuts the ring round the hole (0,1):
//
//   y=0   RFr          start        RFr(farmer s1 on its south field F1)
//   y=1   C(90) city E [hole]       L
//   y=2   C(90) city E CFc city W-E C(270) city W     the wall: one 3-tile city
//         x=-1         x=0          x=1
//
// The north field of CFc (0,2) (seat 0's farmer) touches only the hole; F1 (start south and everything
// around the hole) touches the 1-tile city (-1,1) and the wall city. Seat 0 places the last tile (0,2); in the
// abbey round seat 1 fills the hole with its abbey, which closes the city (-1,1). Final farms: F1 touches 2
// completed cities: 6 for seat 1; CFc's north field only the wall city: 3 for seat 0 (joined through the
// abbey, seat 0 and seat 1 would tie at 6).
TEST(AbbeyMayor, AM_fn15_AbbeyBoundsFarms) {
  Scenario sc(am_rules(2), {{"BA.RFr", 2}, {"BA.C", 3}, {"BA.L", 1}, {"BA.CFc", 1}});
  play(sc, "BA.RFr", -1, 0, 0);        // 1 s0
  play(sc, "BA.RFr", 1, 0, 0, "SL");   // 2 s1 farmer on F1
  play(sc, "BA.C", -1, 1, 90);         // 3 s0
  play(sc, "BA.L", 1, 1, 0);           // 4 s1
  play(sc, "BA.C", -1, 2, 90);         // 5 s0
  play(sc, "BA.C", 1, 2, 270);         // 6 s1
  play(sc, "BA.CFc", 0, 2, 0, "NL");   // 7 s0: closes the wall city (nobody in it); the last tile
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 1);
  place_abbey(sc, 0, 1);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(feature_at(sc.state, -1, 1, "E").complete);
  EXPECT_FALSE(sc.state.connected(root_at(sc.state, 0, 2, "NL"), root_at(sc.state, 0, 0, "SL")));
  EXPECT_TRUE(scores_are(sc, {3, 6}, kFieldPoints));
  EXPECT_TRUE(scores_are(sc, {3, 6}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The end-round board, 3 players: the hole (0,1) with all 8 neighbours, closed by the last tile.
//
//   y=0   RFr          start        RFr
//   y=1   C(90) city E [hole]       L          city (-1,1): seat 1's knight
//   y=2   L            C city N     L          city (0,2):  seat 0's knight
//
// Seat 0 places the last tile (0,2) on turn 7: the abbey round starts with seat 1 (left of seat 0).
Scenario end_round_board(const Rules& rules) {
  Scenario sc(rules, {{"BA.RFr", 2}, {"BA.C", 2}, {"BA.L", 3}});
  play(sc, "BA.RFr", -1, 0, 0);      // 1 s0
  play(sc, "BA.C", -1, 1, 90, "E");  // 2 s1
  play(sc, "BA.RFr", 1, 0, 0);       // 3 s2
  play(sc, "BA.L", 1, 1, 0);         // 4 s0
  play(sc, "BA.L", -1, 2, 0);        // 5 s1
  play(sc, "BA.L", 1, 2, 0);         // 6 s2
  play(sc, "BA.C", 0, 2, 0, "N");    // 7 s0: the last tile
  EXPECT_EQ(sc.state.tiles_left(), 0);
  return sc;
}

// A4, [AM fn 8, 9]: after the last tile, one lap clockwise from the player left of the last placer: seat 1
// declines, seat 2 declines, then seat 0 (who placed the last tile) places its abbey with a monk. The abbey
// has all 8 neighbours: it is scored at once as in a normal turn (9), and closes both 1-tile cities (2 each).
// Then final scoring (nothing left) and the game is over.
TEST(AbbeyMayor, AM_A4_fn8_fn9_AbbeyRoundFromLeftOfLastPlacer) {
  Scenario sc = end_round_board(am_rules(3));
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(abbey_squares(sc.state), (std::set<std::pair<int, int>>{{0, 1}}));
  EXPECT_FALSE(sc.legal(json{{"draw", "BA.L"}}));
  sc.apply(no_abbey());
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 2);
  sc.apply(no_abbey());
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.score(0), 0);
  sc.apply(abbey_at(0, 1));
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  sc.apply(deploy_of("follower", "C"));
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
  EXPECT_TRUE(scores_are(sc, {2, 2}, kCityPoints));
  EXPECT_TRUE(scores_are(sc, {11, 2, 0}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_TRUE(sc.state.has_abbey(1));
  EXPECT_TRUE(sc.state.has_abbey(2));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// A4, [AM fn 9]: seat 1 declines, seat 2 places its abbey with a monk (9 at once, the cities 2 each); seat 0
// has no square left and is not asked: the game ends.
TEST(AbbeyMayor, AM_A4_fn9_AbbeyRoundPlacementScoresAtOnceThenGameEnds) {
  Scenario sc = end_round_board(am_rules(3));
  ASSERT_EQ(sc.state.phase(), Phase::kAbbeyRound);
  EXPECT_EQ(sc.state.current_player(), 1);
  sc.apply(no_abbey());
  EXPECT_EQ(sc.state.current_player(), 2);
  place_abbey(sc, 0, 1, "C");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(2, kCloisterPoints), 9);
  EXPECT_TRUE(scores_are(sc, {2, 2, 9}));
  EXPECT_TRUE(sc.state.has_abbey(0));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// A4 with abbey_end_round=off: the game ends with the last tile; both cities are incomplete (1 each).
TEST(AbbeyMayor, AM_A4_AbbeyEndRoundOff) {
  Rules r = am_rules(3);
  r.set_option("abbey_end_round", "off");
  Scenario sc = end_round_board(r);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {1, 1}, kCityPoints));
  EXPECT_TRUE(scores_are(sc, {1, 1, 0}));
  EXPECT_EQ(abbeys_on_board(sc.state), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [AM fn 7, 12] (need Cult places) An abbey is a cloister for the shrine rules (S2, S3).
//   y=0   RFr           start       RFr
//   y=1   S shrine      [hole]      X            S: seat 1's heretic
//   y=2   C(180)        C(180)                   (-2,2): BA.L in the third case
// X = BA.C(270) (city W): the abbey is legal, and seat 0's monk on it next to the occupied shrine starts a
// challenge (fn 12). X = a second shrine: the square touches two shrines, so no abbey (fn 7); seat 0 simply
// draws. With BA.L at (-2,2) (diagonal to the shrine), an abbey would leave the shrine next to two
// cloisters: refused as well.
TEST(AbbeyMayor, AM_fn7_fn12_AbbeyIsACloisterForShrines) {
  const std::map<std::string, int> deck = {{"BA.RFr", 2}, {"CU.S", 2}, {"BA.C", 3}, {"BA.L", 2}};
  auto board = [&](const char* east) {
    Scenario sc(am_rules(2, kCultPlaces), deck);
    const bool city = std::string(east) == "BA.C";
    play(sc, "BA.RFr", -1, 0, 0);             // 1 s0
    play(sc, "CU.S", -1, 1, 0, "C");          // 2 s1 heretic
    play(sc, "BA.RFr", 1, 0, 0);              // 3 s0
    play(sc, east, 1, 1, city ? 270 : 0);     // 4 s1
    play(sc, "BA.C", -1, 2, 180);             // 5 s0
    play(sc, "BA.C", 0, 2, 180);              // 6 s1: the hole is enclosed
    return sc;
  };
  {
    Scenario sc = board("BA.C");
    ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
    EXPECT_EQ(abbey_squares(sc.state), (std::set<std::pair<int, int>>{{0, 1}}));
    place_abbey(sc, 0, 1, "C");
    const int abbey = sc.state.tile_at(0, 1), shrine = sc.state.tile_at(-1, 1);
    EXPECT_EQ(sc.state.rival(abbey), shrine);
    EXPECT_EQ(sc.state.rival(shrine), abbey);
    EXPECT_EQ(sc.score(0), 0);  // the 1-tile city (1,1) closed by the abbey had nobody in it
    EXPECT_EQ(sc.score(1), 0);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc = board("CU.S");
    EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // the only enclosed square touches two shrines
    EXPECT_TRUE(sc.state.has_abbey(0));
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc = board("BA.C");
    play(sc, "BA.L", -2, 2, 0);  // 7 s0 (draws instead of placing the abbey)
    EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // seat 1 holds an abbey but (0,1) is refused now
    EXPECT_TRUE(sc.state.has_abbey(1));
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// =============================================================================================================
// Mayor (M1)
// =============================================================================================================

// M1, [AM fn 18, 19, 20]: the mayor goes only into an unoccupied city, and it occupies the city like a knight.
// Seat 0 puts X on the city of CFc(90) (0,-1) (city N-S, joined to the start city); seat 1 extends the city
// with CFc(90) (0,-2): neither a knight, nor a mayor, nor a wagon may join it, whatever X is (a knight, a
// mayor, a wagon); farmers on CFc's fields are fine. The mayor never goes on a field or a road.
TEST(AbbeyMayor, AM_M1_fn18_fn19_fn20_MayorOnlyIntoUnoccupiedCity) {
  for (const char* x : {"follower", "mayor", "wagon"}) {
    SCOPED_TRACE(x);
    Scenario sc(am_rules(2), {{"BA.CFc", 2}, {"BA.RFr", 1}});
    sc.draw("BA.CFc");
    sc.place(0, -1, 90);
    EXPECT_TRUE(sc.legal(deploy_of("mayor", "N")));  // an unoccupied city
    EXPECT_FALSE(sc.legal(deploy_of("mayor", "EL")));
    sc.apply(deploy_of(x, "N"));
    sc.draw("BA.CFc");
    sc.place(0, -2, 90);
    EXPECT_FALSE(sc.legal(deploy_of("mayor", "S")));
    EXPECT_FALSE(sc.legal(deploy_of("follower", "S")));
    EXPECT_FALSE(sc.legal(deploy_of("wagon", "S")));
    EXPECT_FALSE(sc.legal(deploy_of("mayor", "WL")));
    EXPECT_TRUE(sc.legal(deploy_of("follower", "WL")));
    EXPECT_TRUE(sc.legal(deploy_of("follower", "EL")));
    sc.apply(no_deploy());
    // The mayor never goes on a road.
    sc.draw("BA.RFr");
    sc.place(1, 0, 0);
    EXPECT_FALSE(sc.legal(deploy_of("mayor", "E")));
    EXPECT_TRUE(sc.legal(deploy_of("follower", "E")));
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// M1, [AM fn 25]: the mayor's strength is the number of pennants in the city when it is scored (it was put on
// a cap without pennants). Mayor against two knights:
//
//   y=-2   L            N cap(S)      .           N cap: seat 0's mayor (BA.C, or AM.C!+ with a pennant)
//   y=-1   C(90) knight [joiner]      C(270) knight   joiner (4 city edges): BA.Cccc+ (1 pennant) or AM.C++ (2)
//   y= 0   RFr          start         RFr             seat 1's two knights
//
// The joiner is placed last (in a hole: seat 0 first declines the abbey) and completes a 5-tile city.
//   1 pennant:  mayor 1 < 2: seat 1 scores 10 + 2 = 12
//   2 pennants: mayor 2 = 2: both score 10 + 4 = 14
//   3 pennants: mayor 3 > 2: seat 0 scores 10 + 6 = 16 (fn 25: it counts as three followers)
TEST(AbbeyMayor, AM_M1_fn25_MayorStrengthIsPennantsAtScoring) {
  struct Case {
    const char* cap;
    int cap_rot;
    const char* joiner;
    int pennants, seat0, seat1;
  };
  for (const Case& c : {Case{"BA.C", 180, "BA.Cccc+", 1, 0, 12}, Case{"BA.C", 180, "AM.C++", 2, 14, 14},
                        Case{"AM.C!+", 270, "AM.C++", 3, 16, 0}}) {
    SCOPED_TRACE(c.pennants);
    std::map<std::string, int> deck = {{"BA.RFr", 2}, {"BA.C", 2}, {"BA.L", 2}};
    deck[c.cap] += 1;
    deck[c.joiner] += 1;
    Scenario sc(am_rules(2), deck);
    play(sc, "BA.RFr", -1, 0, 0);          // 1 s0
    play(sc, "BA.C", -1, -1, 90, "E");     // 2 s1 knight
    play(sc, "BA.L", -1, -2, 0);           // 3 s0
    play(sc, "BA.RFr", 1, 0, 0);           // 4 s1
    play(sc, c.cap, 0, -2, c.cap_rot, "S", "mayor");  // 5 s0 mayor
    EXPECT_FALSE(sc.state.in_supply(0, Figure::kMayor));
    play(sc, "BA.C", 1, -1, 270, "W");     // 6 s1 knight
    EXPECT_EQ(sc.state.phase(), Phase::kTurnStart);  // (0,-1) is enclosed
    play(sc, c.joiner, 0, -1, 0);          // 7 s0 completes the city
    EXPECT_TRUE(feature_at(sc.state, 0, 0, "N").complete);
    EXPECT_EQ(feature_at(sc.state, 0, 0, "N").tiles, 5);
    EXPECT_EQ(feature_at(sc.state, 0, 0, "N").pennants, c.pennants);
    EXPECT_EQ(sc.score(0, kCityPoints), c.seat0);
    EXPECT_EQ(sc.score(1, kCityPoints), c.seat1);
    EXPECT_EQ(sc.score(0), c.seat0);
    EXPECT_EQ(sc.score(1), c.seat1);
    EXPECT_TRUE(sc.state.in_supply(0, Figure::kMayor));
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// M1, [AM fn 26, 27]: a mayor in a city without pennants has strength 0: the city is occupied (seat 1 may not
// put a knight in it) but scores nobody when completed. Seat 0's mayor on CFc(90) (0,-1); seat 1 closes the
// 3-tile city with BA.C(180) (0,-2): 6 points to nobody, the mayor returns.
TEST(AbbeyMayor, AM_M1_fn26_fn27_MayorWithoutPennantsScoresNothing) {
  Scenario sc(am_rules(2), {{"BA.CFc", 1}, {"BA.C", 1}, {"BA.L", 1}});
  play(sc, "BA.CFc", 0, -1, 90, "N", "mayor");  // 1 s0
  sc.draw("BA.C");
  sc.place(0, -2, 180);
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_FALSE(sc.legal(deploy_of("follower", "S")));  // occupied by the mayor
  EXPECT_FALSE(sc.legal(deploy_of("wagon", "S")));
  EXPECT_TRUE(sc.legal(deploy_of("follower", "NL")));
  sc.apply(no_deploy());
  EXPECT_TRUE(feature_at(sc.state, 0, 0, "N").complete);
  EXPECT_EQ(feature_at(sc.state, 0, 0, "N").followers[0], 0);
  EXPECT_TRUE(scores_are(sc, {0, 0}));
  EXPECT_TRUE(sc.state.in_supply(0, Figure::kMayor));
  EXPECT_EQ(sc.state.figure_node(0, kMayorSlot), -1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// =============================================================================================================
// Wagon (W1-W4)
// =============================================================================================================

// [AM fn 1, 39] The wagon is a follower and counts as one at scoring; mayor, wagon and barn are not among the
// 7 ordinary followers. Seat 0's wagon on the cap C(90) (-1,-1), seat 1's knight on C(270) (1,-1); seat 0
// joins them and the start city with Ccc(180) (0,-1): a 4-tile city, 1 against 1: both score 8. The city has
// no gate, so the wagon has nowhere to go and returns at once.
TEST(AbbeyMayor, AM_fn1_fn39_WagonCountsAsAFollower) {
  Scenario sc(am_rules(2), {{"BA.RFr", 2}, {"BA.C", 2}, {"BA.Ccc", 1}, {"BA.L", 1}});
  play(sc, "BA.RFr", -1, 0, 0);                 // 1 s0
  play(sc, "BA.RFr", 1, 0, 0);                  // 2 s1
  play(sc, "BA.C", -1, -1, 90, "E", "wagon");   // 3 s0 wagon
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_FALSE(sc.state.in_supply(0, Figure::kWagon));
  EXPECT_EQ(feature_at(sc.state, -1, -1, "E").followers[0], 1);
  play(sc, "BA.C", 1, -1, 270, "W");            // 4 s1 knight
  play(sc, "BA.Ccc", 0, -1, 180);               // 5 s0
  EXPECT_TRUE(scores_are(sc, {8, 8}, kCityPoints));
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // no wagon decision: nothing adjacent
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_TRUE(sc.state.in_supply(0, Figure::kWagon));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W1, [AM fn 29, 30]: the wagon goes on an unoccupied road, city or cloister (abbey: fn 36 below), never on a
// field, and not where any other follower stands.
//   AM.RC (1,0): city N, road W (joins the start road): seat 0 may put the wagon on N or W, not on its two
//     fields (WR, and EL...WL); the mayor only on N. Seat 0's wagon goes on the road.
//   RFr (-1,0) extends that road: seat 1 may put neither a wagon nor a thief on it; a farmer, yes.
//   BA.LR (2,0): seat 1's wagon may go on its cloister or its road S.
TEST(AbbeyMayor, AM_W1_fn29_fn30_WagonDeployment) {
  Scenario sc(am_rules(2), {{"AM.RC", 1}, {"BA.LR", 1}, {"BA.RFr", 1}, {"BA.L", 2}});
  sc.draw("AM.RC");
  sc.place(1, 0, 0);
  EXPECT_EQ(deploy_options(sc.state),
            (std::set<std::string>{"follower@N", "follower@W", "follower@WR", "follower@EL", "mayor@N", "wagon@N",
                                   "wagon@W"}));
  sc.apply(deploy_of("wagon", "W"));                        // 1 s0
  sc.draw("BA.RFr");                                        // 2 s1
  sc.place(-1, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_of("wagon", "E")));
  EXPECT_FALSE(sc.legal(deploy_of("follower", "E")));
  EXPECT_FALSE(sc.legal(deploy_of("wagon", "NL")));
  EXPECT_TRUE(sc.legal(deploy_of("follower", "NL")));
  sc.apply(no_deploy());
  play(sc, "BA.L", 0, 1, 0);                                // 3 s0
  sc.draw("BA.LR");                                         // 4 s1
  sc.place(2, 0, 0);
  EXPECT_EQ(deploy_options(sc.state),
            (std::set<std::string>{"follower@C", "follower@S", "follower@NL", "wagon@C", "wagon@S"}));
  sc.apply(deploy_of("wagon", "C"));
  EXPECT_EQ(feature_at(sc.state, 2, 0, "C").followers[1], 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W2, [AM fn 40]: a wagon deployed on the tile that completes its feature is scored at once and may then move
// in the same turn (moving is not an alternative to deploying: the deploy phase never offers a move). Seat 0
// closes the start city with AM.RC(180) (0,-1) (city S, gate road E) and puts its wagon on the city: 4 points;
// then the wagon may go to the gate road (incomplete, unoccupied), or back to supply.
TEST(AbbeyMayor, AM_W2_fn40_WagonScoresThenMovesInTheSameTurn) {
  for (bool move : {true, false}) {
    SCOPED_TRACE(move);
    Scenario sc(am_rules(2), {{"AM.RC", 1}, {"BA.L", 1}});
    sc.draw("AM.RC");
    sc.place(0, -1, 180);
    ActionList list;
    sc.state.legal_actions(list);
    for (const Action& a : list) EXPECT_NE(a.kind(), Action::kWagon);
    sc.apply(deploy_of("wagon", "S"));
    EXPECT_EQ(sc.score(0, kCityPoints), 4);
    ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
    EXPECT_EQ(sc.state.current_player(), 0);
    EXPECT_EQ(sc.state.turn_player(), 0);
    EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{root_at(sc.state, 0, -1, "E")}));
    if (move) {
      sc.apply(wagon_to(0, -1, "E"));
      ASSERT_GE(sc.state.figure_node(0, kWagonSlot), 0);
      EXPECT_EQ(sc.state.feature_root(sc.state.figure_node(0, kWagonSlot)), root_at(sc.state, 0, -1, "E"));
      EXPECT_EQ(feature_at(sc.state, 0, -1, "E").followers[0], 1);
      EXPECT_FALSE(sc.state.in_supply(0, Figure::kWagon));
    } else {
      sc.apply(wagon_back());
      EXPECT_TRUE(sc.state.in_supply(0, Figure::kWagon));
      EXPECT_EQ(feature_at(sc.state, 0, -1, "E").followers[0], 0);
    }
    EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    EXPECT_EQ(sc.state.turn_player(), 1);
    EXPECT_EQ(sc.score(0), 4);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// W2: several wagons decide clockwise from the placing player. Three players; one road with two wagons:
//
//   y=0   L     RC(180) wagon s0 (city S, gate road E)   start   Rr(0) roads W,S
//   y=1                 LR(270) wagon s2 (road E to its cloister)     Rr(90) roads N,W  <- seat 1, last
//         x=-2  x=-1    x=0                                    x=1
//
// The road RC-start-Rr-Rr-LR (5 tiles, gate to cloister) is completed by seat 1: seats 0 and 2 tie at 5.
// Wagons decide from seat 1 clockwise: seat 2 first (the city of RC or the cloister of LR) takes the
// cloister; then seat 0 has only the city left.
TEST(AbbeyMayor, AM_W2_SeveralWagonsDecideClockwiseFromPlacer) {
  Scenario sc(am_rules(3), {{"AM.RC", 1}, {"BA.Rr", 2}, {"BA.LR", 1}, {"BA.L", 2}});
  play(sc, "AM.RC", -1, 0, 180, "E", "wagon");  // 1 s0
  play(sc, "BA.Rr", 1, 0, 0);                   // 2 s1
  play(sc, "BA.LR", 0, 1, 270, "E", "wagon");   // 3 s2
  play(sc, "BA.L", -2, 0, 0);                   // 4 s0
  play(sc, "BA.Rr", 1, 1, 90);                  // 5 s1
  EXPECT_EQ(sc.score(0, kRoadPoints), 5);
  EXPECT_EQ(sc.score(2, kRoadPoints), 5);
  EXPECT_EQ(sc.score(1), 0);
  const int city = root_at(sc.state, -1, 0, "S"), cloister = root_at(sc.state, 0, 1, "C");
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.current_player(), 2);
  EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{city, cloister}));
  sc.apply(wagon_to(0, 1, "C"));
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{city}));
  sc.apply(wagon_to(-1, 0, "S"));
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 2);
  EXPECT_EQ(feature_at(sc.state, 0, 1, "C").followers[2], 1);
  EXPECT_EQ(feature_at(sc.state, -1, 0, "S").followers[0], 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W3, [AM fn 34], seed "Example 1. Moving from a completed city", on an equivalent board:
//
//   y=0   RFr            start          CRr(180) city S, road W-N (passes the city, no gate)
//   y=1   LR(270) K      ABBEY          CccR city N E W, gate S     RC(270) city W, gate S   <- tile 0
//   y=2                  RFr(90) Ra     RFr(90) road 1              RRR(270) junction N E S  RC city Y, gate W
//         x=-1           x=0            x=1                         x=2                      x=3
//
// Seat 1's wagon is in city X = CRr (1,0) + CccR (1,1) + RC (2,1); the abbey closed its west side earlier,
// tile 0 = RC (2,1) completes it (6 points). The wagon may go to
//   1 the gate road CccR-(1,2) (incomplete), on any of its tiles
//   2 the abbey (incomplete: 7 neighbours)
// and not to: 4 the short road RC (2,1)-junction (complete) nor the roads beyond the junction (S arm open, E
// arm complete); 5 city Y (incomplete, reached only through short roads and the junction: fn 34); 6 Ra, the
// road into the abbey's south side (adjacent to the abbey, not to the city); 7 the road of LR (closed by the
// abbey and by its cloister) nor 8 its cloister K; the start road that passes city X without a gate; farms.
TEST(AbbeyMayor, AM_W3_fn34_Example1_FromCityClosedByWallsAndAbbey) {
  Scenario sc(am_rules(2), {{"BA.CRr", 1}, {"BA.CccR", 1}, {"BA.RFr", 3}, {"BA.LR", 1}, {"BA.RRR", 1}, {"AM.RC", 2},
                            {"BA.L", 1}});
  play(sc, "BA.CRr", 1, 0, 180);                // 1 s0
  play(sc, "BA.CccR", 1, 1, 0, "N", "wagon");   // 2 s1 wagon in city X
  play(sc, "BA.RFr", -1, 0, 0);                 // 3 s0
  play(sc, "BA.LR", -1, 1, 270);                // 4 s1
  play(sc, "BA.RFr", 1, 2, 90);                 // 5 s0 road 1
  play(sc, "BA.RFr", 0, 2, 90);                 // 6 s1 Ra: the hole (0,1) is enclosed
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  place_abbey(sc, 0, 1);                        // 7 s0: the abbey, nobody on it
  EXPECT_TRUE(feature_at(sc.state, -1, 1, "E").complete);  // LR's road: cloister to abbey
  EXPECT_FALSE(feature_at(sc.state, 1, 1, "N").complete);
  play(sc, "BA.RRR", 2, 2, 270);                // 8 s1 junction
  play(sc, "AM.RC", 3, 2, 0);                   // 9 s0 city Y
  EXPECT_EQ(sc.score(1), 0);
  play(sc, "AM.RC", 2, 1, 270);                 // 10 s1: tile 0
  EXPECT_TRUE(feature_at(sc.state, 1, 1, "N").complete);
  EXPECT_EQ(feature_at(sc.state, 1, 1, "N").tiles, 3);
  EXPECT_EQ(sc.score(1, kCityPoints), 6);
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 1);
  const int road1 = root_at(sc.state, 1, 2, "N"), abbey = root_at(sc.state, 0, 1, "C");
  EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{road1, abbey}));
  EXPECT_TRUE(sc.legal(wagon_to(1, 1, "S")));    // 1, on the city tile
  EXPECT_TRUE(sc.legal(wagon_to(1, 2, "S")));    // 1, on its other tile
  EXPECT_TRUE(sc.legal(wagon_to(0, 1, "C")));    // 2
  EXPECT_FALSE(sc.legal(wagon_to(2, 1, "S")));   // 4 the short road, complete
  EXPECT_FALSE(sc.legal(wagon_to(2, 2, "S")));   // 4 a road beyond the junction
  EXPECT_FALSE(sc.legal(wagon_to(2, 2, "E")));   //   (complete anyway)
  EXPECT_FALSE(sc.legal(wagon_to(3, 2, "N")));   // 5
  EXPECT_FALSE(sc.legal(wagon_to(0, 2, "N")));   // 6
  EXPECT_FALSE(sc.legal(wagon_to(-1, 1, "E")));  // 7
  EXPECT_FALSE(sc.legal(wagon_to(-1, 1, "C")));  // 8
  EXPECT_FALSE(sc.legal(wagon_to(1, 0, "W")));   // no gate
  EXPECT_FALSE(sc.legal(wagon_to(1, 1, "SL")));  // a farm
  EXPECT_FALSE(feature_at(sc.state, 2, 2, "S").complete);
  EXPECT_FALSE(feature_at(sc.state, 3, 2, "N").complete);
  EXPECT_FALSE(feature_at(sc.state, 0, 2, "N").complete);
  EXPECT_FALSE(feature_at(sc.state, 1, 0, "W").complete);
  EXPECT_FALSE(feature_at(sc.state, 0, 1, "C").complete);
  sc.apply(wagon_to(0, 1, "C"));
  EXPECT_EQ(feature_at(sc.state, 0, 1, "C").followers[1], 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W3, [AM fn 38], seed "Example 2. Moving from a completed city", on an equivalent board:
//
//   y=-2   .          LR cloister (road S)   RFr(90) road 1 (N end open)
//   y=-1   L (7)      RC(90) city E, gate N  CccR(180) city S W E, gate N   RC(270) city W, gate S
//   y= 0   .          RFr                    start                          RRRR junction     RFr thief (5)
//          x=-2       x=-1                   x=0                            x=1               x=2
//
// City X = start + RC (-1,-1) + CccR (0,-1) + RC (1,-1), completed by CccR (0,-1) (tile 0, in a hole: seat 0
// declines the abbey first): 8 points for the wagon. Its three gate roads: road 1 north of CccR (incomplete:
// the target, on either of its tiles), RC (-1,-1)-LR and RC (1,-1)-junction (2: complete). Not targets: the
// junction's S arm (3), the start road (4: a farm between it and the city), the junction's E arm (5: occupied),
// LR's cloister (6: a completed road between), the cloister L (7: in a farm). Where the wagon stood in the
// city does not matter: the same with seat 0's wagon on RC (1,-1) instead of seat 1's on RC (-1,-1).
TEST(AbbeyMayor, AM_W3_fn38_Example2_FromCompletedCity) {
  for (bool west : {true, false}) {
    SCOPED_TRACE(west);
    Scenario sc(am_rules(2), {{"BA.RFr", 3}, {"AM.RC", 2}, {"BA.LR", 1}, {"BA.RRRR", 1}, {"BA.L", 1},
                              {"BA.CccR", 1}, {"BA.C", 1}});
    play(sc, "BA.RFr", -1, 0, 0);                              // 1 s0
    play(sc, "AM.RC", -1, -1, 90, west ? "E" : "", "wagon");   // 2 s1
    play(sc, "BA.LR", -1, -2, 0);                              // 3 s0: a complete gate road
    play(sc, "BA.RRRR", 1, 0, 0);                              // 4 s1
    play(sc, "AM.RC", 1, -1, 270, west ? "" : "W", "wagon");   // 5 s0: a complete gate road
    play(sc, "BA.RFr", 2, 0, 0, "E");                          // 6 s1 thief (5)
    play(sc, "BA.RFr", 0, -2, 90);                             // 7 s0 road 1
    play(sc, "BA.L", -2, -1, 0);                               // 8 s1 (7)
    ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
    play(sc, "BA.CccR", 0, -1, 180);                           // 9 s0: tile 0
    const int owner = west ? 1 : 0;
    EXPECT_EQ(sc.score(owner, kCityPoints), 8);
    EXPECT_EQ(sc.score(1 - owner), 0);
    ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
    EXPECT_EQ(sc.state.current_player(), owner);
    const int road1 = root_at(sc.state, 0, -2, "N");
    EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{road1}));
    // fn 38: onto any tile of it; both name the same move.
    EXPECT_TRUE(sc.legal(wagon_to(0, -2, "S")));
    EXPECT_TRUE(sc.legal(wagon_to(0, -1, "N")));
    EXPECT_EQ(action_from_json(sc.state, wagon_to(0, -2, "S")), action_from_json(sc.state, wagon_to(0, -1, "N")));
    EXPECT_TRUE(feature_at(sc.state, -1, -1, "N").complete);  // 2
    EXPECT_TRUE(feature_at(sc.state, 1, -1, "S").complete);   // 2
    EXPECT_FALSE(sc.legal(wagon_to(1, 0, "S")));    // 3
    EXPECT_FALSE(sc.legal(wagon_to(-1, 0, "W")));   // 4
    EXPECT_FALSE(sc.legal(wagon_to(2, 0, "E")));    // 5
    EXPECT_FALSE(sc.legal(wagon_to(-1, -2, "C")));  // 6
    EXPECT_FALSE(sc.legal(wagon_to(-2, -1, "C")));  // 7
    sc.apply(wagon_to(0, -2, "S"));
    EXPECT_EQ(feature_at(sc.state, 0, -1, "N").followers[owner], 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// W3, seed "Example 3. Moving from a completed road":
//
//   y=0   RC(180) city S, gate road E   start   RRRR junction (seat 1's thief on its N arm)
//         x=-1                          x=0     x=1
//
// Seat 0's wagon on the road RC-start-junction (3 tiles), completed by the junction: 3 points. The wagon may
// go to the junction's other roads (E and S arms; the N arm is occupied) and to the city that closes the
// road's other end (incomplete, unoccupied); not to the start city (no gate) nor to a farm.
TEST(AbbeyMayor, AM_W3_Example3_FromCompletedRoad) {
  Scenario sc(am_rules(2), {{"AM.RC", 1}, {"BA.RRRR", 1}, {"BA.L", 1}});
  play(sc, "AM.RC", -1, 0, 180, "E", "wagon");  // 1 s0
  play(sc, "BA.RRRR", 1, 0, 0, "N");            // 2 s1
  EXPECT_EQ(sc.score(0, kRoadPoints), 3);
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(wagon_targets(sc.state),
            (std::set<int>{root_at(sc.state, 1, 0, "E"), root_at(sc.state, 1, 0, "S"), root_at(sc.state, -1, 0, "S")}));
  EXPECT_FALSE(sc.legal(wagon_to(1, 0, "N")));
  EXPECT_FALSE(sc.legal(wagon_to(0, 0, "N")));
  EXPECT_FALSE(sc.legal(wagon_to(0, 0, "SL")));
  sc.apply(wagon_to(-1, 0, "S"));
  EXPECT_EQ(feature_at(sc.state, -1, 0, "S").followers[0], 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W3, [AM fn 33]: never city to city (walls that touch are not adjacent), never along a road without a gate.
// Seat 0 closes the start city with CFC (0,-1) (two separate cities, N and S, back to back) and puts its wagon
// on the S one: 4 points. The N city of the same tile (incomplete, unoccupied) is not adjacent, nor is the
// start road (it passes the start city without a gate), nor a farm: nothing to choose, the wagon returns.
TEST(AbbeyMayor, AM_W3_fn33_NeverCityToCityNorWithoutGate) {
  Scenario sc(am_rules(2), {{"BA.CFC", 1}, {"BA.L", 1}});
  play(sc, "BA.CFC", 0, -1, 0, "S", "wagon");  // 1 s0
  EXPECT_EQ(sc.score(0, kCityPoints), 4);
  EXPECT_FALSE(feature_at(sc.state, 0, -1, "N").complete);
  EXPECT_EQ(feature_at(sc.state, 0, -1, "N").followers[0], 0);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_TRUE(sc.state.in_supply(0, Figure::kWagon));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W3, [AM fn 35]: the wagon may not drive through a feature. AM.LRRRR (1,0): four roads each ending at its
// cloister. Seat 0's wagon on the W road (start road); seat 1 closes its west end with LR(270) (-1,0) (road E
// to a cloister): a 3-tile road, 3 points. Targets: the two cloisters the road runs into; not the other three
// roads of LRRRR (behind its cloister).
TEST(AbbeyMayor, AM_W3_fn35_NotThroughAFeature) {
  Scenario sc(am_rules(2), {{"AM.LRRRR", 1}, {"BA.LR", 1}, {"BA.L", 1}});
  play(sc, "AM.LRRRR", 1, 0, 0, "W", "wagon");  // 1 s0
  play(sc, "BA.LR", -1, 0, 270);                // 2 s1
  EXPECT_EQ(sc.score(0, kRoadPoints), 3);
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 0);
  EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{root_at(sc.state, 1, 0, "C"), root_at(sc.state, -1, 0, "C")}));
  EXPECT_FALSE(sc.legal(wagon_to(1, 0, "N")));
  EXPECT_FALSE(sc.legal(wagon_to(1, 0, "E")));
  EXPECT_FALSE(sc.legal(wagon_to(1, 0, "S")));
  sc.apply(wagon_to(1, 0, "C"));
  EXPECT_EQ(feature_at(sc.state, 1, 0, "C").followers[0], 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W1, W3, [AM fn 36], section 8: the wagon may go on an abbey, and from the abbey to the cities and roads on
// its sides (Example 1 has the other direction).
//
//   y=0   RFr            start          RFr
//   y=1   C(90) city E   [hole]         RFr road W-E (open east)
//   y=2   L              CFc(90) city N-S (open south)   L
//         x=-1           x=0            x=1
//
// Seat 1 places its abbey with its wagon at (0,1), instead of drawing: all 8 neighbours are there, so it is
// complete at once: 9 points. Its sides closed the 1-tile city (-1,1) (complete: not a target, 2 points to
// nobody); the road (1,1) and the city (0,2) stay open: the wagon may go to either.
TEST(AbbeyMayor, AM_W1_W3_fn36_WagonOnAbbeyMovesToItsSides) {
  Scenario sc(am_rules(2), {{"BA.RFr", 3}, {"BA.C", 1}, {"BA.L", 3}, {"BA.CFc", 1}});
  play(sc, "BA.RFr", -1, 0, 0);   // 1 s0
  play(sc, "BA.RFr", 1, 0, 0);    // 2 s1
  play(sc, "BA.C", -1, 1, 90);    // 3 s0
  play(sc, "BA.L", -1, 2, 0);     // 4 s1
  play(sc, "BA.CFc", 0, 2, 90);   // 5 s0
  play(sc, "BA.RFr", 1, 1, 0);    // 6 s1: the hole is enclosed
  EXPECT_EQ(sc.state.phase(), Phase::kTurnStart);
  play(sc, "BA.L", 1, 2, 0);      // 7 s0 draws instead
  ASSERT_EQ(sc.state.phase(), Phase::kTurnStart);
  EXPECT_EQ(sc.state.current_player(), 1);
  sc.apply(abbey_at(0, 1));       // 8 s1
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  EXPECT_TRUE(sc.legal(deploy_of("wagon", "C")));
  sc.apply(deploy_of("wagon", "C"));
  EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
  EXPECT_EQ(sc.score(1), 9);
  EXPECT_EQ(sc.score(0), 0);
  EXPECT_TRUE(feature_at(sc.state, -1, 1, "E").complete);
  ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{root_at(sc.state, 1, 1, "W"), root_at(sc.state, 0, 2, "N")}));
  EXPECT_FALSE(sc.legal(wagon_to(-1, 1, "E")));
  EXPECT_FALSE(sc.legal(wagon_to(0, 0, "SL")));
  sc.apply(wagon_to(0, 2, "S"));
  EXPECT_EQ(feature_at(sc.state, 0, 2, "N").followers[1], 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// W4 (needs Cult places): a wagon on the losing side of a challenge returns without moving. Seat 0's wagon on
// the cloister of LR (0,1) (its road S runs to RFr(90) (0,2), open), seat 1's heretic on the shrine (1,1):
//
//   y=0   (RFr)     start      RFr        RFr
//   y=1   (C 270)   LR wagon   S heretic  C(90)
//   y=2   (C 270)   RFr(90)    C(180)     C(180)
//         x=-1      x=0        x=1        x=2
//
// Shrine first (x=2 column, seat 1 places (2,2) last): seat 1 scores 9; the wagon goes back to supply with
// nothing and no decision, although the road (0,1)-(0,2) is open and free. Cloister first (x=-1 column, seat
// 1 places (1,2) last): seat 0 scores 9 with the wagon, which may then move onto that road.
TEST(AbbeyMayor, AM_W4_WagonLosingAChallengeReturnsWithoutMoving) {
  const std::map<std::string, int> deck = {{"BA.LR", 1}, {"CU.S", 1}, {"BA.RFr", 3}, {"BA.C", 3}, {"BA.L", 1}};
  {
    Scenario sc(am_rules(2, kCultPlaces), deck);
    play(sc, "BA.LR", 0, 1, 0, "C", "wagon");  // 1 s0
    play(sc, "CU.S", 1, 1, 0, "C");            // 2 s1
    EXPECT_EQ(sc.state.rival(sc.state.tile_at(0, 1)), sc.state.tile_at(1, 1));
    play(sc, "BA.RFr", 1, 0, 0);               // 3 s0
    play(sc, "BA.RFr", 2, 0, 0);               // 4 s1
    play(sc, "BA.C", 2, 1, 90);                // 5 s0
    play(sc, "BA.RFr", 0, 2, 90);              // 6 s1
    play(sc, "BA.C", 1, 2, 180);               // 7 s0
    play(sc, "BA.C", 2, 2, 180);               // 8 s1: the shrine is complete
    EXPECT_EQ(sc.score(1, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(0), 0);
    EXPECT_EQ(sc.state.phase(), Phase::kDraw);
    EXPECT_EQ(sc.state.turn_player(), 0);
    EXPECT_TRUE(sc.state.in_supply(0, Figure::kWagon));
    EXPECT_FALSE(feature_at(sc.state, 0, 2, "N").complete);
    EXPECT_EQ(feature_at(sc.state, 0, 2, "N").followers[0], 0);
    EXPECT_EQ(feature_at(sc.state, 0, 1, "C").followers[0], 0);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
  {
    Scenario sc(am_rules(2, kCultPlaces), deck);
    play(sc, "BA.LR", 0, 1, 0, "C", "wagon");  // 1 s0
    play(sc, "CU.S", 1, 1, 0, "C");            // 2 s1
    play(sc, "BA.RFr", 1, 0, 0);               // 3 s0
    play(sc, "BA.RFr", -1, 0, 0);              // 4 s1
    play(sc, "BA.C", -1, 1, 270);              // 5 s0
    play(sc, "BA.C", -1, 2, 270);              // 6 s1
    play(sc, "BA.RFr", 0, 2, 90);              // 7 s0
    play(sc, "BA.C", 1, 2, 180);               // 8 s1: the cloister is complete
    EXPECT_EQ(sc.score(0, kCloisterPoints), 9);
    EXPECT_EQ(sc.score(1), 0);
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    ASSERT_EQ(sc.state.phase(), Phase::kWagonMove);
    EXPECT_EQ(sc.state.current_player(), 0);
    EXPECT_EQ(wagon_targets(sc.state), (std::set<int>{root_at(sc.state, 0, 2, "N")}));
    sc.apply(wagon_to(0, 2, "S"));
    EXPECT_EQ(feature_at(sc.state, 0, 2, "N").followers[0], 1);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// =============================================================================================================
// Barn (F1-F5)
// =============================================================================================================

// F1, F3, [AM fn 45, 52]: the barn goes on a corner of the tile just placed where four tiles meet with fields
// in all four corners, on a farm without a barn.
//
//   y=0   RFr        start      RFr        RFr
//   y=1   L (8)      L (5)      L (3)      C!+(180) (4): city E, its arms reach the corners
//   y=2                                    L (7)
//         x=-1       x=0        x=1        x=2
//
//   3 (1,1): no corner has four tiles yet: no barn.
//   4 (2,1): its NW corner has four tiles with fields on both sides, but AM.C!+'s city arm cuts that corner
//            (two different fields meet there): no barn.
//   5 (0,1): NE corner (start, RFr (1,0), L (1,1), L (0,1)): seat 0's barn; the only barn choice.
//   8 (-1,1): its NE corner is all fields but on the farm that holds seat 0's barn: seat 1 may not put its
//            barn there (fn 45, 52), nor a farmer on that farm (F3); a monk is fine.
TEST(AbbeyMayor, AM_F1_F3_fn45_fn52_BarnCorner) {
  Scenario sc(am_rules(2), {{"BA.RFr", 3}, {"BA.L", 5}, {"AM.C!+", 1}});
  play(sc, "BA.RFr", 1, 0, 0);   // 1 s0
  play(sc, "BA.RFr", 2, 0, 0);   // 2 s1
  sc.draw("BA.L");               // 3 s0
  sc.place(1, 1, 0);
  EXPECT_FALSE(any_barn(sc.state));
  sc.apply(no_deploy());
  sc.draw("AM.C!+");             // 4 s1
  sc.place(2, 1, 180);
  EXPECT_FALSE(any_barn(sc.state));
  EXPECT_FALSE(sc.legal(deploy_of("barn", "NW")));
  sc.apply(no_deploy());
  sc.draw("BA.L");               // 5 s0
  sc.place(0, 1, 0);
  EXPECT_TRUE(sc.legal(deploy_of("barn", "NE")));
  EXPECT_FALSE(sc.legal(deploy_of("barn", "NW")));
  EXPECT_FALSE(sc.legal(deploy_of("barn", "SE")));
  EXPECT_FALSE(sc.legal(deploy_of("barn", "SW")));
  sc.apply(deploy_of("barn", "NE"));
  EXPECT_FALSE(sc.state.in_supply(0, Figure::kBarn));
  ASSERT_GE(sc.state.figure_node(0, kBarnSlot), 0);
  EXPECT_TRUE(sc.state.connected(sc.state.figure_node(0, kBarnSlot), root_at(sc.state, 0, 0, "SL")));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);  // the barn is no follower (fn 1)
  play(sc, "BA.RFr", -1, 0, 0);  // 6 s1
  play(sc, "BA.L", 2, 2, 0);     // 7 s0
  sc.draw("BA.L");               // 8 s1
  sc.place(-1, 1, 0);
  EXPECT_TRUE(sc.state.in_supply(1, Figure::kBarn));
  EXPECT_FALSE(any_barn(sc.state));
  EXPECT_FALSE(sc.legal(deploy_of("barn", "NE")));
  EXPECT_FALSE(sc.legal(deploy_of("follower", "NL")));  // F3
  EXPECT_TRUE(sc.legal(deploy_of("follower", "C")));
  sc.apply(no_deploy());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// A farm M with farmers 2 (seat 0) to 1 (seat 1), touching two completed cities:
//
//   y=-1            C(180) closes the start city
//   y= 0  RFr s0    start                RFr farmer s0 (N)   LR(90) (road W ends at its cloister)
//   y= 1                                 C(90) city E        C(270) city W, farmer s1
//         x=-1      x=0                  x=1                 x=2
//
// Seat 0's farmers: north of the start road (field B) and south of it (field S1); seat 1's on the field of
// C(270) (2,1) (X, cut off from S1 by the 2-tile city (1,1)+(2,1)). LR (2,0), a road end with one field all
// round, joins B, S1 and X into M, which touches the start city (2 tiles) and the city (1,1)+(2,1).
void merged_farm(Scenario& sc) {
  play(sc, "BA.RFr", 1, 0, 0, "NL");   // 1 s0 farmer B
  play(sc, "BA.C", 1, 1, 90);          // 2 s1
  play(sc, "BA.RFr", -1, 0, 0, "SL");  // 3 s0 farmer S1
  play(sc, "BA.C", 2, 1, 270, "NL");   // 4 s1 farmer X; closes the city (1,1)+(2,1), nobody in it
  play(sc, "BA.C", 0, -1, 180);        // 5 s0 closes the start city
  EXPECT_FALSE(sc.state.connected(root_at(sc.state, 1, 0, "NL"), root_at(sc.state, 1, 0, "SL")));
  EXPECT_FALSE(sc.state.connected(root_at(sc.state, 2, 1, "NL"), root_at(sc.state, 1, 0, "SL")));
  play(sc, "BA.LR", 2, 0, 90);         // 6 s1: B, S1 and X become M
  const FeatureInfo m = feature_at(sc.state, 1, 0, "NL");
  EXPECT_EQ(m.followers[0], 2);
  EXPECT_EQ(m.followers[1], 1);
  EXPECT_TRUE(scores_are(sc, {0, 0}));
}

// F2, [AM fn 47, 50 (its rule text)], F5: seat 1's barn on M (corner of (2,0), (3,0), (2,1) and (3,1), placed
// last) scores M's farmers at once as at the end: seat 0 (2 farmers) beats seat 1 (1): 3 x 2 cities = 6 for
// seat 0, nothing for seat 1 (the barn owner need not take part, and the barn is no farmer); all three farmers
// return, the barn stays. That was the last tile: at the end the barn scores 4 x 2 = 8 (bonus); the farm has
// no farmer left to score.
TEST(AbbeyMayor, AM_F2_fn47_BarnScoresFarmersAtOnce) {
  Scenario sc(am_rules(2), {{"BA.RFr", 2}, {"BA.C", 3}, {"BA.LR", 1}, {"BA.L", 2}});
  merged_farm(sc);
  play(sc, "BA.L", 3, 0, 0);           // 7 s0
  sc.draw("BA.L");                     // 8 s1
  sc.place(3, 1, 0);
  EXPECT_TRUE(sc.legal(deploy_of("barn", "NW")));
  sc.apply(deploy_of("barn", "NW"));
  decline_abbey_round(sc);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {6, 0}, kFieldPoints));
  EXPECT_EQ(sc.score(1, kBonusPoints), 8);
  EXPECT_TRUE(scores_are(sc, {6, 8}));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  ASSERT_GE(sc.state.figure_node(1, kBarnSlot), 0);
  EXPECT_TRUE(sc.state.connected(sc.state.figure_node(1, kBarnSlot), root_at(sc.state, 1, 0, "NL")));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// The same barn scoring checked in the turn itself (fn 47: "at once" is this turn's scoring): right after the
// barn the scores are in and the turn has passed.
TEST(AbbeyMayor, AM_F2_fn47_BarnScoringHappensInTheSameTurn) {
  Scenario sc(am_rules(2), {{"BA.RFr", 2}, {"BA.C", 3}, {"BA.LR", 1}, {"BA.L", 3}});
  merged_farm(sc);
  play(sc, "BA.L", 3, 0, 0);                 // 7 s0
  play(sc, "BA.L", 3, 1, 0, "NW", "barn");   // 8 s1
  EXPECT_EQ(sc.score(0, kFieldPoints), 6);
  EXPECT_EQ(sc.score(1), 0);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.turn_player(), 0);
  EXPECT_FALSE(sc.state.is_terminal());
  // F3: the farm keeps its barn: no farmer may join it any more.
  sc.draw("BA.L");
  sc.place(4, 0, 0);
  EXPECT_FALSE(sc.legal(deploy_of("follower", "NL")));
  EXPECT_TRUE(sc.legal(deploy_of("follower", "C")));
  sc.apply(no_deploy());
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// F4, [AM fn 53], F5: a tile that joins a farm with farmers to a farm with a barn scores those farmers 1 per
// completed city (majority) and returns them. After merged_farm, a road column x=3 (RFr(90) (3,0), (3,1))
// keeps M (west) apart from A (east): L (4,0), L (4,1) with seat 1's barn (A has no farmer: nothing scored).
// Seat 0's LR (3,-1) ends the column's road at its cloister, its field joins M and A: seat 0 (2 farmers)
// scores 1 x 2 cities = 2, seat 1 (1 farmer) nothing; no farmer may go on the tile (F3). Last tile: at the
// end seat 1's barn scores 4 x 2 = 8.
TEST(AbbeyMayor, AM_F4_fn53_JoiningFarmersToBarnFarm) {
  Scenario sc(am_rules(2), {{"BA.RFr", 4}, {"BA.C", 3}, {"BA.LR", 2}, {"BA.L", 2}});
  merged_farm(sc);
  play(sc, "BA.RFr", 3, 0, 90);             // 7 s0
  play(sc, "BA.RFr", 3, 1, 90);             // 8 s1
  play(sc, "BA.L", 4, 0, 0);                // 9 s0
  play(sc, "BA.L", 4, 1, 0, "NW", "barn");  // 10 s1: barn on A
  EXPECT_FALSE(sc.state.connected(root_at(sc.state, 2, 0, "NL"), root_at(sc.state, 4, 0, "NL")));
  EXPECT_TRUE(scores_are(sc, {0, 0}));
  sc.draw("BA.LR");                         // 11 s0
  sc.place(3, -1, 0);
  EXPECT_FALSE(sc.legal(deploy_of("follower", "NL")));
  EXPECT_TRUE(sc.legal(deploy_of("follower", "C")));
  sc.apply(no_deploy());
  EXPECT_TRUE(sc.state.connected(root_at(sc.state, 2, 0, "NL"), root_at(sc.state, 4, 0, "NL")));
  EXPECT_TRUE(scores_are(sc, {2, 0}, kFieldPoints));
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  decline_abbey_round(sc);
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(1, kBonusPoints), 8);
  EXPECT_TRUE(scores_are(sc, {2, 8}));
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// F5, [AM fn 52, 56]: at the end each barn scores 4 per completed city of its farm, however far away; two
// barns on one farm (two barn farms joined) each score fully.
//
//   y=-1            C(180)      L          L  <- seat 0's barn (SW corner), on B (north of the road)
//   y= 0   RFr      start       RFr        RFr    [LR(90) at (3,0) joins B and S1]
//   y= 1            C(180)      L  <- seat 1's barn (NW corner), on S1 (south of the road)
//   y= 2            C           
//          x=-1     x=0         x=1        x=2    x=3
//
// B touches the start city, S1 the city (0,1)+(0,2). Without LR: 4 each. With LR: both barns' farm touches
// both cities: 8 each.
TEST(AbbeyMayor, AM_F5_fn52_fn56_EachBarnScoresFully) {
  for (bool join : {false, true}) {
    SCOPED_TRACE(join);
    std::map<std::string, int> deck = {{"BA.C", 3}, {"BA.RFr", 3}, {"BA.L", 3}};
    if (join) deck["BA.LR"] = 1;
    Scenario sc(am_rules(2), deck);
    play(sc, "BA.C", 0, 1, 180);                // 1 s0
    play(sc, "BA.C", 0, 2, 0);                  // 2 s1
    play(sc, "BA.RFr", 1, 0, 0);                // 3 s0
    play(sc, "BA.L", 1, 1, 0, "NW", "barn");    // 4 s1
    play(sc, "BA.C", 0, -1, 180);               // 5 s0
    play(sc, "BA.RFr", 2, 0, 0);                // 6 s1
    play(sc, "BA.L", 1, -1, 0);                 // 7 s0
    play(sc, "BA.RFr", -1, 0, 0);               // 8 s1
    play(sc, "BA.L", 2, -1, 0, "SW", "barn");   // 9 s0
    if (join) play(sc, "BA.LR", 3, 0, 90);      // 10 s1
    decline_abbey_round(sc);
    ASSERT_TRUE(sc.state.is_terminal());
    const int each = join ? 8 : 4;
    EXPECT_EQ(sc.score(0, kBonusPoints), each);
    EXPECT_EQ(sc.score(1, kBonusPoints), each);
    EXPECT_EQ(sc.score(0), each);
    EXPECT_EQ(sc.score(1), each);
    EXPECT_EQ(sc.state.connected(sc.state.figure_node(0, kBarnSlot), sc.state.figure_node(1, kBarnSlot)), join);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// =============================================================================================================
// Tiles of the expansion
// =============================================================================================================

// [AM fn 2, 3] AM.Rrr is one road with three branches round a well: it is complete only when all three ends
// are closed, and it counts every tile of it (not the longest path).
//
//   y=-2                 LR (road S)
//   y=-1                 RFr(90)
//   y= 0   LR(270)  start   Rrr (N, E, W)   LR(90)
//          x=-1     x=0     x=1             x=2
//
// Seat 0's thief on Rrr. After the W and E ends are closed the road is still open (north); LR (1,-2) closes
// it: 6 tiles, 6 points (the longest path, W to N, has 5).
TEST(AbbeyMayor, AM_fn2_fn3_ThreeWayRoadNeedsAllEndsAndCountsAllTiles) {
  Scenario sc(am_rules(2), {{"AM.Rrr", 1}, {"BA.LR", 3}, {"BA.RFr", 1}, {"BA.L", 1}});
  play(sc, "AM.Rrr", 1, 0, 0, "W");   // 1 s0
  play(sc, "BA.LR", -1, 0, 270);      // 2 s1
  play(sc, "BA.RFr", 1, -1, 90);      // 3 s0
  play(sc, "BA.LR", 2, 0, 90);        // 4 s1
  FeatureInfo road = feature_at(sc.state, 1, 0, "E");
  EXPECT_FALSE(road.complete);
  EXPECT_EQ(road.open_edges, 1);
  EXPECT_EQ(road.tiles, 5);
  EXPECT_EQ(sc.score(0), 0);
  play(sc, "BA.LR", 1, -2, 0);        // 5 s0
  road = feature_at(sc.state, 1, 0, "E");
  EXPECT_TRUE(road.complete);
  EXPECT_EQ(road.tiles, 6);
  EXPECT_EQ(sc.score(0, kRoadPoints), 6);
  EXPECT_EQ(sc.score(0), 6);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// =============================================================================================================
// With the River II: the volcano and the pig herd
// =============================================================================================================

struct RiverStep {
  const char* tile;
  int x, y, rot;
};

// The standard River II layout of rules_river_kr_test.cpp (seat 0 plays turns 1, 3, ..., 11):
//
//  y\x    0        1         2         3        4
//  -3              .       RrII(270)  lakeV
//  -2            CcII+     II+(pig)   .
//  -1            CIcI      .          .
//   0   spring   fork      LIFI       CIRI     II
//   1                                           RIrI
//   2                                           IFC(90)
constexpr RiverStep kRiver[11] = {
    {"RI2.III", 1, 0, 0},   {"RI2.CIcI", 1, -1, 0}, {"RI2.LIFI", 2, 0, 0},   {"RI2.CcII+", 1, -2, 0},
    {"RI2.CIRI", 3, 0, 0},  {"RI2.II+", 2, -2, 0},  {"RI2.II", 4, 0, 0},     {"RI2.RrII", 2, -3, 270},
    {"RI2.RIrI", 4, 1, 0},  {"RI2.IFC", 4, 2, 90},  {"RI2.lakeV", 3, -3, 0},
};

// A layout that puts the volcano lake in a corner of three river tiles, seat 0 placing it (turn 11):
//
//  y\x    0        1          2          3        4          5          6
//  -1            II(270)    lakeV
//   0   spring   fork       LIFI       CIRI     CcII+(90)
//   1                                           RIrI
//   2                                           II+(90)    CIcI(90)   RrII
//   3                                                                 IFC(90)
//
// The lake's SW corner meets II (its inner bend), the fork (between its N and E exits) and LIFI (north bank):
// four field corners.
constexpr RiverStep kVolcanoRiver[11] = {
    {"RI2.III", 1, 0, 0},   {"RI2.II", 1, -1, 270},  {"RI2.LIFI", 2, 0, 0},  {"RI2.CIRI", 3, 0, 0},
    {"RI2.CcII+", 4, 0, 90}, {"RI2.RIrI", 4, 1, 0},  {"RI2.II+", 4, 2, 90},  {"RI2.CIcI", 5, 2, 90},
    {"RI2.RrII", 6, 2, 0},  {"RI2.IFC", 6, 3, 90},   {"RI2.lakeV", 2, -1, 0},
};

// [AM fn 43] (needs the River II) The barn may stand on the volcano tile: R7 forbids followers there, and the
// barn is no follower (section 0). The lake's SW corner satisfies F1, so seat 0 may put its barn there; with
// volcano_no_follower=off a farmer is allowed too.
TEST(AbbeyMayor, AM_fn43_BarnMayStandOnTheVolcano) {
  for (bool no_follower : {true, false}) {
    SCOPED_TRACE(no_follower);
    Rules r = am_rules(2, kRiver2);
    if (!no_follower) r.set_option("volcano_no_follower", "off");
    Scenario sc(r, {{"BA.L", 1}});
    for (int n = 0; n < 10; ++n) play(sc, kVolcanoRiver[n].tile, kVolcanoRiver[n].x, kVolcanoRiver[n].y, kVolcanoRiver[n].rot);
    ASSERT_EQ(sc.state.turn_player(), 0);
    if (sc.state.phase() == Phase::kTurnStart) sc.state.apply(Action::pass());
    sc.draw("RI2.lakeV");
    sc.place(2, -1, 0);
    EXPECT_EQ(sc.state.phase(), Phase::kDeploy);
    EXPECT_TRUE(sc.legal(deploy_of("barn", "SW")));
    EXPECT_FALSE(sc.legal(deploy_of("barn", "NW")));
    EXPECT_EQ(sc.legal(deploy_of("follower", "NL")), !no_follower);
    if (sc.state.phase() == Phase::kDeploy && sc.legal(deploy_of("barn", "SW"))) {
      sc.apply(deploy_of("barn", "SW"));
      ASSERT_GE(sc.state.figure_node(0, kBarnSlot), 0);
      EXPECT_EQ(sc.state.node_tile(sc.state.figure_node(0, kBarnSlot)), sc.state.tile_at(2, -1));
    }
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// [AM fn 57, 58] (need the River II), option pig_herd_barn, F2 with the pig herd. Standard river with seat 1's
// farmer on the pig-herd field of II+ (turn 6). Then BA.C (3,-1) rot 180 closes CIRI's city, BA.C (0,-1) rot 90
// and (2,-1) rot 270 close the bridge city of CIcI; seat 0's BA.L (3,-2) takes its barn on the SW corner
// (II+, BA.C (2,-1), BA.C (3,-1), BA.L meet there), on the pig-herd farm, which touches those 2 completed
// cities. Barn placed: seat 1's farmer scores at once 2 x (3 + 1 for the pig herd) = 8 and returns. At the end
// the barn scores 4 per city, 8 (fn 57: the pig herd adds nothing to a barn), or 5 per city, 10 with
// pig_herd_barn=on (fn 58).
TEST(AbbeyMayor, AM_fn57_fn58_PigHerdAndTheBarn) {
  for (bool pig_barn : {false, true}) {
    SCOPED_TRACE(pig_barn);
    Rules r = am_rules(2, kRiver2);
    if (pig_barn) r.set_option("pig_herd_barn", "on");
    Scenario sc(r, {{"BA.C", 3}, {"BA.L", 1}});
    for (int n = 0; n < 11; ++n)
      play(sc, kRiver[n].tile, kRiver[n].x, kRiver[n].y, kRiver[n].rot, n == 5 ? "SL" : "");
    EXPECT_EQ(feature_at(sc.state, 2, -2, "SL").followers[1], 1);
    play(sc, "BA.C", 3, -1, 180);             // 12 s1
    play(sc, "BA.C", 0, -1, 90);              // 13 s0
    play(sc, "BA.C", 2, -1, 270);             // 14 s1
    EXPECT_TRUE(scores_are(sc, {0, 0}));
    play(sc, "BA.L", 3, -2, 0, "SW", "barn");  // 15 s0, the last tile
    EXPECT_EQ(sc.score(1, kFieldPoints), 8);
    EXPECT_EQ(sc.state.followers_in_supply(1), 7);
    decline_abbey_round(sc);
    ASSERT_TRUE(sc.state.is_terminal());
    EXPECT_EQ(sc.score(0, kBonusPoints), pig_barn ? 10 : 8);
    EXPECT_EQ(sc.score(0), pig_barn ? 10 : 8);
    EXPECT_EQ(sc.score(1), 8);
    EXPECT_EQ(sc.state.check_consistency(), "");
  }
}

// =============================================================================================================
// With the Count of Carcassonne: the barn and the City
// =============================================================================================================

// The Count's block replaces the start tile (CO.7 at (0,0), rows y=-1..1, x=-2..1; see rules_count_test.cpp).
// Its top ring field (north of CO.1's road, CO.2, CO.3, CO.4 west of its road) counts the City of Carcassonne
// as a completed city (C8); the right ring field starts east of CO.4's road. The "road pair" A = LR(90) (0,-2)
// (road W to its cloister, seat 0's thief) and B = LR(270) (-1,-2) (road E) makes a 2-tile road: seat 0 scores
// 2 on B's turn and seat 1, who scored nothing, gets the Count deploy (C3). Barn corner used below: CO.3 NE,
// CO.4 NW, A (0,-2) SE and RFr(90) (1,-2) SW (its road S runs into CO.4's gate), on the top field.
json count_deploy_of(const char* figure, const char* quarter) {
  return json{{"count_deploy", {{"figure", figure}, {"quarter", quarter}, {"count_to", nullptr}}}};
}
json count_pass() { return json{{"count_deploy", nullptr}}; }
json redeploy_to(const char* from, int x, int y, const char* at) {
  return json{{"redeploy", {{"from", from}, {"figure", "follower"}, {"to", json::array({x, y, at})}}}};
}
json redeploy_pass() { return json{{"redeploy", nullptr}}; }
void road_pair(Scenario& sc) {
  play(sc, "BA.LR", 0, -2, 90, "W");  // seat 0
  play(sc, "BA.LR", -1, -2, 270);     // seat 1: seat 0 scores 2
}

// [AM fn 41, 50] (need the Count; also CKR fn 11, 12, 19) The barn never goes into the City: at a Count deploy
// the mayor may go to the castle only, the wagon anywhere but the market, the barn nowhere. And a barn
// placement that makes another player score (seat 1's farmer on the top field: 3 for the City of
// Carcassonne) while its placer scores nothing gives the placer (seat 0) the Count deploy.
TEST(AbbeyMayor, AM_fn41_fn50_BarnNeverIntoTheCityButItsScoringAllowsACountDeploy) {
  Scenario sc(am_rules(2, kCount), {{"BA.LR", 2}, {"BA.L", 3}, {"BA.RFr", 1}});
  road_pair(sc);
  EXPECT_EQ(sc.score(0), 2);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_TRUE(sc.state.in_supply(1, Figure::kBarn));
  ActionList list;
  sc.state.legal_actions(list);
  std::set<std::pair<Figure, int>> choices;
  for (const Action& a : list)
    if (a.kind() == Action::kCountDeploy) choices.insert({a.figure(), a.quarter()});
  EXPECT_EQ(choices, (std::set<std::pair<Figure, int>>{
                         {Figure::kFollower, kCastle}, {Figure::kFollower, kMarket}, {Figure::kFollower, kBlacksmith},
                         {Figure::kFollower, kCathedral}, {Figure::kMayor, kCastle}, {Figure::kWagon, kCastle},
                         {Figure::kWagon, kBlacksmith}, {Figure::kWagon, kCathedral}}));
  for (const char* q : {"castle", "market", "blacksmith", "cathedral"}) EXPECT_FALSE(sc.legal(count_deploy_of("barn", q))) << q;
  sc.apply(count_pass());
  play(sc, "BA.L", 2, 0, 0);                  // 3 s0 (right field)
  play(sc, "BA.L", -2, -2, 0, "NL");          // 4 s1 farmer on the top field
  play(sc, "BA.RFr", 1, -2, 90, "SW", "barn");  // 5 s0
  EXPECT_EQ(sc.score(1, kFieldPoints), 3);
  EXPECT_EQ(sc.score(0), 2);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  EXPECT_EQ(sc.state.current_player(), 0);
  sc.apply(count_deploy_of("follower", "castle"));
  EXPECT_EQ(sc.state.followers_in_quarter(0, kCastle), 1);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [AM fn 48] (needs the Count; CKR fn 28) Placing a barn is a farm scoring: right after the barn and before the
// farmers are scored, the redeploy lap lets seat 1 move its market follower onto the barn's farm. Seat 0's farmer
// and seat 1's moved follower then tie on the top field and are scored as at the end (F2): 3 each for the City
// of Carcassonne; both return, seat 1's to its supply (not to the market).
TEST(AbbeyMayor, AM_fn48_MarketFollowerJoinsTheBarnPlacementScoring) {
  Scenario sc(am_rules(2, kCount), {{"BA.LR", 2}, {"BA.L", 3}, {"BA.RFr", 1}});
  road_pair(sc);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy_of("follower", "market"));  // seat 1
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
  play(sc, "BA.L", -2, -2, 0, "NL");  // 3 s0 farmer on the top field
  play(sc, "BA.L", 2, 0, 0);          // 4 s1
  sc.draw("BA.RFr");                  // 5 s0
  sc.place(1, -2, 90);
  sc.apply(deploy_of("barn", "SW"));
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  EXPECT_EQ(sc.score(0), 2);  // not scored yet
  EXPECT_TRUE(sc.legal(redeploy_to("market", -2, -2, "NL")));
  sc.apply(redeploy_to("market", 0, -1, "NL"));  // any tile of the farm
  if (sc.state.phase() == Phase::kRedeploy) sc.apply(redeploy_pass());
  EXPECT_TRUE(scores_are(sc, {3, 3}, kFieldPoints));
  EXPECT_TRUE(scores_are(sc, {5, 3}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  EXPECT_EQ(sc.state.phase(), Phase::kDraw);  // seat 0 scored: no Count deploy
  EXPECT_EQ(sc.state.turn_player(), 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// [AM fn 54] (needs the Count; CKR fn 27) Joining a farm with farmers to a barn's farm is a farm scoring too:
// seat 1 moves its market follower onto the joined farm, where it scores at once, 1 per city (F4), and returns:
// it is not on the farm at the final scoring. Seat 0's barn on the top field (no farmer there); seat 0's
// farmer on the right ring field (BA.L (2,0)); seat 1's LR (1,-3) ends the road of RFr (1,-2) at its cloister
// and joins both fields: seat 0 and seat 1 tie, 1 each (the City). Last tile; at the end seat 0's barn scores
// 4 for the City.
TEST(AbbeyMayor, AM_fn54_MarketFollowerAtAFarmJoinScoresOnePerCity) {
  Scenario sc(am_rules(2, kCount), {{"BA.LR", 3}, {"BA.L", 2}, {"BA.RFr", 1}});
  road_pair(sc);
  ASSERT_EQ(sc.state.phase(), Phase::kCountDeploy);
  sc.apply(count_deploy_of("follower", "market"));  // seat 1
  play(sc, "BA.L", 2, 0, 0, "NL");                  // 3 s0 farmer on the right field
  play(sc, "BA.L", -2, -2, 0);                      // 4 s1
  play(sc, "BA.RFr", 1, -2, 90, "SW", "barn");      // 5 s0: barn on the top field, nobody scored
  if (sc.state.phase() == Phase::kRedeploy) sc.apply(redeploy_pass());  // (an empty barn farm: seat 1 keeps it)
  EXPECT_TRUE(scores_are(sc, {2, 0}));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 1);
  ASSERT_EQ(sc.state.phase(), Phase::kDraw);
  sc.draw("BA.LR");                                 // 6 s1, the last tile
  sc.place(1, -3, 0);
  if (sc.state.phase() == Phase::kDeploy) sc.apply(no_deploy());
  ASSERT_EQ(sc.state.phase(), Phase::kRedeploy);
  EXPECT_EQ(sc.state.current_player(), 1);
  sc.apply(redeploy_to("market", 2, 0, "NL"));
  if (sc.state.phase() == Phase::kRedeploy) sc.apply(redeploy_pass());
  EXPECT_TRUE(scores_are(sc, {1, 1}, kFieldPoints));
  EXPECT_EQ(sc.state.followers_in_quarter(1, kMarket), 0);
  EXPECT_EQ(sc.state.followers_in_supply(1), 7);
  EXPECT_EQ(sc.state.followers_in_supply(0), 7);
  decline_abbey_round(sc);
  while (sc.state.phase() == Phase::kFinalRedeploy || sc.state.phase() == Phase::kCountDeploy)
    sc.apply(sc.state.phase() == Phase::kFinalRedeploy ? redeploy_pass() : count_pass());
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_EQ(sc.score(0, kBonusPoints), 4);
  EXPECT_EQ(sc.score(0), 2 + 1 + 4);
  EXPECT_EQ(sc.score(1), 1);
  EXPECT_EQ(sc.state.check_consistency(), "");
}

// =============================================================================================================
// Six players
// =============================================================================================================

// Smoke test: full Abbey & Mayor games with six players (71 base tiles + 12), every choice made at random from
// the legal actions (a fixed generator), except that an offered abbey is always placed. Checks the structure
// as it goes: decisions only for seats 0-5, the figures of each player, consistency, and a proper end.
TEST(AbbeyMayor, SixPlayersSmoke) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    State s(am_rules(6));
    EXPECT_EQ(s.tiles_left(), 71 + 12);
    for (int p = 0; p < 6; ++p) {
      EXPECT_TRUE(s.has_abbey(p));
      EXPECT_TRUE(s.in_supply(p, Figure::kMayor));
      EXPECT_TRUE(s.in_supply(p, Figure::kWagon));
      EXPECT_TRUE(s.in_supply(p, Figure::kBarn));
      EXPECT_EQ(s.followers_in_supply(p), 7);
    }
    uint64_t x = seed * 0x9E3779B97F4A7C15ull;
    auto next = [&x]() {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return x >> 33;
    };
    int steps = 0, abbeys = 0, wagon_moves = 0;
    std::set<Phase> phases;
    while (!s.is_terminal()) {
      phases.insert(s.phase());
      if (s.is_chance()) {
        s.apply(Action::draw(s.sample_draw_tile(next() % static_cast<uint64_t>(s.drawable_now()))));
      } else {
        const int p = s.current_player();
        ASSERT_GE(p, 0);
        ASSERT_LT(p, 6);
        ActionList list;
        s.legal_actions(list);
        ASSERT_GT(list.size, 0);
        Action a = list[static_cast<int>(next() % static_cast<uint64_t>(list.size))];
        for (const Action& b : list)
          if (b.kind() == Action::kAbbey) a = b;
        abbeys += a.kind() == Action::kAbbey;
        wagon_moves += a.kind() == Action::kWagon;
        s.apply(a);
      }
      if (++steps % 40 == 0) {
        ASSERT_EQ(s.check_consistency(), "") << "step " << steps;
      }
      ASSERT_LT(steps, 5000);
    }
    EXPECT_EQ(s.check_consistency(), "");
    EXPECT_EQ(s.tiles_left(), 0);
    EXPECT_GT(abbeys, 0);
    EXPECT_EQ(abbeys_on_board(s), abbeys);
    int holding = 0;
    for (int p = 0; p < 6; ++p) {
      holding += s.has_abbey(p);
      EXPECT_GE(s.score(p), 0);
    }
    EXPECT_EQ(holding + abbeys, 6);
    EXPECT_TRUE(phases.count(Phase::kTurnStart));
    EXPECT_TRUE(phases.count(Phase::kDeploy));
    (void)wagon_moves;
  }
}

}  // namespace
}  // namespace meeple::testing
