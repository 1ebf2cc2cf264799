// Features and evaluators: exact feature values on small boards, the weight file format and its errors,
// and the one-ply players built on them.
#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/features.h"
#include "meeple/ai/match.h"
#include "meeple/ai/player.h"
#include "meeple/random.h"

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

// Against the definition, on every frontier cell of random games with and without every expansion: the
// copies still to come of the tile types with a rotation whose edges meet the cell's requirement.
TEST(Features, FittingTilesMatchesTheDefinitionOnRandomBoards) {
  const TileCatalog& cat = TileCatalog::get();
  int cells = 0;
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor}}) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      State s(rules_with(3, expansions));
      Dealer dealer(seed);
      RandomPlayer bot(seed);
      while (!s.is_terminal()) {
        if (s.phase() == Phase::kPlace) {
          for (int i = 0; i < s.frontier_size(); ++i, ++cells) {
            const uint16_t req = s.frontier_requirement(i);
            int expected = 0;
            for (int t = 0; t < cat.size(); ++t)
              for (int r = 0; r < 4; ++r)
                if ((cat[t].rot[r].edge_word & req) == req) {
                  expected += s.remaining(t);
                  break;
                }
            ASSERT_EQ(fitting_tiles(s, i), expected) << "requirement " << req;
          }
        }
        s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
      }
    }
  }
  EXPECT_GT(cells, 10000);
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

// Against the definition (features.h), after every action of random games with and without every
// expansion. A cell where f of the L remaining tiles fit is filled with odds 1 - (1 - f/L)^max(1, L/players).
// An open city's or road's odds are the product over the distinct empty cells next to its open edges
// (found here by looking at every frontier cell's neighbours); a cloister's or shrine's over its empty
// neighbours, one not yet next to the board fitting half the tiles. Each figure on such a feature gives
// its owner odds x the fraction of tiles left (returning_left); an open city gives each of its leaders
// (tiles + pennants) x its odds (city_completion).
TEST(Features, CompletionOddsMatchTheDefinitionOnRandomBoards) {
  const TileCatalog& cat = TileCatalog::get();
  std::array<int, 3> valued{};  // cities, roads, buildings
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor}}) {
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      State s(rules_with(2 + static_cast<int>(seed % 3), expansions));
      Dealer dealer(seed);
      RandomPlayer bot(seed);
      while (!s.is_terminal()) {
        s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
        int left = 0;
        for (int t = 0; t < cat.size(); ++t) left += s.remaining(t);
        const double draws = std::max(1.0, static_cast<double>(left) / s.num_players());
        const double left_fraction = static_cast<double>(left) / (left + s.num_tiles());
        auto fill = [&](int fit) { return (left == 0 || fit == 0) ? 0.0 : 1 - std::pow(1 - static_cast<double>(fit) / left, draws); };
        auto linear_odds = [&](int root) {
          double odds = 1;
          for (int i = 0; i < s.frontier_size(); ++i) {
            bool next_to_it = false;
            for (int e = 0; e < 4; ++e) {
              const CellKey across = neighbour(s.frontier_cell(i), e);
              const int t = s.tile_at(key_x(across), key_y(across));
              if (t < 0) continue;
              const int seg = cat[s.tile(t).type].rot[s.tile(t).rotation].edge_segment[(e + 2) % 4];
              next_to_it = next_to_it || (seg != kNoSegment && s.feature_root(s.node(t, seg)) == root);
            }
            if (next_to_it) odds *= fill(fitting_tiles(s, i));
          }
          return odds;
        };
        auto building_odds = [&](int tile_index) {
          double odds = 1;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int x = s.tile(tile_index).x + dx, y = s.tile(tile_index).y + dy;
              if (s.tile_at(x, y) >= 0) continue;
              const int f = s.frontier_index(cell_key(x, y));
              odds *= f >= 0 ? fill(fitting_tiles(s, f)) : fill(left / 2);
            }
          return odds;
        };
        std::array<double, kMaxPlayers> city_completion{}, returning_left{};
        std::vector<int> seen;  // city roots already valued for their leaders
        for (int p = 0; p < s.num_players(); ++p)
          for (int slot = 0; slot < kFiguresPerPlayer; ++slot) {
            const int node = s.figure_node(p, slot);
            if (node < 0) continue;
            const FeatureInfo info = s.feature(node);
            const bool building = info.kind == SegmentKind::kCloister || info.kind == SegmentKind::kShrine;
            const bool linear = info.kind == SegmentKind::kCity || info.kind == SegmentKind::kRoad;
            if (!building && !linear) continue;
            const double odds = building ? building_odds(s.node_tile(node)) : info.open_edges > 0 ? linear_odds(s.feature_root(node)) : 0.0;
            ++valued[building ? 2 : info.kind == SegmentKind::kCity ? 0 : 1];
            if (slot != kBarnSlot) returning_left[p] += odds * left_fraction;
            const int root = s.feature_root(node);
            if (info.kind != SegmentKind::kCity || std::find(seen.begin(), seen.end(), root) != seen.end()) continue;
            seen.push_back(root);
            const int best = *std::max_element(info.followers.begin(), info.followers.begin() + s.num_players());
            for (int q = 0; best > 0 && q < s.num_players(); ++q)
              if (info.followers[q] == best) city_completion[q] += (info.tiles + info.pennants) * odds;
          }
        const auto f = features_of(s);
        for (int p = 0; p < s.num_players(); ++p) {
          const std::string where = "player " + std::to_string(p) + ", seed " + std::to_string(seed) + ", expansions " +
                                    std::to_string(expansions) + ", tiles " + std::to_string(s.num_tiles());
          ASSERT_NEAR(feature(f, p, kFeatCityCompletion), city_completion[p], 1e-4 * std::max(1.0, city_completion[p])) << where;
          ASSERT_NEAR(feature(f, p, kFeatReturningLeft), returning_left[p], 1e-4 * std::max(1.0, returning_left[p])) << where;
        }
      }
    }
  }
  for (int kind = 0; kind < 3; ++kind) EXPECT_GT(valued[kind], 1000) << "cities, roads, buildings: " << kind;
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

// What search values a leaf by: before the turn's tile is placed the evaluator's points as they stand; after
// it (a deploy in the base game) the best end of the turn for the player deciding, each way of ending it
// scored by the evaluator once the next tile is to be drawn; a finished game its scores.
TEST(Evaluators, LeafPointsFinishTheTurnOnceItsTileIsPlaced) {
  const auto evaluator = make_evaluator("trained");
  int deploys = 0, placements = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Rng rng(seed);
    State s(rules_with(2));
    while (!s.is_terminal()) {
      const PlayerValues leaf = leaf_points(*evaluator, s);
      if (s.phase() == Phase::kDeploy) {
        ++deploys;
        ActionList actions;
        s.legal_actions(actions);
        const int me = s.current_player();
        double best = -1e300;
        PlayerValues want{};
        for (const Action a : actions) {
          State next = s;
          next.apply(a);
          ASSERT_TRUE(next.is_chance() || next.is_terminal()) << "a base game turn ends with its deploy";
          const PlayerValues v = next.is_terminal() ? points_of(next) : evaluator->evaluate(next);
          if (margin(v, me, 2) > best) best = margin(v, me, 2), want = v;
        }
        EXPECT_EQ(leaf, want);
        EXPECT_EQ(leaf, turn_end_points(*evaluator, s));
      } else {
        placements += s.phase() == Phase::kPlace;
        EXPECT_EQ(leaf, evaluator->evaluate(s)) << to_string(s.phase());
      }
      s.apply(s.is_chance() ? Action::draw(s.sample_draw_tile(rng.below(static_cast<uint32_t>(s.drawable_now()))))
                            : s.sample_legal_action(rng));
    }
    EXPECT_EQ(leaf_points(*evaluator, s), points_of(s));
  }
  EXPECT_GT(deploys, 50);
  EXPECT_GT(placements, 100);
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

std::string error_of_check(const Evaluator& e, const Rules& rules) {
  try {
    e.check_rules(rules);
  } catch (const std::invalid_argument& err) {
    return err.what();
  }
  return "accepted";
}

TEST(Evaluators, WeightFilesRoundTripAndCheckTheirRules) {
  LinearEvaluator::Weights w = LinearEvaluator::Weights::Zero();
  for (int i = 0; i < kNumFeatures; ++i) w[i] = 0.25f * static_cast<float>(i);
  const Rules fitted = Rules::parse("players=2 expansions=river2,king_robber pig_herd=off");
  const LinearEvaluator trained(w, "fitted", fitted);
  const LinearEvaluator back = LinearEvaluator::from_json(trained.to_json(), "test.json");
  EXPECT_EQ(back.weights(), w);
  ASSERT_TRUE(back.trained_on().has_value());
  EXPECT_EQ(back.trained_on()->to_string(), fitted.to_string());
  // Another player count is fine; other expansions, or another value of an option in play, are not.
  EXPECT_EQ(error_of_check(back, Rules::parse("players=4 expansions=river2,king_robber pig_herd=off")), "accepted");
  EXPECT_EQ(error_of_check(back, Rules::parse("players=2")),
            "evaluator 'fitted' was fitted to 'expansions=river2,king_robber pig_herd=off', not to this game: the base "
            "game (default options); fit weights to these rules (python -m meeple train), or use the default "
            "evaluator 'trained'");
  EXPECT_NE(error_of_check(back, Rules::parse("players=2 expansions=river2,king_robber")).find("not to this game: "
            "'expansions=river2,king_robber'"), std::string::npos);
  // An option of an expansion not in the game is not in play.
  EXPECT_EQ(error_of_check(back, Rules::parse("players=2 expansions=river2,king_robber pig_herd=off count_move=follow")),
            "accepted");
  EXPECT_EQ(error_of_check(LinearEvaluator::hand_tuned(), rules_with(2, kCount)), "accepted");
}

TEST(Evaluators, PlayersRefuseWeightsFittedToOtherRules) {
  const std::string path = ::testing::TempDir() + "/river_weights.json";
  {
    std::ofstream out(path);
    out << LinearEvaluator(LinearEvaluator::hand_tuned().weights(), "river-only", rules_with(2, kRiver2)).to_json();
  }
  for (const std::string& bot : {"heuristic:eval=" + path, "mcts:iterations=10,eval=" + path}) {
    SCOPED_TRACE(bot);
    Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
    sc.draw("BA.C");
    const auto player = make_player(bot, 1);
    EXPECT_THROW(player->choose(sc.state), std::invalid_argument);
    EXPECT_THROW(check_games(rules_with(2), {GameSpec{{bot, "greedy"}, 1}}), std::invalid_argument);
    EXPECT_NO_THROW(check_games(rules_with(3, kRiver2), {GameSpec{{bot, "greedy", bot}, 1}}));
  }
}

// The default evaluator values each game with the shipped weights for its expansions, or with those of the
// smallest shipped set that contains them.
TEST(Evaluators, TrainedPicksTheShippedWeightsForTheGamesExpansions) {
  const TrainedEvaluator trained;
  ASSERT_GE(trained.sets().size(), 2u);
  const int all = (1 << kNumExpansions) - 1;
  EXPECT_EQ(trained.weights_for(0)->trained_on()->expansions, 0);
  EXPECT_EQ(trained.weights_for(all)->trained_on()->expansions, all);
  for (int mask = 0; mask <= all; ++mask) {
    const int got = trained.weights_for(mask)->trained_on()->expansions;
    EXPECT_EQ(got & mask, mask) << mask;
    for (const auto& set : trained.sets()) {
      const int other = set->trained_on()->expansions;
      if ((other & mask) == mask) {
        EXPECT_LE(std::popcount(static_cast<unsigned>(got)), std::popcount(static_cast<unsigned>(other)));
      }
    }
  }
  Scenario sc(rules_with(2, kRiver2), {{"BA.RFr", 2}, {"BA.C", 2}});
  const PlayerValues v = trained.evaluate(sc.state), expect = trained.weights_for(kRiver2)->evaluate(sc.state);
  EXPECT_EQ(v, expect);
  EXPECT_EQ(make_evaluator("trained").get(), make_evaluator("trained").get()) << "the shipped weights are parsed once";
}

// One linear layer: values differ between seats exactly as the linear evaluator's with the same weights.
TEST(Evaluators, AnMlpWithOneLayerRanksSeatsLikeTheLinearEvaluator) {
  Scenario sc(rules_with(3, kKingRobber), {{"BA.RFr", 2}, {"BA.C", 2}});
  sc.turn("BA.RFr", 1, 0, 0, "E");
  const LinearEvaluator linear = LinearEvaluator::hand_tuned();
  MlpEvaluator::Layer layer{linear.weights().transpose(), Eigen::VectorXf::Constant(1, 5.0f)};
  const MlpEvaluator mlp({layer}, "one-layer", std::nullopt);
  const PlayerValues a = linear.evaluate(sc.state), b = mlp.evaluate(sc.state);
  for (int p = 1; p < 3; ++p) EXPECT_NEAR(b[p] - b[0], a[p] - a[0], 1e-4);
  EXPECT_NEAR(b[0] + b[1] + b[2], 3 * 5.0 * 2 / 3, 1e-3) << "relative values sum to the bias times (n - 1)";
}

TEST(Evaluators, MlpComputesTanhLayersOnRelativeFeaturesAndRoundTrips) {
  Scenario sc(rules_with(2), {{"BA.RFr", 2}, {"BA.C", 2}});
  sc.turn("BA.RFr", 1, 0, 0, "E");
  Eigen::MatrixXf w1 = Eigen::MatrixXf::Zero(2, kNumFeatures);
  w1(0, kFeatScore) = 0.1f;
  w1(1, kFeatSupplyLeft) = -0.2f;
  w1(1, kFeatBoardPoints) = 0.05f;
  Eigen::MatrixXf w2(1, 2);
  w2 << 3.0f, -4.0f;
  const MlpEvaluator mlp({{w1, Eigen::Vector2f(0.5f, -0.1f)}, {w2, Eigen::VectorXf::Constant(1, 1.0f)}}, "tiny",
                         Rules::parse("players=2"));
  const auto f = features_of(sc.state);
  for (int p = 0; p < 2; ++p) {
    auto rel = [&](FeatureIndex i) { return feature(f, p, i) - feature(f, 1 - p, i); };
    const double h0 = std::tanh(0.5 + 0.1 * rel(kFeatScore));
    const double h1 = std::tanh(-0.1 - 0.2 * rel(kFeatSupplyLeft) + 0.05 * rel(kFeatBoardPoints));
    EXPECT_NEAR(mlp.evaluate(sc.state)[p], (3 * h0 - 4 * h1 + 1) / 2, 1e-4) << p;
  }
  const auto back = evaluator_from_json(mlp.to_json(), "mlp.json");
  EXPECT_EQ(back->name(), "tiny");
  EXPECT_EQ(back->evaluate(sc.state), mlp.evaluate(sc.state));
  EXPECT_THROW(back->check_rules(rules_with(2, kCount)), std::invalid_argument);
  // Shapes are checked with what was expected.
  try {
    MlpEvaluator({{Eigen::MatrixXf::Zero(1, 3), Eigen::VectorXf::Zero(1)}}, "bad", std::nullopt);
    FAIL() << "a first layer with 3 inputs was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "layer 0 has 1x3 weights and 1 biases; expected 16 inputs, 1 output (the last layer)");
  }
  EXPECT_THROW(MlpEvaluator({{Eigen::MatrixXf::Zero(65, kNumFeatures), Eigen::VectorXf::Zero(65)},
                             {Eigen::MatrixXf::Zero(1, 65), Eigen::VectorXf::Zero(1)}}, "wide", std::nullopt),
               std::invalid_argument);
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
  EXPECT_NE(error_of(head + R"("features":[)" + names + R"(],"weights":[1,2]})").find("16 feature names but 2 weights"), std::string::npos);
  EXPECT_NE(error_of(head + R"("features":[)" + names + R"(],"weights":[)" + weights + R"(],"rules":"expansions=moon"})").find("w.json: rules: unknown expansion 'moon'"), std::string::npos);
  EXPECT_NE(error_of(head + R"("name":3,"features":[)" + names + R"(],"weights":[)" + weights + "]}").find("w.json: name must be a string"),
            std::string::npos);
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
