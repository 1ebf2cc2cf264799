// Policy networks: action features describe every kind of decision of every expansion, priors are a
// distribution over exactly the legal actions, weight files round-trip and are refused with clear errors,
// and MCTS follows the priors it is given.
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/policy.h"

namespace meeple {
namespace {

using testing::rules_with;
using testing::Scenario;

constexpr uint8_t kAll = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;

// A network whose logit is the dot product of `weights` with the action features (one linear layer).
PolicyNet linear_policy(const std::array<float, kNumActionFeatures>& weights, std::optional<Rules> rules = std::nullopt) {
  PolicyNet::Layer layer;
  layer.weights = Eigen::Map<const Eigen::Matrix<float, 1, kNumActionFeatures>>(weights.data());
  layer.bias = Eigen::VectorXf::Zero(1);
  return PolicyNet({layer}, "linear-test", std::move(rules));
}

// A small two-layer network with fixed pseudo-random weights.
PolicyNet two_layer_policy() {
  PolicyNet::Layer hidden, out;
  hidden.weights.resize(8, kNumActionFeatures);
  hidden.bias.resize(8);
  out.weights.resize(1, 8);
  out.bias.resize(1);
  uint32_t x = 12345;
  auto next = [&] {
    x = x * 1664525u + 1013904223u;
    return static_cast<float>(x >> 8) / static_cast<float>(1 << 24) - 0.5f;
  };
  for (int i = 0; i < hidden.weights.size(); ++i) hidden.weights.data()[i] = next();
  for (int i = 0; i < 8; ++i) hidden.bias[i] = next(), out.weights(0, i) = 2 * next();
  out.bias[0] = 0;
  return PolicyNet({hidden, out}, "two-layer-test", std::nullopt);
}

// Which of the kind columns is set for an action.
int kind_column(const float* row) {
  int column = -1, set = 0;
  for (int c : {kActPass, kActPlace, kActAbbey, kActFollower, kActSpecial, kActMove})
    if (row[c] != 0) column = c, ++set;
  return set == 1 ? column : -1;
}

int expected_kind(Action a) {
  switch (a.kind()) {
    case Action::kPass: return kActPass;
    case Action::kPlace: return kActPlace;
    case Action::kAbbey: return kActAbbey;
    case Action::kDeploy: return a.figure() == Figure::kFollower ? kActFollower : kActSpecial;
    default: return kActMove;
  }
}

TEST(Policy, PriorsAreADistributionOverTheLegalActionsInEveryPhaseOfEveryExpansion) {
  const PolicyNet net = two_layer_policy();
  std::set<Phase> phases;
  std::set<int> kinds;
  for (int expansions : {0, int{kAll}, int{kAbbeyMayor}, int{kCount | kKingRobber}, int{kRiver2 | kCultPlaces}}) {
    for (int players = 2; players <= 6; players += 2) {
      const Rules rules = rules_with(players, static_cast<uint8_t>(expansions));
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        State s(rules);
        Rng rng(seed);
        while (!s.is_terminal()) {
          if (s.is_chance()) {
            s.apply(Action::draw(s.sample_draw_tile(rng.below(static_cast<uint32_t>(s.drawable_now())))));
            continue;
          }
          ActionList actions;
          s.legal_actions(actions);
          const State before = s;
          std::vector<float> rows(static_cast<size_t>(actions.size * kNumActionFeatures));
          extract_action_features(s, actions, rows);
          std::vector<float> priors(static_cast<size_t>(actions.size), -1.0f);
          net.priors(s, actions, priors);
          ASSERT_TRUE(s == before) << "describing the actions changed the state";
          double sum = 0;
          for (int i = 0; i < actions.size; ++i) {
            const float* row = rows.data() + i * kNumActionFeatures;
            for (int c = 0; c < kNumActionFeatures; ++c)
              ASSERT_TRUE(std::isfinite(row[c])) << kActionFeatureNames[c] << " of " << actions[i].to_string();
            ASSERT_EQ(kind_column(row), expected_kind(actions[i])) << actions[i].to_string() << " in " << to_string(s.phase());
            ASSERT_EQ(row[kActBias], 1.0f);
            // The prior is the softmax of the logit of this very row: nothing else is read.
            ASSERT_GT(priors[static_cast<size_t>(i)], 0.0f);
            sum += priors[static_cast<size_t>(i)];
            kinds.insert(expected_kind(actions[i]));
          }
          ASSERT_NEAR(sum, 1.0, 1e-5);
          for (int i = 0; i < actions.size; ++i)
            for (int j = 0; j < actions.size; ++j) {
              const float li = net.logit(std::span<const float>(rows.data() + i * kNumActionFeatures, kNumActionFeatures));
              const float lj = net.logit(std::span<const float>(rows.data() + j * kNumActionFeatures, kNumActionFeatures));
              ASSERT_NEAR(priors[static_cast<size_t>(i)] / priors[static_cast<size_t>(j)], std::exp(li - lj),
                          1e-3 * std::exp(li - lj));
              if (j > 2) break;  // a few pairs per action are enough
            }
          phases.insert(s.phase());
          // Abbeys are kept for the end (the abbey round) when there is one.
          s.apply(s.phase() == Phase::kTurnStart ? Action::pass() : actions[static_cast<int>(rng.below(static_cast<uint32_t>(actions.size)))]);
        }
      }
    }
  }
  for (Phase p : {Phase::kTurnStart, Phase::kPlace, Phase::kDeploy, Phase::kWagonMove, Phase::kAbbeyRound, Phase::kRedeploy,
                  Phase::kCountDeploy, Phase::kFinalRedeploy})
    EXPECT_TRUE(phases.count(p)) << "no decision seen in phase " << to_string(p);
  EXPECT_EQ(kinds.size(), 6u) << "every kind of action is described";
}

std::vector<float> features_of(const State& s, ActionList& actions) {
  s.legal_actions(actions);
  std::vector<float> rows(static_cast<size_t>(actions.size * kNumActionFeatures));
  extract_action_features(s, actions, rows);
  return rows;
}

TEST(Policy, PlacementFeaturesSayWhoseFeaturesTheTileJoins) {
  Scenario sc(rules_with(2), {{"BA.RFr", 3}, {"BA.C", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "E");  // seat 0: a follower on the road east of the start
  sc.draw("BA.RFr");                // seat 1 to place
  ActionList actions;
  const std::vector<float> rows = features_of(sc.state, actions);
  bool extends = false;
  for (int i = 0; i < actions.size; ++i) {
    const float* row = rows.data() + i * kNumActionFeatures;
    EXPECT_EQ(row[kActPlace], 1.0f);
    EXPECT_NEAR(row[kActTilesLeft], 2.0f / 4.0f, 1e-6) << "2 tiles to come, 2 on the board";
    EXPECT_NEAR(row[kActSupply], 1.0f, 1e-6) << "seat 1 has its 7 followers";
    EXPECT_EQ(row[kActJoinsOwn], 0.0f) << "seat 1 has no figure on the board";
    EXPECT_EQ(row[kActScoreGain] + row[kActOthersScoreGain], 0.0f) << "nothing scores before the deploy";
    if (actions[i] == Action::place(2, 0, 0)) {
      extends = true;
      EXPECT_EQ(row[kActJoinsOthers], 1.0f) << "seat 0's road";
      EXPECT_NEAR(row[kActOthersBoardGain], 0.1f, 1e-6) << "seat 0's road grows by a tile: a point";
      EXPECT_EQ(row[kActBoardGain], 0.0f);
      EXPECT_NEAR(row[kActNeighbours], 1.0f / 8.0f, 1e-6);
      EXPECT_EQ(row[kActFreeRoad], 0.0f) << "the tile's road is seat 0's";
    }
  }
  EXPECT_TRUE(extends) << "place(2,0,0) is legal";
}

TEST(Policy, DeployFeaturesNameTheTargetAndWhatItScores) {
  Scenario sc(rules_with(2), {{"BA.C", 2}});
  sc.draw("BA.C");
  ActionList placements;
  const std::vector<float> placed = features_of(sc.state, placements);
  for (int i = 0; i < placements.size; ++i)
    if (placements[i] == Action::place(0, -1, 2)) {
      EXPECT_EQ(placed[static_cast<size_t>(i * kNumActionFeatures + kActFreeCity)], 0.0f) << "the city it closes is complete";
      EXPECT_EQ(placed[static_cast<size_t>(i * kNumActionFeatures + kActCompletesOwn)], 0.0f) << "nobody leads it";
    }
  sc.place(0, -1, 180);  // closes the start's city: a follower there scores 4 at once
  ActionList actions;
  const std::vector<float> rows = features_of(sc.state, actions);
  int cities = 0, passes = 0;
  for (int i = 0; i < actions.size; ++i) {
    const float* row = rows.data() + i * kNumActionFeatures;
    if (actions[i] == Action::pass()) {
      ++passes;
      EXPECT_EQ(row[kActScoreGain], 0.0f);
      EXPECT_EQ(row[kActSupplyChange], 0.0f);
      continue;
    }
    EXPECT_EQ(row[kActFollower], 1.0f);
    EXPECT_EQ(row[kActCity] + row[kActRoad] + row[kActField] + row[kActBuilding], 1.0f);
    if (row[kActCity] == 1) {
      ++cities;
      EXPECT_NEAR(row[kActScoreGain], 0.4f, 1e-6) << "a complete city of 2 tiles";
      EXPECT_EQ(row[kActSupplyChange], 0.0f) << "the follower comes back at once";
      EXPECT_NEAR(row[kActTargetSize], 0.2f, 1e-6);
      EXPECT_EQ(row[kActTargetOpen], 0.0f);
    } else {
      EXPECT_EQ(row[kActField], 1.0f);
      EXPECT_EQ(row[kActSupplyChange], -1.0f) << "a farmer stays";
    }
  }
  EXPECT_EQ(passes, 1);
  EXPECT_EQ(cities, 1);
}

TEST(Policy, WeightFilesRoundTripAndBadOnesAreRefusedWithTheReason) {
  const PolicyNet net = two_layer_policy();
  const PolicyNet again = PolicyNet::from_json(net.to_json(), "again");
  const State s = testing::random_position(rules_with(3, kAll), 5, 40);
  ASSERT_FALSE(s.is_chance());
  ActionList actions;
  s.legal_actions(actions);
  std::vector<float> a(static_cast<size_t>(actions.size)), b(static_cast<size_t>(actions.size));
  net.priors(s, actions, a);
  again.priors(s, actions, b);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-6);

  auto error_of = [](const std::string& text) {
    try {
      PolicyNet::from_json(text, "bad.json");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto doc = nlohmann::json::parse(net.to_json());
  EXPECT_NE(error_of("{").find("bad.json: not JSON"), std::string::npos);
  EXPECT_NE(error_of(R"({"format": "meeple-evaluator/1"})").find("meeple-policy/1"), std::string::npos);
  auto renamed = doc;
  renamed["action_features"][3] = "something";
  EXPECT_NE(error_of(renamed.dump()).find("train the policy again"), std::string::npos);
  auto wide = doc;
  wide["layers"][1]["weights"][0].push_back(1.0);
  EXPECT_NE(error_of(wide.dump()).find("layer 1 has 1x9 weights"), std::string::npos) << error_of(wide.dump());
  auto text = doc;
  text["layers"][0]["bias"][0] = "x";
  EXPECT_NE(error_of(text.dump()).find("layers[0].bias[0] is not a number"), std::string::npos);
  auto rules = doc;
  rules["rules"] = "players=2 expansions=nonsense";
  EXPECT_NE(error_of(rules.dump()).find("bad.json: rules:"), std::string::npos);

  const PolicyNet base_only = linear_policy({}, rules_with(2));
  EXPECT_NO_THROW(base_only.check_rules(rules_with(4)));
  try {
    base_only.check_rules(rules_with(2, kAbbeyMayor));
    ADD_FAILURE() << "a base-game policy accepted an Abbey & Mayor game";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("policy 'linear-test' was fitted to"), std::string::npos) << e.what();
  }
}

TEST(Policy, MctsFollowsThePriors) {
  // A network that prefers passing above all: the first simulations go to the pass of a deploy decision,
  // whichever order the actions come in.
  std::array<float, kNumActionFeatures> w{};
  w[kActPass] = 30;
  Scenario sc(rules_with(2), {{"BA.RFr", 3}});
  sc.draw("BA.RFr");
  sc.place(1, 0, 0);
  ASSERT_EQ(sc.state.phase(), Phase::kDeploy);
  MctsOptions o;
  o.policy = std::make_shared<const PolicyNet>(linear_policy(w));
  o.puct = true;
  o.iterations = 3;
  o.reuse_tree = false;
  MctsPlayer player(o);
  player.choose(sc.state);
  for (const auto& c : player.last_root()) EXPECT_EQ(c.visits > 0, c.action == Action::pass()) << c.action.to_string();
  EXPECT_EQ(player.verify_tree(), "");

  // The same network with the pass weight negated: pass is never tried in 3 simulations.
  w[kActPass] = -30;
  o.policy = std::make_shared<const PolicyNet>(linear_policy(w));
  MctsPlayer avoider(o);
  avoider.choose(sc.state);
  for (const auto& c : avoider.last_root()) {
    if (c.action == Action::pass()) {
      EXPECT_EQ(c.visits, 0);
    }
  }
}

TEST(Policy, GuidedSearchIsReproducibleAndItsRulesAreChecked) {
  auto policy = std::make_shared<const PolicyNet>(two_layer_policy());
  const State s = testing::random_position(rules_with(2, kAbbeyMayor), 11, 30);
  MctsOptions o;
  o.policy = policy;
  o.puct = true;
  o.iterations = 400;
  MctsPlayer a(o), b(o);
  EXPECT_EQ(a.choose(s), b.choose(s));
  ASSERT_EQ(a.last_root().size(), b.last_root().size());
  for (size_t i = 0; i < a.last_root().size(); ++i) EXPECT_EQ(a.last_root()[i].visits, b.last_root()[i].visits);
  EXPECT_EQ(a.verify_tree(), "");

  o.policy = std::make_shared<const PolicyNet>(linear_policy({}, rules_with(2)));
  MctsPlayer base_only(o);
  EXPECT_THROW(base_only.check_rules(rules_with(2, kAbbeyMayor)), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:policy=/nonexistent/policy.json", 1), std::invalid_argument);
}

TEST(Policy, TwoThreadsShareAGuidedTree) {
  MctsOptions o;
  o.policy = std::make_shared<const PolicyNet>(two_layer_policy());
  o.puct = true;
  o.iterations = 2000;
  o.threads = 2;
  const State s = testing::random_position(rules_with(3, kAll), 3, 25);
  MctsPlayer player(o);
  const Action a = player.choose(s);
  EXPECT_TRUE(s.is_legal(a));
  EXPECT_EQ(player.verify_tree(), "");
  EXPECT_EQ(player.last_iterations(), 2000);
}

TEST(Policy, ShippedNetworksCoverEveryExpansionSet) {
  const auto shipped = std::dynamic_pointer_cast<const TrainedPolicy>(make_policy("trained"));
  ASSERT_TRUE(shipped);
  EXPECT_EQ(make_policy("trained"), make_policy("trained")) << "parsed once";
  // The base game has a network of its own; any expansion falls back to the one trained on all of them.
  ASSERT_TRUE(shipped->weights_for(0)->trained_on());
  EXPECT_EQ(shipped->weights_for(0)->trained_on()->expansions, 0);
  EXPECT_EQ(shipped->weights_for(kAll)->trained_on()->expansions, kAll);
  EXPECT_EQ(shipped->weights_for(kCount), shipped->weights_for(kAll));
  for (int e = 0; e <= kAll; ++e) EXPECT_NO_THROW(shipped->check_rules(rules_with(2, static_cast<uint8_t>(e))));
  // Each decision is given its own game's network.
  const State base = testing::random_position(rules_with(2), 4, 20);
  const State abbey = testing::random_position(rules_with(2, kAbbeyMayor), 4, 20);
  for (const State* s : {&base, &abbey}) {
    ActionList actions;
    s->legal_actions(actions);
    std::vector<float> got(static_cast<size_t>(actions.size)), want(got.size());
    shipped->priors(*s, actions, got);
    shipped->weights_for(s->rules().expansions)->priors(*s, actions, want);
    EXPECT_EQ(got, want);
  }
  try {
    make_policy("uniform");
    ADD_FAILURE() << "an unknown policy was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("policies are trained"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace meeple
