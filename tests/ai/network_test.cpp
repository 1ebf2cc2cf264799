// Policy-value networks (docs/networks.md): the batched evaluation equals the plain reference on positions
// of random games, a net with a few hand-set weights gives the numbers computed by hand, every refusal of
// the spec names its reason, and MCTS searches with a network in batches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "../core/scenario.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/network.h"
#include "search_games.h"

namespace meeple {
namespace {

using testing::rules_with;
using testing::Scenario;

constexpr uint8_t kAll = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;

NetworkShape shape_of(int channels, int residual, int flat_hidden, int global_hidden, bool hand) {
  NetworkShape s;
  s.channels = channels;
  s.residual = residual;
  s.flat_hidden = flat_hidden;
  s.global_hidden = global_hidden;
  s.hand_features = hand;
  return s;
}

NetworkShape with_value_base(NetworkShape shape) {
  shape.value_base = "trained";
  return shape;
}

std::shared_ptr<const PolicyValueNet> random_net(const Rules& rules, const NetworkShape& shape, uint64_t seed) {
  return std::make_shared<const PolicyValueNet>(PolicyValueNet::from_json(random_network_json(rules, shape, seed), "random.json"));
}

// Every position of `games` random games that is not finished: decisions and tile draws.
std::vector<State> positions(const Rules& rules, int games, int every = 1) {
  std::vector<State> out;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(games); ++seed) {
    Dealer dealer(seed);
    RandomPlayer bot(seed);
    State s(rules);
    for (int i = 0; !s.is_terminal(); ++i) {
      if (i % every == 0) out.push_back(s);
      s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
    }
  }
  return out;
}

// The priors the spec defines, from the reference's logit vector.
std::vector<float> reference_priors(const State& s, const ActionList& actions, const std::vector<float>& logits) {
  std::vector<double> x;
  double low = std::numeric_limits<double>::infinity();
  for (const Action a : actions) {
    const int id = Encoding::id_of(s, a);
    x.push_back(id < 0 ? std::nan("") : logits[static_cast<size_t>(id)]);
    EXPECT_TRUE(id < 0 || std::isfinite(logits[static_cast<size_t>(id)])) << "a legal action's logit is not computed: " << a.to_string();
    if (id >= 0) low = std::min(low, x.back());
  }
  double high = -std::numeric_limits<double>::infinity(), sum = 0;
  for (double& v : x) high = std::max(high, v = std::isnan(v) ? low : v);
  for (double& v : x) sum += (v = std::exp(v - high));
  std::vector<float> out;
  for (const double v : x) out.push_back(static_cast<float>(v / sum));
  return out;
}

// (a, b) The batched path (batches of several sizes, mixing decisions and tile draws) gives the reference's
// values and priors, positive and summing to 1, on the positions of random games.
TEST(Network, BatchedEvaluationEqualsTheReference) {
  struct Case {
    Rules rules;
    NetworkShape shape;
    int games, every;
  };
  const Case cases[] = {
      {rules_with(2), shape_of(8, 2, 16, 12, true), 4, 3},
      {rules_with(3, kAll), shape_of(6, 1, 10, 8, true), 2, 4},
      {rules_with(2, kRiver2 | kAbbeyMayor), shape_of(5, 0, 3, 7, false), 2, 5},
      {rules_with(2), with_value_base(shape_of(8, 1, 16, 12, true)), 3, 3},
      {rules_with(3, kAll), with_value_base(shape_of(6, 1, 10, 8, true)), 2, 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rules.to_string() + " value base '" + c.shape.value_base + "'");
    const auto net = random_net(c.rules, c.shape, 11);
    const std::vector<State> all = positions(c.rules, c.games, c.every);
    ASSERT_GT(all.size(), 60u);
    PolicyValueNet::Workspace workspace(*net, 16);
    struct Result {
      ActionList actions;
      std::array<float, kMaxActions> priors;
      PlayerValues values;
    };
    std::vector<Result> results(16);
    std::vector<PolicyValueNet::Query> queries(16);
    int decisions = 0;
    for (size_t first = 0, size = 1; first < all.size(); first += size, size = (size + 5) % 16 + 1) {
      const size_t n = std::min(size, all.size() - first);
      for (size_t i = 0; i < n; ++i) {
        const State& s = all[first + i];
        Result& r = results[i];
        if (!s.is_chance()) s.legal_actions(r.actions);
        queries[i] = {&s, s.is_chance() ? nullptr : &r.actions, r.priors.data(), &r.values};
      }
      net->evaluate(std::span(queries.data(), n), workspace);
      for (size_t i = 0; i < n; ++i) {
        const State& s = all[first + i];
        const Result& r = results[i];
        const PolicyValueNet::Outputs ref = net->evaluate_reference(s);
        const int observer = PolicyValueNet::observer_of(s), players = s.num_players();
        for (int k = 0; k < players; ++k) EXPECT_NEAR(r.values[static_cast<size_t>((observer + k) % players)], ref.values[static_cast<size_t>(k)], 1e-5);
        for (int p = players; p < kMaxPlayers; ++p) EXPECT_EQ(r.values[static_cast<size_t>(p)], 0.0);
        if (s.is_chance()) continue;
        ++decisions;
        const std::vector<float> want = reference_priors(s, r.actions, ref.logits);
        float sum = 0;
        for (int a = 0; a < r.actions.size; ++a) {
          EXPECT_NEAR(r.priors[static_cast<size_t>(a)], want[static_cast<size_t>(a)], 1e-5) << r.actions[a].to_string();
          EXPECT_GT(r.priors[static_cast<size_t>(a)], 0.0f);
          sum += r.priors[static_cast<size_t>(a)];
        }
        EXPECT_NEAR(sum, 1.0f, 1e-5);
      }
    }
    EXPECT_GT(decisions, 40);
  }
}

// A net with a value base and a zero value head values every position exactly as the evaluator values a
// search leaf (tanh of each seat's margin of leaf_points over the reward scale), in the batched path and the
// reference; the head's output is added before the tanh.
TEST(Network, AValueBaseStartsFromTheEvaluatorsLeafValues) {
  for (const Rules& rules : {rules_with(2), rules_with(3, kAll)}) {
    SCOPED_TRACE(rules.to_string());
    nlohmann::json j = nlohmann::json::parse(random_network_json(rules, with_value_base(shape_of(6, 1, 8, 8, true)), 3));
    for (const char* name : {"value/kernel", "value/bias"})
      for (auto& v : j["tensors"][name]["data"]) v = 0.0;
    const PolicyValueNet zero = PolicyValueNet::from_json(j.dump(), "zero head");
    j["tensors"]["value/bias"]["data"][0] = 0.5;  // the observer's head output
    const PolicyValueNet shifted = PolicyValueNet::from_json(j.dump(), "shifted head");
    const auto evaluator = make_evaluator("trained");
    PolicyValueNet::Workspace workspace(zero, 1), shifted_workspace(shifted, 1);
    int deploys = 0;
    for (const State& s : positions(rules, 2)) {
      const PlayerValues points = leaf_points(*evaluator, s);
      const int n = s.num_players(), observer = PolicyValueNet::observer_of(s);
      PlayerValues values, shifted_values;
      const PolicyValueNet::Query query{&s, nullptr, nullptr, &values}, shifted_query{&s, nullptr, nullptr, &shifted_values};
      zero.evaluate(std::span(&query, 1), workspace);
      shifted.evaluate(std::span(&shifted_query, 1), shifted_workspace);
      const PolicyValueNet::Outputs ref = zero.evaluate_reference(s);
      for (int p = 0; p < n; ++p) {
        const double want = std::tanh(margin(points, p, n) / zero.reward_scale());
        EXPECT_NEAR(values[static_cast<size_t>(p)], want, 1e-6);
        EXPECT_NEAR(ref.values[static_cast<size_t>((p - observer + n) % n)], want, 1e-6);
        const double head = p == observer ? 0.5 : 0.0;
        EXPECT_NEAR(shifted_values[static_cast<size_t>(p)], std::tanh(margin(points, p, n) / zero.reward_scale() + head), 1e-6);
      }
      deploys += s.phase() == Phase::kDeploy;
    }
    EXPECT_GT(deploys, 10);  // positions where the base finishes the turn
  }
}

// The reference's logits: -infinity exactly at the placements and abbeys off the candidate cells, finite
// everywhere else; the values are in (-1, 1).
TEST(Network, ReferenceComputesTheIdsOfTheCandidateCells) {
  const Rules rules = rules_with(2, kAbbeyMayor);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 3);
  const State s = testing::random_position(rules, 4, 30);
  const PolicyValueNet::Outputs out = net->evaluate_reference(s);
  ASSERT_EQ(out.values.size(), 2u);
  for (const float v : out.values) EXPECT_LT(std::abs(v), 1.0f);
  ASSERT_EQ(out.logits.size(), static_cast<size_t>(Encoding::num_action_ids()));
  std::vector<uint8_t> planes(static_cast<size_t>(net->encoding().plane_size()));
  std::vector<float> flat(static_cast<size_t>(net->encoding().flat_size()));
  net->encoding().observe(s, s.current_player(), planes.data(), flat.data());
  int candidates = 0;
  for (int c = 0; c < kWindowCells; ++c) {
    const bool in = planes[static_cast<size_t>(Encoding::kFrontier * kWindowCells + c)] || planes[static_cast<size_t>(Encoding::kLastPlaced * kWindowCells + c)];
    candidates += in;
    for (int r = 0; r < 4; ++r) EXPECT_EQ(std::isfinite(out.logits[static_cast<size_t>(action_id::kPlace + 4 * c + r)]), in);
    EXPECT_EQ(std::isfinite(out.logits[static_cast<size_t>(action_id::kAbbey + c)]), in);
  }
  EXPECT_EQ(candidates, s.frontier_size() + (s.last_tile() >= 0));
  for (int id = action_id::kDeploy; id < action_id::kEnd; ++id) EXPECT_TRUE(std::isfinite(out.logits[static_cast<size_t>(id)]));
  EXPECT_TRUE(std::isfinite(out.logits[action_id::kPass]));
}

// A valid file's JSON for the tests that change it.
nlohmann::json valid_json(const Rules& rules = rules_with(2), const NetworkShape& shape = shape_of(3, 1, 4, 5, true)) {
  return nlohmann::json::parse(random_network_json(rules, shape, 5, "tiny"));
}

// (c) One channel, one hidden unit each, a few weights set by hand, the rest zero; the numbers below
// follow from the spec's formulas by hand. a = log1p(1) + 0.25 is h at a frontier cell (its own frontier
// flag through the patch's centre, plus f = 1 through flat_to_cell), b = 0.25 at the tile just placed.
TEST(Network, HandSetWeightsGiveTheNumbersComputedByHand) {
  nlohmann::json j = valid_json(rules_with(2), shape_of(1, 0, 1, 1, false));
  for (auto& [name, t] : j["tensors"].items())
    for (auto& v : t["data"]) v = 0.0;
  auto set = [&](const std::string& tensor, size_t index, double value) { j["tensors"][tensor]["data"][index] = value; };
  set("flat/bias", 0, 1.0);                                              // f = 1
  set("cell/kernel", (Encoding::kFrontier * 3 + 1) * 3 + 1, 1.0);        // the cell's own frontier flag
  set("flat_to_cell/kernel", 0, 0.25);
  set("global/kernel", 0, 1.0);   // mean
  set("global/kernel", 1, 0.5);   // max
  set("global/kernel", 2, 2.0);   // last
  set("global/kernel", 3, -0.5);  // f
  set("global/bias", 0, 0.1);
  set("value/kernel", 0, 1.0);
  set("value/kernel", 1, -0.5);
  set("value/bias", 1, 0.2);
  for (size_t r = 0; r < 4; ++r) set("place/kernel", r, 0.1 * static_cast<double>(r + 1));
  set("place/bias", 3, -1.0);
  for (size_t d = 0; d < 40; ++d) set("deploy/bias", d, 0.1 * static_cast<double>(d));
  set("deploy/kernel", 1, 2.0);
  set("other/kernel", 0, 0.5);  // pass: 0.5 g
  const PolicyValueNet net = PolicyValueNet::from_json(j.dump(), "hand.json");
  PolicyValueNet::Workspace workspace(net, 2);
  const double a = std::log(2.0) + 0.25, b = 0.25;

  // The first placement: the candidate cells are the 4 around the start tile (nothing placed this turn).
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
  sc.draw("BA.C");
  ActionList actions;
  sc.state.legal_actions(actions);
  ASSERT_EQ(actions.size, 4);  // (0,-1) turned 180; (0,1) turned 90, 180, 270
  std::array<float, kMaxActions> priors;
  PlayerValues values;
  const PolicyValueNet::Query query{&sc.state, &actions, priors.data(), &values};
  net.evaluate(std::span(&query, 1), workspace);
  double g = 1.0 * a + 0.5 * a + 2.0 * 0 - 0.5 * 1 + 0.1;  // 1.01472...
  EXPECT_NEAR(values[0], std::tanh(g), 1e-6);
  EXPECT_NEAR(values[0], 0.767707522, 1e-6);
  EXPECT_NEAR(values[1], std::tanh(-0.5 * g + 0.2), 1e-6);
  EXPECT_NEAR(values[1], -0.298033840, 1e-6);
  const double place[4] = {0.3 * a, 0.2 * a, 0.3 * a, 0.4 * a - 1};  // rotations 2 | 1, 2, 3
  double sum = 0;
  for (const double l : place) sum += std::exp(l);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(priors[static_cast<size_t>(i)], std::exp(place[i]) / sum, 1e-6) << actions[i].to_string();
  EXPECT_NEAR(priors[0], 0.301726381, 1e-6);
  EXPECT_NEAR(priors[3], 0.121977341, 1e-6);
  const PolicyValueNet::Outputs ref = net.evaluate_reference(sc.state);
  EXPECT_NEAR(ref.logits[static_cast<size_t>(Encoding::id_of(sc.state, actions[0]))], 0.3 * a, 1e-6);
  EXPECT_NEAR(ref.logits[action_id::kPass], 0.5 * g, 1e-6);
  EXPECT_EQ(ref.logits[action_id::kCountDeploy + 5], 0.0f);  // other/bias
  EXPECT_EQ(ref.logits[action_id::kPlace], -std::numeric_limits<float>::infinity());  // the window's corner

  // The deploy after placing at (0,-1): 6 frontier cells (h = a) and the placed tile (h = b, the last).
  sc.place(0, -1, 180);
  sc.state.legal_actions(actions);
  ASSERT_EQ(actions.size, 3);  // pass, a follower on segment 0 or 1
  net.evaluate(std::span(&query, 1), workspace);
  g = (6 * a + b) / 7 + 0.5 * a + 2.0 * b - 0.5 * 1 + 0.1;  // 1.41569...
  EXPECT_NEAR(values[0], std::tanh(g), 1e-6);
  EXPECT_NEAR(values[0], 0.888698393, 1e-6);
  EXPECT_NEAR(values[1], -0.468268232, 1e-6);
  const double deploy[3] = {0.5 * g, 0.0, 0.1 + 2.0 * b};  // pass, deploy j = 0, deploy j = 1
  sum = 0;
  for (const double l : deploy) sum += std::exp(l);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(priors[static_cast<size_t>(i)], std::exp(deploy[i]) / sum, 1e-6) << actions[i].to_string();
  EXPECT_NEAR(priors[0], 0.418328687, 1e-6);
  EXPECT_NEAR(priors[2], 0.375559751, 1e-6);
}

// The weight file round-trips, and its refusals name the file and what is wrong.
TEST(Network, WriteAndReadRoundTrip) {
  const auto net = random_net(rules_with(3, kAll), shape_of(4, 2, 6, 5, true), 9);
  const PolicyValueNet again = PolicyValueNet::from_json(net->to_json(), "again");
  EXPECT_EQ(again.to_json(), net->to_json());
  EXPECT_EQ(again.name(), "random");
  EXPECT_EQ(again.players(), 3);
  EXPECT_EQ(again.trained_on().expansions, kAll);
  EXPECT_EQ(again.shape().residual, 2);
  const State s = testing::random_position(rules_with(3, kAll), 2, 25);
  EXPECT_EQ(again.evaluate_reference(s).logits, net->evaluate_reference(s).logits);
}

std::string refusal(const std::string& text, const std::string& source = "net.json") {
  try {
    (void)PolicyValueNet::from_json(text, source);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Network, AValueBaseRoundTripsAndIsCheckedAgainstTheRules) {
  const auto net = random_net(rules_with(2), with_value_base(shape_of(4, 1, 6, 5, true)), 9);
  const PolicyValueNet again = PolicyValueNet::from_json(net->to_json(), "again");
  EXPECT_EQ(again.to_json(), net->to_json());
  EXPECT_EQ(again.shape().value_base, "trained");
  ASSERT_NE(again.value_base(), nullptr);
  EXPECT_EQ(random_net(rules_with(2), shape_of(4, 1, 6, 5, true), 9)->value_base(), nullptr);
  const std::string dir = ::testing::TempDir();
  // An evaluator weight file fitted to other rules cannot be a value base (the net's rules are checked at
  // load).
  const std::string weights = dir + "/base-3p-kr.json";
  std::ofstream(weights) << LinearEvaluator(LinearEvaluator::Weights::Ones(), "kr", Rules::parse("players=3 expansions=king_robber")).to_json();
  NetworkShape other = shape_of(4, 1, 6, 5, true);
  other.value_base = weights;
  const std::string message = refusal(random_network_json(rules_with(2), other, 1));
  EXPECT_NE(message.find("value_base: "), std::string::npos) << message;
}

// (d) Every refusal of docs/networks.md.
TEST(Network, RefusesBadFilesNamingTheFileAndTheReason) {
  const nlohmann::json good = valid_json();
  EXPECT_EQ(refusal(good.dump()), "accepted");
  const auto changed = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json j = good;
    change(j);
    return refusal(j.dump());
  };
  const auto expect = [](const std::string& message, const std::string& words) {
    EXPECT_EQ(message.rfind("net.json: ", 0), 0u) << message;
    EXPECT_NE(message.find(words), std::string::npos) << message << "\n  should say: " << words;
  };
  const std::string text = good.dump();
  expect(refusal(text.substr(0, text.size() / 2)), "not JSON (a truncated file?)");
  expect(refusal(text.substr(0, text.size() - 1)), "not JSON");
  expect(refusal("[1, 2]"), "not a network weight file");
  expect(changed([](auto& j) { j["format"] = "meeple-net/2"; }), "expected an object with \"format\": \"meeple-net/1\", got \"meeple-net/2\"");
  expect(changed([](auto& j) { j["format"] = "meeple-policy/1"; }), "not a network weight file");
  expect(changed([](auto& j) { j["encoding"] = kEncodingVersion + 1; }),
         "written for encoding version " + std::to_string(kEncodingVersion + 1) + ", but this meeple's encoding is version " +
             std::to_string(kEncodingVersion));
  expect(changed([](auto& j) { j.erase("encoding"); }), "needs \"encoding\"");
  expect(changed([](auto& j) { j["players"] = 3; }), "players is 3 but its rules are for 2 players");
  expect(changed([](auto& j) { j["players"] = 7; }), "players must be 2 to 6, got 7");
  expect(changed([](auto& j) { j.erase("rules"); }), "needs \"rules\"");
  expect(changed([](auto& j) { j["rules"] = "players=2 expansions=dragons"; }), "rules: ");
  expect(changed([](auto& j) { j["planes"] = 49; }), "planes is 49 but the encoding (version 1) of 2 players has 50");
  expect(changed([](auto& j) { j["flat"] = 1; }), "flat is 1 but the encoding (version 1) of 2 players has");
  expect(changed([](auto& j) { j["channels"] = 0; }), "channels must be 1 to 256, got 0");
  expect(changed([](auto& j) { j["value_base"] = 3; }), "value_base must be an evaluator spec such as \"trained\", got 3");
  expect(changed([](auto& j) { j["value_base"] = ""; }), "value_base must be an evaluator spec");
  expect(changed([](auto& j) { j["value_base"] = "oracle"; }), "value_base: ");
  expect(changed([](auto& j) { j["channels"] = 257; }), "channels must be 1 to 256, got 257");
  expect(changed([](auto& j) { j["flat_hidden"] = 1000; }), "flat_hidden must be 1 to 256, got 1000");
  expect(changed([](auto& j) { j["global_hidden"] = -1; }), "global_hidden must be 1 to 256, got -1");
  expect(changed([](auto& j) { j["residual"] = 9; }), "residual must be 0 to 8, got 9");
  expect(changed([](auto& j) { j["residual"] = 1.5; }), "residual must be an integer, got 1.5");
  expect(changed([](auto& j) { j["hand_features"] = 1; }), "hand_features must be true or false");
  expect(changed([](auto& j) { j["reward_scale"] = 0; }), "reward_scale must be a positive number, got 0");
  expect(changed([](auto& j) { j["tensors"] = nlohmann::json::array(); }), "tensors must be an object");
  expect(changed([](auto& j) { j["tensors"].erase("res0/kernel"); }), "tensor 'res0/kernel' is missing");
  expect(changed([](auto& j) { j["tensors"]["res1/kernel"] = j["tensors"]["res0/kernel"]; }), "unexpected tensor 'res1/kernel'");
  expect(changed([](auto& j) { j["tensors"]["conv/kernel"] = {{"shape", {1}}, {"data", {0.0}}}; }), "unexpected tensor 'conv/kernel'");
  expect(changed([](auto& j) { j["tensors"]["cell/kernel"]["shape"] = {450, 4}; }), "tensor 'cell/kernel' has shape [450, 4], expected [450, 3]");
  expect(changed([](auto& j) { j["tensors"]["cell/bias"]["shape"] = {3, 1}; }), "tensor 'cell/bias' has shape [3, 1], expected [3]");
  expect(changed([](auto& j) { j["hand_features"] = false; }), "tensor 'flat/kernel' has shape [301, 4], expected [269, 4]");
  expect(changed([](auto& j) { j["tensors"]["value/bias"]["data"].push_back(0.0); }), "tensor 'value/bias' has 3 numbers, its shape [2] needs 2");
  expect(changed([](auto& j) { j["tensors"]["value/bias"].erase("data"); }), "tensor 'value/bias' must be an object {\"shape\"");
  expect(changed([](auto& j) { j["tensors"]["place/kernel"]["data"][5] = 1e39; }), "tensor 'place/kernel' data[5] is not a finite 32-bit float");
  expect(changed([](auto& j) { j["tensors"]["place/kernel"]["data"][2] = "x"; }), "tensor 'place/kernel' data[2] is \"x\", not a number");
  std::string nan_text = text;
  nan_text.replace(nan_text.find("\"data\":[") + 8, 0, "NaN,");
  expect(refusal(nan_text), "NaN and Infinity are not JSON numbers: a weight is not finite");
  // A file that cannot be read; a directory.
  try {
    (void)load_network("/nonexistent/net.json");
    ADD_FAILURE() << "read a missing file";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read network weights '/nonexistent/net.json'"), std::string::npos) << e.what();
  }
}

// Other rules (expansions or options, as evaluators are refused) or another player count.
TEST(Network, RefusesGamesOfOtherRules) {
  const auto net = random_net(rules_with(2, kRiver2), shape_of(2, 0, 2, 2, true), 1);
  EXPECT_NO_THROW(net->check_rules(rules_with(2, kRiver2)));
  const auto message = [&](const Rules& r) {
    try {
      net->check_rules(r);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(rules_with(3, kRiver2)), "network 'random' is for 2 players, not 3; train a network for these rules");
  EXPECT_NE(message(rules_with(2)).find("network 'random' was fitted to 'expansions=river2', not to this game"), std::string::npos)
      << message(rules_with(2));
  Rules option = rules_with(2, kRiver2);
  option.set_option("small_city", "two_points");
  EXPECT_NE(message(option).find("not to this game"), std::string::npos) << message(option);
  // A search checks before its first move; so does the bot spec's player, before any game.
  MctsOptions o;
  o.network = net;
  o.iterations = 10;
  MctsPlayer bot(o);
  EXPECT_THROW(bot.choose(testing::random_position(rules_with(2), 1, 3)), std::invalid_argument);
  EXPECT_THROW(bot.check_rules(rules_with(3, kRiver2)), std::invalid_argument);
  EXPECT_NO_THROW(bot.check_rules(rules_with(2, kRiver2)));
  // The batched path refuses what it cannot evaluate.
  PolicyValueNet::Workspace workspace(*net, 1);
  State finished(rules_with(2, kRiver2));
  Dealer dealer(1);
  Rng rng(1);
  while (!finished.is_terminal()) finished.apply(finished.is_chance() ? dealer.deal(finished) : finished.sample_legal_action(rng));
  PlayerValues values;
  const PolicyValueNet::Query terminal{&finished, nullptr, nullptr, &values};
  EXPECT_THROW(net->evaluate(std::span(&terminal, 1), workspace), std::invalid_argument);
  const State three(rules_with(3, kRiver2));
  const PolicyValueNet::Query other{&three, nullptr, nullptr, &values};
  EXPECT_THROW(net->evaluate(std::span(&other, 1), workspace), std::invalid_argument);
  const PolicyValueNet::Query two[2] = {other, other};
  EXPECT_THROW(net->evaluate(std::span(two, 2), workspace), std::invalid_argument);  // more than the workspace holds
  const auto another = random_net(rules_with(2, kRiver2), shape_of(2, 0, 2, 2, true), 2);
  EXPECT_THROW(another->evaluate(std::span(&other, 1), workspace), std::invalid_argument);
  EXPECT_THROW(PolicyValueNet::Workspace(*net, 0), std::invalid_argument);
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// Bot specs: net=FILE and batch=N, and the combinations a network does not support.
TEST(Network, BotSpecsTakeANetwork) {
  const std::string path = write_temp("meeple_net_spec.json", random_network_json(rules_with(2), shape_of(3, 1, 4, 4, true), 1));
  const auto message = [](const std::string& spec) {
    try {
      make_player(spec, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("mcts:net=" + path + ",batch=4,threads=2,gumbel=4,widen=2,puct=0"), "accepted");
  EXPECT_EQ(message("mcts:net=trained"), "accepted");
  EXPECT_EQ(message("mcts:net=x.txt"), "bot mcts: bad value 'x.txt' for net: networks are trained (the shipped ones) or weight files FILE.json");
  EXPECT_NE(message("mcts:net=/nonexistent.json").find("cannot read network weights '/nonexistent.json'"), std::string::npos);
  EXPECT_EQ(message("mcts:batch=0"), "bot mcts: bad value '0' for batch: must be 1 to 256");
  const std::string refused = "mcts: a network (net=) cannot be combined with ";
  EXPECT_EQ(message("mcts:net=" + path + ",worlds=2"), refused + "worlds (determinized search): it searches one tree");
  EXPECT_EQ(message("mcts:net=" + path + ",threads=2,parallel=root"), refused + "parallel=root: its workers share one tree");
  EXPECT_EQ(message("mcts:net=" + path + ",leaf=rollout"), refused + "leaf=rollout or leaf=truncated: the network values the leaves");
  // Half a network: its priors with an evaluator's values, or its values with a policy's priors.
  EXPECT_EQ(message("mcts:net=" + path + ",eval=endnow,scale=10"), "accepted");
  EXPECT_EQ(message("mcts:net=" + path + ",policy=trained"), "accepted");
  EXPECT_EQ(message("mcts:net=" + path + ",policy=oneply"), "accepted");
  EXPECT_EQ(message("mcts:net=" + path + ",policy=trained,eval=trained"),
            refused + "both an evaluator (eval=) and a policy (policy=): the network would do nothing (eval= replaces "
                      "its values, policy= its priors)");
  EXPECT_EQ(message("mcts:net=" + path + ",reward=win"), refused + "reward=win: the network's values are score margins");
  EXPECT_EQ(message("mcts:net=" + path + ",scale=10"),
            "bot mcts: scale cannot be combined with net unless eval= values the leaves (the network's reward_scale is used)");
  // Self-play exploration keys.
  EXPECT_EQ(message("mcts:net=" + path + ",noise=0.3,noise_weight=0.5,play_temp=1,play_temp_tiles=8"), "accepted");
  EXPECT_EQ(message("mcts:noise=0.3"), "mcts: root noise (noise=) needs a network (net=): it mixes into the network's root priors");
  EXPECT_EQ(message("mcts:net=" + path + ",noise_weight=0.5"), "bot mcts: noise_weight needs noise=ALPHA (the noise it weighs)");
  EXPECT_EQ(message("mcts:play_temp_tiles=8"), "bot mcts: play_temp_tiles needs play_temp=T");
  EXPECT_EQ(message("mcts:play_temp=1,gumbel=4"), "mcts: play_temp cannot be combined with gumbel (the Gumbel root picks the move itself)");
  EXPECT_EQ(message("mcts:net=" + path + ",noise_weight=2,noise=1").rfind("bot mcts: bad value '2' for noise_weight: must be 0", 0), 0u);
  EXPECT_EQ(message("mcts:play_temp=-1").rfind("bot mcts: bad value '-1' for play_temp: must be 0", 0), 0u);
}

// (e) Whole games with a network at several batch sizes and thread counts: every choice legal, the tree
// consistent after every search (visits add up, no virtual loss or pending leaf left, nothing expanded
// twice) and exactly the budget backed up, collisions with pending leaves notwithstanding.
TEST(Network, MctsPlaysWholeGamesInBatches) {
  struct Case {
    Rules rules;
    int batch, threads;
  };
  const Case cases[] = {{rules_with(2), 1, 1}, {rules_with(2), 8, 1}, {rules_with(2), 16, 1},
                        {rules_with(2), 1, 2}, {rules_with(2), 8, 2}, {rules_with(2), 16, 2},
                        {rules_with(3, kAll), 8, 2}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.rules.to_string() + " batch " + std::to_string(c.batch) + " threads " + std::to_string(c.threads));
    const auto net = random_net(c.rules, shape_of(4, 1, 8, 8, true), 3);
    std::vector<std::unique_ptr<MctsPlayer>> seats;
    for (int p = 0; p < c.rules.players; ++p) {
      MctsOptions o;
      o.network = net;
      o.batch = c.batch;
      o.threads = c.threads;
      o.iterations = 40;
      o.seed = static_cast<uint64_t>(p + 1);
      seats.push_back(std::make_unique<MctsPlayer>(o));
    }
    Dealer dealer(static_cast<uint64_t>(c.batch));
    State s(c.rules);
    int searches = 0;
    while (!s.is_terminal()) {
      Action a;
      if (s.is_chance()) {
        a = dealer.deal(s);
      } else {
        MctsPlayer& bot = *seats[static_cast<size_t>(s.current_player())];
        a = bot.choose(s);
        ASSERT_EQ(bot.verify_tree(), "");
        ASSERT_EQ(bot.last_iterations(), 40);
        ++searches;
      }
      ASSERT_EQ(s.try_apply(a), "");
      for (auto& seat : seats) seat->observe(a);
    }
    EXPECT_GT(searches, 70);
  }
}

// The network's priors order the root's children and its values are what the search backs up: with
// one simulation per child the root's children carry the network's values of their positions. At a
// placement the children are the deploy decisions that follow, never a tile draw.
// A random position where a tile with at least three placements is to be placed.
State placement_position(const Rules& rules, uint64_t seed, ActionList& actions) {
  State s = testing::random_position(rules, seed, 20);
  for (Rng rng(seed); !s.is_terminal(); s.apply(s.is_chance() ? Action::draw(s.sample_draw_tile(0)) : s.sample_legal_action(rng))) {
    if (s.is_chance()) continue;
    s.legal_actions(actions);
    if (actions[0].kind() == Action::kPlace && actions.size >= 3) return s;
  }
  ADD_FAILURE() << "no placement with three choices in the game of seed " << seed;
  return s;
}

// A search of one simulation per legal action, in one round: every descent goes to a fresh child (virtual
// losses steer them apart).
MctsOptions one_visit_per_child(std::shared_ptr<const PolicyValueNet> net, const ActionList& actions) {
  MctsOptions o;
  o.network = std::move(net);
  o.iterations = actions.size;
  o.batch = actions.size;
  o.reuse_tree = false;
  return o;
}

TEST(Network, MctsBacksUpTheNetworksValues) {
  const Rules rules = rules_with(2);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 8);
  ActionList actions;
  const State s = placement_position(rules, 6, actions);
  MctsPlayer bot(one_visit_per_child(net, actions));
  (void)bot.choose(s);
  EXPECT_EQ(bot.verify_tree(), "");
  PolicyValueNet::Workspace workspace(*net, 1);
  int visited = 0;
  for (const auto& child : bot.last_root()) {
    if (child.visits == 0) continue;
    ++visited;
    EXPECT_EQ(child.visits, 1);
    State next = s;
    next.apply(child.action);
    PlayerValues values;
    const PolicyValueNet::Query query{&next, nullptr, nullptr, &values};
    ASSERT_FALSE(next.is_terminal() || next.is_chance()) << child.action.to_string();
    net->evaluate(std::span(&query, 1), workspace);
    EXPECT_NEAR(child.mean, values[static_cast<size_t>(s.current_player())], 1e-5) << child.action.to_string();
  }
  EXPECT_EQ(visited, actions.size);
}

// Half a network: with a policy the root's priors are the policy's (the network only values); with an
// evaluator the children carry the evaluator's values (the network only gives priors).
TEST(Network, EitherHalfCanBeReplaced) {
  const Rules rules = rules_with(2);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 8);
  ActionList actions;
  const State s = placement_position(rules, 11, actions);
  const MctsOptions o = one_visit_per_child(net, actions);

  MctsOptions with_policy = o;
  with_policy.policy = make_policy("trained");
  MctsPlayer by_policy(with_policy);
  (void)by_policy.choose(s);
  EXPECT_EQ(by_policy.verify_tree(), "");
  std::array<float, kMaxActions> expected;
  with_policy.policy->priors(s, actions, expected);
  std::array<float, kMaxActions> net_priors;
  PlayerValues values;
  PolicyValueNet::Workspace workspace(*net, 1);
  const PolicyValueNet::Query query{&s, &actions, net_priors.data(), &values};
  net->evaluate(std::span(&query, 1), workspace);
  bool differs = false;
  for (const auto& child : by_policy.last_root()) {
    const int i = static_cast<int>(std::find(actions.begin(), actions.end(), child.action) - actions.begin());
    ASSERT_LT(i, actions.size);
    EXPECT_NEAR(child.prior, expected[static_cast<size_t>(i)], 1e-6) << child.action.to_string();
    differs |= std::abs(net_priors[static_cast<size_t>(i)] - expected[static_cast<size_t>(i)]) > 1e-3;
  }
  EXPECT_TRUE(differs) << "the test needs priors that tell the policy's from the network's";
  // Below the root, leaves are expanded after the network's call: a child kept as the next root carries
  // the policy's priors too.
  {
    MctsOptions deeper = with_policy;
    deeper.iterations = 200;
    deeper.batch = 8;
    deeper.reuse_tree = true;
    MctsPlayer bot(deeper);
    (void)bot.choose(s);
    const auto& root = bot.last_root();
    const auto most = std::max_element(root.begin(), root.end(), [](const auto& a, const auto& b) { return a.visits < b.visits; });
    State next = s;
    next.apply(most->action);
    ASSERT_FALSE(next.is_chance());
    bot.observe(most->action);
    (void)bot.choose(next);
    EXPECT_GT(bot.reused_visits(), 1) << "the child's subtree was not kept";
    ActionList next_actions;
    next.legal_actions(next_actions);
    std::array<float, kMaxActions> next_expected;
    with_policy.policy->priors(next, next_actions, next_expected);
    for (const auto& child : bot.last_root()) {
      const int i = static_cast<int>(std::find(next_actions.begin(), next_actions.end(), child.action) - next_actions.begin());
      ASSERT_LT(i, next_actions.size);
      EXPECT_NEAR(child.prior, next_expected[static_cast<size_t>(i)], 1e-6) << child.action.to_string();
    }
  }

  MctsOptions with_evaluator = o;
  with_evaluator.evaluator = make_evaluator("endnow");
  with_evaluator.finish_turn = false;
  with_evaluator.reward_scale = 7;
  MctsPlayer by_evaluator(with_evaluator);
  (void)by_evaluator.choose(s);
  EXPECT_EQ(by_evaluator.verify_tree(), "");
  const int me = s.current_player();
  for (const auto& child : by_evaluator.last_root()) {
    ASSERT_EQ(child.visits, 1) << child.action.to_string();
    State next = s;
    next.apply(child.action);
    ASSERT_FALSE(next.is_terminal() || next.is_chance());
    const PlayerValues points = with_evaluator.evaluator->evaluate(next);
    EXPECT_NEAR(child.mean, std::tanh((points[static_cast<size_t>(me)] - points[static_cast<size_t>(1 - me)]) / 7.0), 1e-6)
        << child.action.to_string();
  }
}

// net_value= mixes the two: a child's value is W times the network's plus 1 - W times the evaluator's, on
// one reward scale; without an evaluator, or on two scales, it is refused.
TEST(Network, NetValueMixesTheNetworkWithTheEvaluator) {
  const Rules rules = rules_with(2);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 8);
  ActionList actions;
  const State s = placement_position(rules, 11, actions);
  MctsOptions o = one_visit_per_child(net, actions);
  o.evaluator = make_evaluator("endnow");
  o.finish_turn = false;
  o.reward_scale = net->reward_scale();
  o.net_value_weight = 0.25;
  MctsPlayer bot(o);
  (void)bot.choose(s);
  EXPECT_EQ(bot.verify_tree(), "");
  PolicyValueNet::Workspace workspace(*net, 1);
  const int me = s.current_player();
  for (const auto& child : bot.last_root()) {
    ASSERT_EQ(child.visits, 1) << child.action.to_string();
    State next = s;
    next.apply(child.action);
    ASSERT_FALSE(next.is_terminal() || next.is_chance());
    PlayerValues values;
    const PolicyValueNet::Query query{&next, nullptr, nullptr, &values};
    net->evaluate(std::span(&query, 1), workspace);
    const PlayerValues points = o.evaluator->evaluate(next);
    const double evaluated = std::tanh((points[static_cast<size_t>(me)] - points[static_cast<size_t>(1 - me)]) / o.reward_scale);
    EXPECT_NEAR(child.mean, 0.25 * values[static_cast<size_t>(me)] + 0.75 * evaluated, 1e-5) << child.action.to_string();
  }

  MctsOptions no_network = o;
  no_network.network = nullptr;
  EXPECT_THROW(MctsPlayer{no_network}, std::invalid_argument);
  MctsOptions no_evaluator = o;
  no_evaluator.evaluator = nullptr;
  EXPECT_THROW(MctsPlayer{no_evaluator}, std::invalid_argument);
  MctsOptions two_scales = o;
  two_scales.reward_scale = net->reward_scale() + 1;
  try {
    MctsPlayer bot2(two_scales);
    ADD_FAILURE() << "two reward scales were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("scale"), std::string::npos) << e.what();
  }
}

void passes_through_tile_draws(MctsOptions::Chance chance, const std::string& setting);

// Tile draws by chance mode. chance=full: a fresh tile draw is passed through to one drawn tile, whose
// decision is the leaf, so the network values only decisions with a tile in hand. chance=sample (the
// default): a fresh tile draw is a leaf like any node, and a drawn tile's first visit goes on to one of its
// actions, as search without a network does, so no leaf has a tile in hand. verify_tree checks each node's
// visits against its children's by those rules, so a simulation that stopped where it should have gone on
// (or the reverse) fails it.
// Also with the evaluator's values mixed in (eval=), another policy's priors (policy=), and at the node cap,
// where a drawn tile's decision stays a leaf (this checks the tree, not that no network call is wasted there).
TEST(Network, TileDrawsFollowTheChanceMode) {
  for (const auto chance : {MctsOptions::Chance::kSample, MctsOptions::Chance::kFull})
    for (const char* setting : {"plain", "eval", "policy", "cap"}) {
      SCOPED_TRACE(std::string(chance == MctsOptions::Chance::kSample ? "chance=sample " : "chance=full ") + setting);
      passes_through_tile_draws(chance, setting);
    }
}

void passes_through_tile_draws(MctsOptions::Chance chance, const std::string& setting) {
  const Rules rules = rules_with(2);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 8);
  MctsOptions o;
  o.network = net;
  o.iterations = 300;
  o.reuse_tree = false;
  o.chance = chance;
  if (setting == "eval") {
    o.evaluator = make_evaluator("trained");
    o.reward_scale = net->reward_scale();
    o.net_value_weight = 0.5;
  }
  if (setting == "policy") o.policy = make_policy("trained");
  if (setting == "cap") o.max_nodes = 1500;
  MctsPlayer bot(o);
  State s = testing::random_position(rules, 9, 30);
  for (int decisions = 0; decisions < 6 && !s.is_terminal();) {
    if (s.is_chance()) {
      s.apply(Action::draw(s.sample_draw_tile(0)));
      continue;
    }
    s.apply(bot.choose(s));
    ++decisions;
    ASSERT_EQ(bot.verify_tree(), "");
    if (o.max_nodes == 1500) {  // the tree was full (uncapped, these searches grow 4,500-5,500 nodes)
      EXPECT_LE(bot.last_nodes(), 1500);
      EXPECT_GT(bot.last_nodes(), 1400);
    }
    int64_t draws = 0;
    for (const auto& d : bot.profile().depths) draws += d.chance_nodes;
    EXPECT_GT(draws, 0) << "no tile draw in the tree";
  }
}

// With one thread and a seed, the same choices and the same visit counts, batches and tree reuse included.
TEST(Network, OneThreadWithASeedIsReproducible) {
  const Rules rules = rules_with(2, kRiver2 | kKingRobber);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 4);
  auto play = [&](std::vector<std::vector<int>>& visits) {
    MctsOptions o;
    o.network = net;
    o.iterations = 60;
    o.batch = 8;
    o.seed = 11;
    MctsPlayer a(o);
    o.seed = 12;
    o.batch = 3;
    MctsPlayer b(o);
    return play_recording_visits(rules, a, b, 9, visits);
  };
  std::vector<std::vector<int>> first, second;
  EXPECT_EQ(play(first), play(second));
  EXPECT_EQ(first, second);
  EXPECT_GT(first.size(), 50u);
}

// Self-play exploration: root noise mixes Dirichlet noise into the network's root priors (still a
// distribution, each at least (1 - weight) of the network's), and the play temperature draws the move
// among the visited root actions while the board has fewer tiles than play_temperature_tiles.
// A placement decision a few tiles into a random game, with several legal actions.
State placement_decision(const Rules& rules) {
  for (const State& s : positions(rules, 1))
    if (s.phase() == Phase::kPlace && s.num_tiles() > 2) {
      ActionList actions;
      s.legal_actions(actions);
      if (actions.size > 3) return s;
    }
  throw std::logic_error("no placement decision");
}

TEST(Network, RootNoiseMixesIntoTheNetworksPriors) {
  const Rules rules = rules_with(2, 0);
  const auto net = random_net(rules, shape_of(8, 1, 8, 8, true), 5);
  const State s = placement_decision(rules);
  ActionList actions;
  s.legal_actions(actions);
  ASSERT_GT(actions.size, 3);
  std::vector<float> priors(static_cast<size_t>(actions.size));
  std::vector<PlayerValues> values(1);
  PolicyValueNet::Workspace workspace(*net, 1);
  const PolicyValueNet::Query query{&s, &actions, priors.data(), &values[0]};
  net->evaluate(std::span(&query, 1), workspace);
  auto prior_of = [&](Action a) {
    for (int i = 0; i < actions.size; ++i)
      if (actions[i] == a) return priors[static_cast<size_t>(i)];
    ADD_FAILURE() << "not a legal action";
    return 0.0f;
  };
  MctsOptions o;
  o.network = net;
  o.iterations = 30;
  MctsPlayer plain(o);
  plain.choose(s);
  for (const auto& c : plain.last_root()) EXPECT_NEAR(c.prior, prior_of(c.action), 1e-6);
  o.root_noise = 0.3;
  o.noise_weight = 0.4;
  std::vector<double> first;
  for (uint64_t seed : {1, 2}) {
    o.seed = seed;
    MctsPlayer noisy(o);
    noisy.choose(s);
    double sum = 0, moved = 0;
    std::vector<double> these;
    for (const auto& c : noisy.last_root()) {
      sum += c.prior;
      moved += std::abs(c.prior - prior_of(c.action));
      EXPECT_GE(c.prior, 0.6 * prior_of(c.action) - 1e-6);
      these.push_back(c.prior);
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    EXPECT_GT(moved, 0.05);
    if (first.empty()) first = these; else EXPECT_NE(first, these);  // each seed its own noise
  }
  o.network = nullptr;
  EXPECT_THROW(MctsPlayer{o}, std::invalid_argument);  // noise needs the network's priors
}

TEST(Network, PlayTemperatureDrawsAmongTheVisitedActions) {
  const Rules rules = rules_with(2, 0);
  const auto net = random_net(rules, shape_of(8, 1, 8, 8, true), 6);
  const State s = placement_decision(rules);
  MctsOptions o;
  o.network = net;
  o.iterations = 40;
  o.play_temperature = 1.0;
  std::set<uint64_t> chosen;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    o.seed = seed;
    MctsPlayer bot(o);
    const Action a = bot.choose(s);
    int visits = -1, most = 0;
    for (const auto& c : bot.last_root()) {
      if (c.action == a) visits = c.visits;
      most = std::max(most, c.visits);
    }
    EXPECT_GT(visits, 0);
    chosen.insert(a.bits());
  }
  EXPECT_GT(chosen.size(), 1u);  // not always the most visited
  // Past play_temperature_tiles tiles on the board: the most visited action again, for every seed.
  o.play_temperature_tiles = s.num_tiles();
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    o.seed = seed;
    MctsPlayer bot(o);
    const Action a = bot.choose(s);
    int most = 0, visits = 0;
    for (const auto& c : bot.last_root()) {
      most = std::max(most, c.visits);
      if (c.action == a) visits = c.visits;
    }
    EXPECT_EQ(visits, most);
  }
}

// Two threads on one tree, each with its batch of pending leaves (collisions between them included), with
// the Gumbel root, a time budget and a node cap too: the tree stays consistent and the budget is exact.
TEST(Network, TwoThreadsKeepTheTreeConsistent) {
  const Rules rules = rules_with(2);
  const auto net = random_net(rules, shape_of(4, 1, 8, 8, true), 5);
  const State s = testing::random_position(rules, 3, 24);
  for (const char* setting : {"plain", "gumbel", "time", "cap"}) {
    SCOPED_TRACE(setting);
    MctsOptions o;
    o.network = net;
    o.threads = 2;
    o.batch = 16;
    o.iterations = 1500;
    if (std::string(setting) == "gumbel") o.gumbel = 4;
    if (std::string(setting) == "time") {
      o.iterations = 0;
      o.milliseconds = 50;
    }
    if (std::string(setting) == "cap") o.max_nodes = 1000;
    MctsPlayer bot(o);
    EXPECT_TRUE(s.is_legal(bot.choose(s)));
    EXPECT_EQ(bot.verify_tree(), "");
    if (o.iterations > 0) {
      EXPECT_EQ(bot.last_iterations(), 1500);
    } else {
      EXPECT_GT(bot.last_iterations(), 0);
    }
    if (o.max_nodes == 1000) {
      EXPECT_LE(bot.last_nodes(), 1000);
    }
  }
}

}  // namespace
// The shipped networks (mcts:net=trained) read, each plays a game of its own rules, and games of rules no
// shipped network is for are refused before the first move.
TEST(Network, EachShippedNetworkPlaysItsRulesOnly) {
  const auto& nets = shipped_networks();
  ASSERT_FALSE(nets.empty());
  EXPECT_EQ(&nets, &shipped_networks()) << "read once";
  const auto base = shipped_network(rules_with(2));
  EXPECT_EQ(base->players(), 2);
  EXPECT_EQ(base->trained_on().expansions, 0);
  for (const auto& net : nets) {
    SCOPED_TRACE(net->name());
    EXPECT_EQ(net->shape().value_base, "trained");  // each corrects the shipped evaluator (docs/networks.md)
    const Rules& rules = net->trained_on();
    EXPECT_EQ(shipped_network(rules), net);
    // One bot plays its first decision of each shipped net's game, then a 2-player base game again.
    auto bot = make_player("mcts:net=trained,iterations=64", 3);
    for (const Rules& game : {rules, rules_with(2)}) {
      bot->check_rules(game);
      const State s = testing::random_position(game, 5, 12);
      ASSERT_FALSE(s.is_chance() || s.is_terminal());
      EXPECT_TRUE(s.is_legal(bot->choose(s)));
    }
  }
  EXPECT_THROW(base->check_rules(rules_with(3)), std::invalid_argument);
  auto bot = make_player("mcts:net=trained,iterations=64", 3);
  for (const Rules& other : {rules_with(2, kCount), rules_with(4), rules_with(3, kRiver2)}) {
    EXPECT_THROW(bot->check_rules(other), std::invalid_argument);
    const State s = testing::random_position(other, 5, 12);
    try {
      bot->choose(s);
      ADD_FAILURE() << "no shipped network is for " << other.to_string();
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("no shipped network is for " + other.to_string()), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("train-net"), std::string::npos) << e.what();
    }
  }
}

}  // namespace meeple
