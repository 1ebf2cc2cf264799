// Self-play data: positions are the decision nodes of finished games, identical whatever the number of
// jobs; stopped games leave nothing, and bad bot specs fail before any game is played.
#include <algorithm>
#include <atomic>
#include <map>

#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/features.h"
#include "meeple/ai/selfplay.h"
#include "meeple/tiles.h"

namespace meeple {
namespace {

using testing::rules_with;

std::vector<GameSpec> games_of(const std::vector<std::string>& bots, int n, uint64_t first_seed) {
  std::vector<GameSpec> games;
  for (int g = 0; g < n; ++g) games.push_back({bots, first_seed + static_cast<uint64_t>(g)});
  return games;
}

// Each game's positions are exactly its decision nodes, in order, with their features, mover and tiles
// still to come; the labels are its final scores and ranks.
TEST(SelfPlay, PositionsAreTheDecisionNodesOfEachFinishedGame) {
  const Rules rules = rules_with(3, kKingRobber | kAbbeyMayor);
  const auto games = games_of({"greedy", "random", "heuristic"}, 4, 70);
  const SelfPlayData data = generate_selfplay(rules, games, 2);
  ASSERT_EQ(data.games(), 4u);
  EXPECT_EQ(data.players, 3);
  EXPECT_EQ(data.tile_types, TileCatalog::get().size());
  size_t at = 0;
  for (size_t k = 0; k < data.games(); ++k) {
    const int g = data.finished[k];
    std::vector<State> decisions;
    const State final_state = play_game(rules, games[static_cast<size_t>(g)], nullptr, nullptr,
                                        [&](const State& s, const Player&) { decisions.push_back(s); });
    ASSERT_GT(decisions.size(), 40u);
    for (size_t i = 0; i < decisions.size(); ++i, ++at) {
      ASSERT_LT(at, data.positions());
      EXPECT_EQ(data.game[at], g);
      EXPECT_EQ(data.ply[at], static_cast<int16_t>(i));
      EXPECT_EQ(data.to_move[at], decisions[i].current_player());
      std::array<float, kFeatureBufferSize> f;
      extract_features(decisions[i], f);
      for (int j = 0; j < 3 * kNumFeatures; ++j) ASSERT_EQ(data.features[at * 3 * kNumFeatures + static_cast<size_t>(j)], f[static_cast<size_t>(j)]);
      for (int t = 0; t < data.tile_types; ++t)
        ASSERT_EQ(data.remaining[at * static_cast<size_t>(data.tile_types) + static_cast<size_t>(t)], decisions[i].remaining(t));
    }
    for (int p = 0; p < 3; ++p) {
      EXPECT_EQ(data.final_scores[k * 3 + static_cast<size_t>(p)], final_state.score(p));
      int better = 0;  // distinct higher scores
      std::vector<int> seen;
      for (int q = 0; q < 3; ++q)
        if (final_state.score(q) > final_state.score(p) && std::count(seen.begin(), seen.end(), final_state.score(q)) == 0) {
          ++better;
          seen.push_back(final_state.score(q));
        }
      EXPECT_EQ(data.ranks[k * 3 + static_cast<size_t>(p)], better);
    }
  }
  EXPECT_EQ(at, data.positions());
}

// Policy data keep, at every decision with a choice, the shipped evaluator's leaf points (what a network's
// value base corrects): the decisions of the same games played again give the same numbers.
TEST(SelfPlay, PolicyDataKeepTheEvaluatorsLeafPoints) {
  const Rules rules = rules_with(2);
  const auto games = games_of({"mcts:iterations=30", "mcts:iterations=30"}, 2, 90);
  const PolicyData data = generate_policy_data(rules, games, 2);
  ASSERT_EQ(data.leaf_points.size(), data.decisions() * 2);
  const auto evaluator = make_evaluator("trained");
  size_t at = 0;
  int deploys = 0;
  for (const int g : data.finished) {
    (void)play_game(rules, games[static_cast<size_t>(g)], nullptr, nullptr, [&](const State& s, const Player&) {
      ActionList actions;
      s.legal_actions(actions);
      if (actions.size < 2) return;
      ASSERT_LT(at, data.decisions());
      const PlayerValues want = leaf_points(*evaluator, s);
      for (int p = 0; p < 2; ++p) EXPECT_EQ(data.leaf_points[at * 2 + static_cast<size_t>(p)], static_cast<float>(want[static_cast<size_t>(p)]));
      deploys += s.phase() == Phase::kDeploy;
      ++at;
    });
  }
  EXPECT_EQ(at, data.decisions());
  EXPECT_GT(deploys, 20);
}

TEST(SelfPlay, TheDataOfAGameDoesNotDependOnTheNumberOfJobs) {
  const auto games = games_of({"greedy", "greedy"}, 6, 5);
  auto by_game = [](const SelfPlayData& d) {
    std::map<int, std::vector<float>> out;
    for (size_t i = 0; i < d.positions(); ++i)
      out[d.game[i]].insert(out[d.game[i]].end(), d.features.begin() + static_cast<long>(i * 2 * kNumFeatures),
                            d.features.begin() + static_cast<long>((i + 1) * 2 * kNumFeatures));
    return out;
  };
  EXPECT_EQ(by_game(generate_selfplay(Rules{}, games, 1)), by_game(generate_selfplay(Rules{}, games, 2)));
}

// Stopped after the first finished game, the games then in progress are abandoned and leave no position.
TEST(SelfPlay, GamesStoppedMidwayLeaveNoPositions) {
  const auto games = games_of({"greedy", "greedy"}, 8, 11);
  std::atomic<bool> stop{false};
  const SelfPlayData data = generate_selfplay(Rules{}, games, 2, &stop, [&](int finished) { stop = finished >= 1; });
  ASSERT_GE(data.games(), 1u);
  ASSERT_LT(data.games(), games.size());
  std::map<int, size_t> positions;
  for (int g : data.game) ++positions[g];
  ASSERT_EQ(positions.size(), data.games()) << "positions of a game that did not finish";
  for (int g : data.finished) {
    size_t decisions = 0;
    play_game(Rules{}, games[static_cast<size_t>(g)], nullptr, nullptr, [&](const State&, const Player&) { ++decisions; });
    EXPECT_EQ(positions[g], decisions);
  }
}

TEST(SelfPlay, StoppedGamesLeaveNothingAndBadBotsFailBeforePlay) {
  std::atomic<bool> stop{true};
  int calls = 0;
  const SelfPlayData none = generate_selfplay(Rules{}, games_of({"greedy", "greedy"}, 3, 1), 2, &stop, [&](int) { ++calls; });
  EXPECT_EQ(none.positions(), 0u);
  EXPECT_EQ(none.games(), 0u);
  EXPECT_EQ(calls, 0);
  EXPECT_THROW(generate_selfplay(Rules{}, games_of({"greedy", "nonsense"}, 1, 1), 1), std::invalid_argument);
  EXPECT_THROW(generate_selfplay(Rules{}, games_of({"greedy"}, 1, 1), 1), std::invalid_argument);
}

}  // namespace
}  // namespace meeple
