// MCTS: finds the right move in small constructed positions, keeps a consistent tree, is reproducible
// with a seed, and plays whole games under every combination of expansions.
#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/mcts.h"

namespace meeple {
namespace {

using testing::rules_with;
using testing::Scenario;

MctsOptions with_iterations(int n, uint64_t seed = 7) {
  MctsOptions o;
  o.iterations = n;
  o.seed = seed;
  return o;
}

// Seat 0 holds a city cap; closing the start tile's city with it and a knight pays 4 now, while the deck
// ends the game two tiles later.
void expect_completes_the_city(int players) {
  Scenario sc(rules_with(players), {{"BA.C", 1}, {"BA.RFr", 2}});
  sc.draw("BA.C");
  MctsPlayer bot(with_iterations(3000));
  const Action place = bot.choose(sc.state);
  EXPECT_EQ(sc.state.try_apply(place), "");
  EXPECT_EQ(bot.verify_tree(), "");
  EXPECT_EQ(place, Action::place(0, -1, 2)) << place.to_string();
  const Action deploy = bot.choose(sc.state);
  EXPECT_EQ(sc.state.try_apply(deploy), "");
  EXPECT_EQ(sc.state.score(0, kCityPoints), 4) << deploy.to_string();
}

TEST(Mcts, CompletesACityForPointsTwoPlayers) { expect_completes_the_city(2); }
TEST(Mcts, CompletesACityForPointsThreePlayers) { expect_completes_the_city(3); }

// The evaluation leaf (scores if the game ended now) finds the same move in a longer game, where random
// rollouts would be noisy: the deck has 20 more tiles.
TEST(Mcts, EvaluatorLeafCompletesACity) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 10}, {"BA.Rr", 10}});
  sc.draw("BA.C");
  MctsOptions o = with_iterations(1500);
  o.leaf = MctsOptions::Leaf::kEval;
  MctsPlayer bot(o);
  const Action place = bot.choose(sc.state);
  EXPECT_EQ(place, Action::place(0, -1, 2)) << place.to_string();
  ASSERT_EQ(sc.state.try_apply(place), "");
  ASSERT_EQ(sc.state.try_apply(bot.choose(sc.state)), "");
  EXPECT_EQ(sc.state.score(0, kCityPoints), 4);
  EXPECT_EQ(bot.verify_tree(), "");
}

TEST(Mcts, BotSpecsAreCheckedWithClearErrors) {
  EXPECT_NO_THROW(make_player("mcts:iterations=10,leaf=eval,c=0.5", 1));
  EXPECT_THROW(make_player("mcts:leaf=magic", 1), std::invalid_argument);
  EXPECT_THROW(make_player("mcts:iterations=x", 1), std::invalid_argument);
  EXPECT_THROW(make_player("greedy:iterations=3", 1), std::invalid_argument);
  try {
    make_player("mcts:depth=3", 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("parameters are iterations, ms, c, scale, leaf, threads"), std::string::npos) << e.what();
  }
}

// Seat 0 must not feed seat 1's cloister: seat 1's monk sits at (0,1), south of the start tile, and the
// last tile of the game can go next to it (giving seat 1 a point) or elsewhere.
TEST(Mcts, AvoidsFeedingAnOpponentsCloister) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.L", 1}, {"BA.Rr", 1}});
  sc.turn("BA.RFr", -1, 0, 0);       // seat 0
  sc.turn("BA.L", 0, 1, 0, "C");     // seat 1: a monk below the start tile
  sc.draw("BA.Rr");                  // seat 0, last tile
  MctsPlayer bot(with_iterations(2000));
  const Action place = bot.choose(sc.state);
  ASSERT_EQ(sc.state.try_apply(place), "");
  const int cloister_tile = sc.state.tile_at(0, 1);
  EXPECT_LT(sc.state.tile(cloister_tile).around, 3) << "fed the cloister with " << place.to_string();
}

// Root parallelism: each worker searches its own tree; the root visits add up over the workers.
TEST(Mcts, RootParallelWorkersAddUp) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
  sc.draw("BA.C");
  MctsOptions o = with_iterations(1500);
  o.threads = 2;
  MctsPlayer bot(o);
  const Action place = bot.choose(sc.state);
  EXPECT_EQ(place, Action::place(0, -1, 2)) << place.to_string();
  EXPECT_EQ(bot.last_iterations(), 3000);
  int visits = 0;
  for (const auto& child : bot.last_root()) visits += child.visits;
  EXPECT_EQ(visits, 3000);
  EXPECT_EQ(bot.verify_tree(), "");
}

TEST(Mcts, SameSeedSameChoiceAndTree) {
  Scenario sc(rules_with(2, kRiver2 | kKingRobber), {{"BA.C", 3}, {"BA.RFr", 3}, {"BA.Rr", 3}});
  while (sc.state.is_chance()) sc.state.apply(Action::draw(sc.state.sample_draw_tile(0)));
  MctsPlayer a(with_iterations(400, 11)), b(with_iterations(400, 11));
  EXPECT_EQ(a.choose(sc.state), b.choose(sc.state));
  ASSERT_EQ(a.last_root().size(), b.last_root().size());
  for (size_t i = 0; i < a.last_root().size(); ++i) EXPECT_EQ(a.last_root()[i].visits, b.last_root()[i].visits);
  EXPECT_EQ(a.verify_tree(), "");
}

TEST(Mcts, PlaysWholeGamesWithEveryExpansionCombination) {
  for (int combination = 0; combination < 32; ++combination) {
    Rules rules;
    rules.players = static_cast<uint8_t>(2 + combination % 3);
    if (combination & 1) rules.expansions |= kRiver2;
    if (combination & 2) rules.expansions |= kKingRobber;
    if (combination & 4) rules.expansions |= kCultPlaces;
    if (combination & 8) rules.expansions |= kCount;
    if (combination & 16) rules.expansions |= kAbbeyMayor;
    SCOPED_TRACE(rules.to_string());
    Dealer dealer(static_cast<uint64_t>(combination) + 1);
    MctsPlayer bot(with_iterations(8, static_cast<uint64_t>(combination) + 3));
    State s(rules);
    while (!s.is_terminal()) {
      const Action a = s.is_chance() ? dealer.deal(s) : bot.choose(s);
      ASSERT_EQ(s.try_apply(a), "");
      if (!s.is_chance() && !s.is_terminal()) {
        ASSERT_EQ(bot.verify_tree(), "");
      }
    }
  }
}

}  // namespace
}  // namespace meeple
