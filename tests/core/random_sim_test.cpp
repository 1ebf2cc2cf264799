// Random-simulation test shared by every ruleset: thousands of random games, checking after every action
// that the incremental bookkeeping equals a from-scratch recomputation and the API's contracts hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <vector>

#include "meeple/ai/player.h"
#include "meeple/random.h"
#include "meeple/record.h"

namespace meeple {
namespace {

constexpr int kGamesPerCase = 13;  // 5 player counts x 32 rule sets x 13 = 2,080 games

class RandomSim : public ::testing::TestWithParam<std::tuple<int, uint8_t>> {};

// Every combination of the implemented expansions, numbered 0..7.
uint8_t expansion_set(uint8_t combination) {
  uint8_t e = 0;
  if (combination & 1) e |= kRiver2;
  if (combination & 2) e |= kKingRobber;
  if (combination & 4) e |= kCultPlaces;
  if (combination & 8) e |= kCount;
  if (combination & 16) e |= kAbbeyMayor;
  return e;
}

void check_node(const State& s, int ply) {
  SCOPED_TRACE("ply " + std::to_string(ply));
  const std::string problem = s.check_consistency();
  ASSERT_TRUE(problem.empty()) << problem;
  if (s.is_chance()) {
    ChanceOutcomes outcomes;
    s.chance_outcomes(outcomes);
    ASSERT_GT(outcomes.size, 0);
    double p = 0;
    for (int i = 0; i < outcomes.size; ++i) {
      ASSERT_GT(outcomes.items[i].copies, 0);
      ASSERT_EQ(outcomes.items[i].copies, s.remaining(outcomes.items[i].tile));
      p += outcomes.probability(i);
    }
    ASSERT_NEAR(p, 1.0, 1e-9);
    return;
  }
  if (s.is_terminal()) return;
  ActionList actions;
  s.legal_actions(actions);
  ASSERT_GT(actions.size, 0) << "a decision node with no legal action";
  ASSERT_TRUE(std::is_sorted(actions.begin(), actions.end()));
  ASSERT_TRUE(std::adjacent_find(actions.begin(), actions.end()) == actions.end()) << "duplicate legal action";
  if (s.phase() == Phase::kDeploy) {
    ASSERT_GT(actions.size, 1) << "a forced pass must be skipped, not asked";
  }
  // Every listed action applies, and is_legal agrees.
  for (Action a : actions) {
    ASSERT_TRUE(s.is_legal(a)) << a.to_string();
    State copy = s;
    copy.apply(a);
  }
  // An illegal action is refused and leaves the state unchanged.
  State copy = s;
  const Action garbage = s.phase() == Phase::kPlace ? Action::place(100, 100, 0) : Action::deploy(Figure::kFollower, 9);
  ASSERT_FALSE(copy.try_apply(garbage).empty());
  ASSERT_TRUE(copy == s);
}

TEST_P(RandomSim, InvariantsHoldAfterEveryAction) {
  const auto [players, expansions] = GetParam();
  Rules rules;
  rules.players = static_cast<uint8_t>(players);
  rules.expansions = expansion_set(expansions);
  for (int g = 0; g < kGamesPerCase; ++g) {
    SCOPED_TRACE("game " + std::to_string(g));
    const uint64_t seed = 1000003ull * players + 7919ull * expansions + static_cast<uint64_t>(g);
    Dealer dealer(seed);
    RandomPlayer bot(seed ^ 0xABCDEFull);
    State s(rules);
    RecordBuilder record(rules);
    std::array<int, kMaxPlayers> last_scores{};
    int ply = 0;
    while (!s.is_terminal()) {
      check_node(s, ply);
      if (::testing::Test::HasFatalFailure()) return;
      ASSERT_LT(ply, 3000) << "the game does not end (a lap that never closes?)";
      // Nobody acts out of turn: the placer decides its own phases; the Count's laps go round the table.
      if (s.phase() == Phase::kPlace || s.phase() == Phase::kDeploy || s.phase() == Phase::kCountDeploy) {
        ASSERT_EQ(s.current_player(), s.turn_player());
      }
      if (s.phase() == Phase::kRedeploy || s.phase() == Phase::kFinalRedeploy) {
        ASSERT_TRUE(rules.has(kCount));
      }
      if (s.phase() == Phase::kTurnStart || s.phase() == Phase::kWagonMove || s.phase() == Phase::kAbbeyRound) {
        ASSERT_TRUE(rules.has(kAbbeyMayor));
      }
      const Action a = s.is_chance() ? dealer.deal(s) : bot.choose(s);
      record.add(s, a);
      // A copy behaves exactly like the original, and every action changes the state as == sees it (an
      // action whose only effect is on fields that == missed, as it once missed Abbey & Mayor's, fails here).
      State copy = s;
      copy.apply(a);
      ASSERT_FALSE(copy == s) << a.to_string() << " changed nothing that == compares";
      s.apply(a);
      ASSERT_TRUE(copy == s) << "copy diverged after " << a.to_string();
      const auto if_ended = s.final_scores_if_ended_now();
      for (int p = 0; p < players; ++p) {
        ASSERT_GE(s.score(p), last_scores[p]) << "score fell";
        ASSERT_GE(if_ended[p], s.score(p)) << "final scoring would take points away";
        last_scores[p] = s.score(p);
        int on_board = 0, in_quarters = 0;
        for (int slot = 0; slot < kFollowersPerPlayer; ++slot) on_board += s.figure_node(p, slot) >= 0;
        // Each special figure is somewhere: supply, board or (the Count) a quarter.
        for (const Figure f : {Figure::kMayor, Figure::kWagon, Figure::kBarn}) {
          const int slot = f == Figure::kMayor ? kMayorSlot : f == Figure::kWagon ? kWagonSlot : kBarnSlot;
          bool quartered = false;
          for (int q = 0; q < kNumQuarters; ++q) quartered = quartered || s.figure_in_quarter(p, f, q);
          ASSERT_EQ(int(s.in_supply(p, f)) + int(s.figure_node(p, slot) >= 0) + int(quartered), rules.has(kAbbeyMayor) ? 1 : 0);
        }
        for (int q = 0; q < kNumQuarters; ++q) in_quarters += s.followers_in_quarter(p, q);
        ASSERT_EQ(on_board + in_quarters + s.followers_in_supply(p), kFollowersPerPlayer) << "followers not conserved";
      }
      // for_each_figure walks exactly the figures figure_node places on the board, by seat then slot.
      std::vector<std::array<int, 3>> walked, on_board;
      s.for_each_figure([&](int p, int slot, int node) { walked.push_back({p, slot, node}); });
      for (int p = 0; p < players; ++p)
        for (int slot = 0; slot < kFiguresPerPlayer; ++slot)
          if (s.figure_node(p, slot) >= 0) on_board.push_back({p, slot, s.figure_node(p, slot)});
      ASSERT_EQ(walked, on_board);
      ++ply;
    }
    check_node(s, ply);
    for (int p = 0; p < players; ++p) {
      if (rules.has(kAbbeyMayor)) {
        EXPECT_TRUE(s.in_supply(p, Figure::kMayor) || s.figure_in_quarter(p, Figure::kMayor, kCastle));
      }
      int in_quarters = 0;
      for (int q = 0; q < kNumQuarters; ++q) in_quarters += s.followers_in_quarter(p, q);
      ASSERT_EQ(s.followers_in_supply(p) + in_quarters, kFollowersPerPlayer) << "followers not back at the end";
    }
    // The record of the game replays to the same final state.
    const GameRecord written = record.finish(s);
    const State replayed = replay(parse_record(written.to_line()));
    ASSERT_TRUE(replayed == s);
  }
}

// The biggest game there is: every expansion, all three shrine sets, six players.
TEST(RandomSimLargest, EverySetTogetherFitsAndPlays) {
  Rules rules;
  rules.players = 6;
  rules.expansions = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
  rules.set_option("shrine_sets", std::vector<std::string>{"ckr", "csc", "spielbox"});
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Dealer dealer(seed);
    RandomPlayer bot(seed);
    State s(rules);
    ASSERT_EQ(s.tiles_left() + s.num_tiles(), kMaxLandTiles);  // the block and the spring are placed already
    while (!s.is_terminal()) s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
    ASSERT_EQ(s.check_consistency(), "");
    EXPECT_LE(s.num_tiles(), kMaxTiles);
  }
}

std::string case_name(const ::testing::TestParamInfo<std::tuple<int, uint8_t>>& info) {
  const auto [players, combination] = info.param;
  const uint8_t expansions = expansion_set(combination);
  std::string name = std::to_string(players) + "p";
  if (expansions & kRiver2) name += "_river2";
  if (expansions & kKingRobber) name += "_king_robber";
  if (expansions & kCultPlaces) name += "_cult_places";
  if (expansions & kCount) name += "_count";
  if (expansions & kAbbeyMayor) name += "_abbey_mayor";
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RandomSim,
                         ::testing::Combine(::testing::Values(2, 3, 4, 5, 6), ::testing::Range(uint8_t{0}, uint8_t{32})),
                         case_name);

}  // namespace
}  // namespace meeple
