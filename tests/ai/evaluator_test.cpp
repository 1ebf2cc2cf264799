// Features and evaluators: exact feature values on small boards, the weight file format and its errors,
// and the one-ply players built on them.
#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/features.h"
#include "meeple/ai/player.h"

namespace meeple {
namespace {

using testing::rules_with;
using testing::Scenario;

std::array<float, kFeatureBufferSize> features_of(const State& s) {
  std::array<float, kFeatureBufferSize> f;
  f.fill(-12345.0f);  // every entry of the players' rows must be written
  extract_features(s, f);
  return f;
}
float feature(const std::array<float, kFeatureBufferSize>& f, int player, FeatureIndex i) { return f[player * kNumFeatures + i]; }

// The start tile (city N, road W-E) with BA.C and two BA.RFr to come: the cell north of it needs a city
// edge (only BA.C has one), the cells east and west need a road (both BA.RFr).
TEST(Features, FittingTilesCountRemainingCopiesThatMatchTheEdges) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
  const State& s = sc.state;
  for (int i = 0; i < s.frontier_size(); ++i) {
    const CellKey c = s.frontier_cell(i);
    SCOPED_TRACE(std::to_string(key_x(c)) + "," + std::to_string(key_y(c)));
    if (key_y(c) == -1) EXPECT_EQ(fitting_tiles(s, i), 1);
    else if (key_y(c) == 1) EXPECT_EQ(fitting_tiles(s, i), 3);  // south: field, every tile has a field edge
    else EXPECT_EQ(fitting_tiles(s, i), 2);
  }
}

// Seat 0 puts a thief on BA.RFr east of the start tile: a 2-tile road with open ends east and west.
// With only city caps left no tile can extend it: the thief is stuck (odds 0). With a straight road left
// it can be completed.
TEST(Features, StuckAndReturningFollowersFollowTheRemainingTiles) {
  {
    Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 2}});
    sc.turn("BA.RFr", 1, 0, 0, "E");
    const auto f = features_of(sc.state);
    EXPECT_EQ(feature(f, 0, kFeatStuck), 1);
    EXPECT_EQ(feature(f, 0, kFeatReturningLeft), 0);
    EXPECT_EQ(feature(f, 0, kFeatOpenLeads), 1);
    EXPECT_EQ(feature(f, 0, kFeatBoardPoints), 2);  // a 2-tile road if the game ended now
    EXPECT_EQ(feature(f, 0, kFeatScore), 0);
    EXPECT_FLOAT_EQ(feature(f, 0, kFeatTilesLeft), 0.5f);  // 2 tiles to come, 2 on the board
    EXPECT_FLOAT_EQ(feature(f, 0, kFeatSupplyLeft), 6 * 0.5f);
    EXPECT_FLOAT_EQ(feature(f, 1, kFeatSupplyLeft), 7 * 0.5f);
    EXPECT_EQ(feature(f, 1, kFeatStuck), 0);
    EXPECT_EQ(feature(f, 1, kFeatOpenLeads), 0);
    for (int p = 0; p < 2; ++p) EXPECT_EQ(feature(f, p, kFeatBias), 1);
  }
  {
    Scenario sc(rules_with(2), {{"BA.RFr", 3}});
    sc.turn("BA.RFr", 1, 0, 0, "E");
    const auto f = features_of(sc.state);
    EXPECT_EQ(feature(f, 0, kFeatStuck), 0);
    // Both ends fit both remaining straights: each end filled with 1 - (1 - 2/2)^1 = 1.
    EXPECT_FLOAT_EQ(feature(f, 0, kFeatReturningLeft), 1.0f * 2 / 4);
  }
}

// A city the player leads counts (tiles + pennants) x odds. BA.CFc turned north-south on the start city
// makes a 2-tile city open to the north, where both remaining BA.C fit (odds 1 - (1 - 2/2)^1 = 1).
TEST(Features, CityCompletionWeighsTheCityByItsOdds) {
  Scenario sc(rules_with(2), {{"BA.CFc", 1}, {"BA.C", 2}});
  sc.turn("BA.CFc", 0, -1, 90, "N");
  const auto f = features_of(sc.state);
  EXPECT_FLOAT_EQ(feature(f, 0, kFeatCityCompletion), 2.0f);
  EXPECT_EQ(feature(f, 0, kFeatBoardPoints), 2);
  EXPECT_FLOAT_EQ(feature(f, 0, kFeatReturningLeft), 0.5f);
  EXPECT_EQ(feature(f, 1, kFeatCityCompletion), 0);
}

TEST(Features, KingRobberAndSpecialFiguresPerPlayer) {
  Scenario sc(rules_with(3, kKingRobber | kAbbeyMayor | kCount), {{"BA.C", 1}, {"BA.RFr", 3}});
  const auto f = features_of(sc.state);
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(feature(f, p, kFeatKing), 0);
    // Mayor, wagon, barn and the abbey, all 4 in hand, x the fraction of tiles to come.
    EXPECT_FLOAT_EQ(feature(f, p, kFeatSpecialLeft), 4 * feature(f, p, kFeatTilesLeft));
    EXPECT_EQ(feature(f, p, kFeatQuarterFollowers), 0);
  }
}

TEST(Evaluators, EndNowIsTheScoreIfTheGameEndedNow) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 2}});
  sc.turn("BA.RFr", 1, 0, 0, "E");
  const PlayerValues v = EndNowEvaluator().evaluate(sc.state);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[1], 0);
}

TEST(Evaluators, LinearIsTheWeightedSumOfTheFeatures) {
  Scenario sc(rules_with(3, kKingRobber), {{"BA.RFr", 2}, {"BA.C", 2}});
  sc.turn("BA.RFr", 1, 0, 0, "E");
  const LinearEvaluator e = LinearEvaluator::hand_tuned();
  const auto f = features_of(sc.state);
  const PlayerValues v = e.evaluate(sc.state);
  for (int p = 0; p < 3; ++p) {
    double sum = 0;
    for (int i = 0; i < kNumFeatures; ++i) sum += e.weights()[i] * feature(f, p, static_cast<FeatureIndex>(i));
    EXPECT_NEAR(v[p], sum, 1e-4);
  }
  EXPECT_EQ(v[3], 0);
}

TEST(Evaluators, WeightFilesRoundTripAndCheckTheirRules) {
  LinearEvaluator::Weights w = LinearEvaluator::Weights::Zero();
  for (int i = 0; i < kNumFeatures; ++i) w[i] = 0.25f * static_cast<float>(i);
  const LinearEvaluator trained(w, "trained", kRiver2 | kKingRobber);
  const LinearEvaluator back = LinearEvaluator::from_json(trained.to_json(), "test.json");
  EXPECT_EQ(back.weights(), w);
  EXPECT_EQ(back.expansions(), kRiver2 | kKingRobber);
  EXPECT_NO_THROW(back.check_rules(rules_with(2, kRiver2 | kKingRobber)));
  try {
    back.check_rules(rules_with(2));
    FAIL() << "weights for river2+king_robber accepted for the base game";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("trained for river2,king_robber, not for this game's base game only"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(LinearEvaluator::hand_tuned().check_rules(rules_with(2, kCount)));
}

TEST(Evaluators, MalformedWeightFilesAreRefusedSayingWhy) {
  auto error_of = [](const std::string& text) {
    try {
      LinearEvaluator::from_json(text, "w.json");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  std::string names, weights;
  for (int i = 0; i < kNumFeatures; ++i) {
    names += std::string(i ? "," : "") + "\"" + kFeatureNames[i] + "\"";
    weights += std::string(i ? "," : "") + "1";
  }
  const std::string head = R"({"format":"meeple-evaluator/1","kind":"linear",)";
  EXPECT_EQ(error_of(head + R"("features":[)" + names + R"(],"weights":[)" + weights + "]}"), "accepted");
  EXPECT_NE(error_of("{").find("w.json: not JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"format":"other"})").find("format must be"), std::string::npos);
  EXPECT_NE(error_of(head + R"("features":["bias","nonsense"],"weights":[1,2]})").find("unknown feature 'nonsense'; the features are: bias, score"), std::string::npos);
  EXPECT_NE(error_of(head + R"("features":["bias"],"weights":[1]})").find("no weight for feature 'score'"), std::string::npos);
  EXPECT_NE(error_of(head + R"("features":["bias"],"weights":[1,2]})").find("1 feature names but 2 weights"), std::string::npos);
  EXPECT_NE(error_of(head + R"("features":[)" + names + R"(],"weights":[)" + weights + R"(],"expansions":["moon"]})").find("moon"), std::string::npos);
  EXPECT_THROW(make_evaluator("missing.json"), std::invalid_argument);
  EXPECT_THROW(make_evaluator("magic"), std::invalid_argument);
}

// The one-ply players take the immediate city (greedy) and, with the heuristic, still do.
TEST(OnePly, GreedyAndHeuristicCompleteTheCity) {
  for (const char* bot : {"greedy", "heuristic"}) {
    SCOPED_TRACE(bot);
    Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
    sc.draw("BA.C");
    auto player = make_player(bot, 3);
    ASSERT_EQ(sc.state.try_apply(player->choose(sc.state)), "");
    ASSERT_EQ(sc.state.try_apply(player->choose(sc.state)), "");
    EXPECT_EQ(sc.state.score(0, kCityPoints), 4);
  }
}

}  // namespace
}  // namespace meeple
