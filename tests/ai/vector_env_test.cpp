// Games stepped together: random legal ids from the masks play whole episodes in both modes, rows say what
// the games say, a bad id names its game and moves none, and the same seed plays the same games.
#include "meeple/ai/vector_env.h"

#include <gtest/gtest.h>

#include <numeric>

#include "meeple/random.h"

namespace meeple {
namespace {

struct Arrays {
  Arrays(const VectorEnv& env)
      : n(static_cast<size_t>(env.num_envs())),
        planes(n * static_cast<size_t>(env.encoding().plane_size())),
        flat(n * static_cast<size_t>(env.encoding().flat_size())),
        mask(n * static_cast<size_t>(Encoding::num_action_ids())),
        reward(n), terminated(n), truncated(n), to_play(n), returns(n * env.rules().players) {}
  VectorEnvArrays view() {
    return {planes.data(), flat.data(), mask.data(), reward.data(), terminated.data(), truncated.data(), to_play.data(), returns.data()};
  }
  const uint8_t* mask_of(size_t i) const { return mask.data() + i * static_cast<size_t>(Encoding::num_action_ids()); }
  size_t n;
  std::vector<uint8_t> planes;
  std::vector<float> flat;
  std::vector<uint8_t> mask;
  std::vector<float> reward;
  std::vector<uint8_t> terminated, truncated;
  std::vector<int32_t> to_play;
  std::vector<float> returns;
};

// A uniformly random id among those set in the mask.
int64_t random_legal(const uint8_t* mask, Rng& rng) {
  std::vector<int64_t> legal;
  for (int id = 0; id < Encoding::num_action_ids(); ++id)
    if (mask[id]) legal.push_back(id);
  return legal.empty() ? 0 : legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

Rules rules_with(int players, uint8_t expansions) {
  Rules r;
  r.players = static_cast<uint8_t>(players);
  r.expansions = expansions;
  return r;
}

// Plays `steps` steps of random legal ids; checks every row; returns the episodes finished and a digest.
std::pair<int, double> play(VectorEnv& env, int steps, uint64_t seed) {
  Arrays a(env);
  Rng rng(seed);
  env.reset(seed, a.view());
  int finished = 0;
  double digest = 0;
  std::vector<int64_t> ids(a.n);
  std::vector<uint8_t> restarting(a.n, 0);
  for (int t = 0; t < steps; ++t) {
    for (size_t i = 0; i < a.n; ++i) {
      const State& s = env.state(static_cast<int>(i));
      if (a.terminated[i] || a.truncated[i]) {
        EXPECT_TRUE(a.terminated[i] != a.truncated[i]);
        if (a.terminated[i]) {
          EXPECT_TRUE(s.is_terminal());
          const float sum = std::accumulate(a.returns.begin() + static_cast<long>(i) * env.rules().players,
                                            a.returns.begin() + static_cast<long>(i + 1) * env.rules().players, 0.0f);
          EXPECT_NEAR(sum, 0.0f, 1e-5) << "rewards are zero-sum";
          digest += a.reward[i] * static_cast<double>(i + 1);
          ++finished;
        }
        ids[i] = 0;  // ignored: the game restarts
        continue;
      }
      EXPECT_FALSE(s.is_terminal());
      EXPECT_EQ(a.to_play[i], s.current_player());
      EXPECT_EQ(a.reward[i], 0.0f);
      ActionList legal;
      s.legal_actions(legal);
      const uint8_t* m = a.mask_of(i);
      EXPECT_EQ(std::count(m, m + Encoding::num_action_ids(), 1), legal.size) << "env " << i;
      ids[i] = random_legal(m, rng);
      digest += static_cast<double>(ids[i]) * 1e-6;
    }
    if (::testing::Test::HasFailure()) return {finished, digest};
    env.step(ids.data(), a.view());
  }
  return {finished, digest};
}

TEST(VectorEnv, AgainstOpponentsTheLearnerAlwaysActs) {
  VectorEnv env(rules_with(3, kRiver2 | kKingRobber | kAbbeyMayor), 6, {"random"}, 11, 2);
  Arrays a(env);
  env.reset(3, a.view());
  Rng rng(3);
  std::vector<int64_t> ids(a.n);
  int finished = 0;
  for (int t = 0; t < 3000 && finished < 12; ++t) {
    for (size_t i = 0; i < a.n; ++i) {
      if (a.terminated[i] || a.truncated[i]) {
        finished += a.terminated[i];
        ids[i] = 0;
        continue;
      }
      // Learner seats go round: game i, episode e sits at (i + e) % players; it is always the one to act.
      const State& s = env.state(static_cast<int>(i));
      ASSERT_EQ(a.to_play[i], s.current_player());
      ids[i] = random_legal(a.mask_of(i), rng);
    }
    env.step(ids.data(), a.view());
  }
  EXPECT_GE(finished, 12);
}

TEST(VectorEnv, SelfPlayAndOpponentGamesRunWholeEpisodesTheSameWayForTheSameSeed) {
  for (const uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor}}) {
    VectorEnv self_play(rules_with(2, expansions), 5, {}, 1, 2);
    const auto [episodes, digest] = play(self_play, 600, 21);
    if (::testing::Test::HasFailure()) return;
    EXPECT_GE(episodes, 5);
    VectorEnv again(rules_with(2, expansions), 5, {}, 1, 1);  // one thread: the same games
    EXPECT_EQ(play(again, 600, 21), std::make_pair(episodes, digest));
    VectorEnv against(rules_with(4, expansions), 3, {"greedy", "random", "heuristic"}, 1, 2);
    EXPECT_GE(play(against, 400, 5).first, 1);
  }
}

TEST(VectorEnv, ABadIdNamesItsGameAndMovesNone) {
  VectorEnv env(rules_with(2, 0), 4, {"random"}, 7, 2);
  Arrays a(env);
  env.reset(7, a.view());
  Rng rng(1);
  std::vector<int64_t> ids(a.n);
  for (size_t i = 0; i < a.n; ++i) ids[i] = random_legal(a.mask_of(i), rng);
  std::vector<State> before;
  for (int i = 0; i < env.num_envs(); ++i) before.push_back(env.state(i));
  for (const int64_t bad : {int64_t{-1}, int64_t{Encoding::num_action_ids()}, int64_t{action_id::kDeploy + 9}}) {
    std::vector<int64_t> with_bad = ids;
    with_bad[2] = bad;
    try {
      env.step(with_bad.data(), a.view());
      FAIL() << "id " << bad << " was taken";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("env 2: action id " + std::to_string(bad)), std::string::npos) << e.what();
    }
    for (int i = 0; i < env.num_envs(); ++i) EXPECT_TRUE(env.state(i) == before[static_cast<size_t>(i)]) << "env " << i << " moved";
  }
  env.step(ids.data(), a.view());  // the good ids still play
  EXPECT_FALSE(env.state(0) == before[0]);
}

TEST(VectorEnv, BadSettingsAreRefusedBeforePlay) {
  EXPECT_THROW(VectorEnv(rules_with(2, 0), 0, {}, 1, 1), std::invalid_argument);
  EXPECT_THROW(VectorEnv(rules_with(2, 0), 3, {"random", "greedy"}, 1, 1), std::invalid_argument);
  EXPECT_THROW(VectorEnv(rules_with(2, 0), 2, {"nosuchbot"}, 1, 1), std::invalid_argument);
  EXPECT_THROW(VectorEnv(rules_with(2, 0), 2, {}, 1, 0), std::invalid_argument);
}

}  // namespace
}  // namespace meeple
