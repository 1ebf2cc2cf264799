// MCTS: finds the right move in small constructed positions in every search configuration, keeps a
// consistent tree with one and two threads, is reproducible with a seed, reuses its tree, and plays whole
// games under every combination of expansions.
#include <gtest/gtest.h>

#include "../core/scenario.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/mcts.h"
#include "search_games.h"

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

std::unique_ptr<MctsPlayer> mcts(const std::string& spec, uint64_t seed = 7) {
  auto p = make_player(spec, seed);
  return std::unique_ptr<MctsPlayer>(dynamic_cast<MctsPlayer*>(p.release()));
}

// Every way of searching: the default (PUCT guided by the shipped policy networks, drawn tiles passed
// through, first-play urgency, leaves that finish the turn), UCT, the plain UCT before issue 12, two
// threads on one tree, root parallelism, determinizations, one-ply priors, progressive widening, random and
// truncated rollouts, the end-now evaluator, the win/loss reward, the Gumbel root.
const char* const kConfigurations[] = {
    "mcts:iterations=1500",                             // PUCT guided by the shipped policy networks
    "mcts:iterations=3000,puct=0",                      // UCT, the default before the policy networks
    "mcts:iterations=3000,puct=0,chance=full,fpu=-1,finish=0",  // the default before issue 12
    "mcts:iterations=3000,leaf=rollout,c=0.7",
    "mcts:iterations=3000,threads=2",
    "mcts:iterations=2000,threads=2,parallel=root",
    "mcts:iterations=3000,worlds=6",
    "mcts:iterations=1500,policy=oneply,leaf=eval",
    "mcts:iterations=3000,widen=2",
    "mcts:iterations=2000,leaf=truncated,turns=2",
    "mcts:iterations=1500,leaf=eval,eval=endnow",
    "mcts:iterations=3000,reward=win",
    "mcts:iterations=3000,chance=full,threads=2",
    "mcts:iterations=2000,threads=2,puct=0",
    "mcts:iterations=1500,gumbel=16",                   // the Gumbel root: sequential halving
    "mcts:iterations=1500,gumbel=8,threads=2",
};

class EverySearch : public ::testing::TestWithParam<const char*> {};

// Seat 0 holds a city cap; closing the start tile's city with it and a knight pays 4 now, while the deck
// ends the game two tiles later.
void expect_completes_the_city(const char* spec, int players) {
  Scenario sc(rules_with(players), {{"BA.C", 1}, {"BA.RFr", 2}});
  sc.draw("BA.C");
  auto bot = mcts(spec);
  const Action place = bot->choose(sc.state);
  EXPECT_EQ(bot->verify_tree(), "");
  EXPECT_EQ(place, Action::place(0, -1, 2)) << place.to_string();
  ASSERT_EQ(sc.state.try_apply(place), "");
  bot->observe(place);
  const Action deploy = bot->choose(sc.state);
  EXPECT_EQ(bot->verify_tree(), "");
  ASSERT_EQ(sc.state.try_apply(deploy), "");
  EXPECT_EQ(sc.state.score(0, kCityPoints), 4) << deploy.to_string();
}

TEST_P(EverySearch, CompletesACityForPointsTwoPlayers) { expect_completes_the_city(GetParam(), 2); }
TEST_P(EverySearch, CompletesACityForPointsThreePlayers) { expect_completes_the_city(GetParam(), 3); }

// The contested farm of B12_FarmMajority (build_contested_farm): one farmer each (a tie, 3 points each),
// and seat 0 has a second farmer in the south field. Seat 0's last tile, BA.LR at (-1,0)
// turned 270, joins the south field to the rest (2 farmers to 1) and its cloister has 3 neighbours:
// 3 + 4 for seat 0, 0 for seat 1. (With the win/loss reward every winning move is as good.)
TEST_P(EverySearch, TakesAContestedFarm) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 1}, {"BA.L", 2}, {"BA.LR", 1}});
  testing::build_contested_farm(sc);
  sc.draw("BA.LR");
  auto bot = mcts(GetParam());
  while (!sc.state.is_terminal()) {
    const Action a = bot->choose(sc.state);
    EXPECT_EQ(bot->verify_tree(), "");
    ASSERT_EQ(sc.state.try_apply(a), "");
    bot->observe(a);
  }
  if (std::string(GetParam()).find("reward=win") != std::string::npos) {
    EXPECT_GT(sc.state.score(0), sc.state.score(1));  // any win is as good as another
  } else {
    EXPECT_EQ(sc.state.score(0, kFieldPoints), 3);
    EXPECT_EQ(sc.state.score(1, kFieldPoints), 0);
    EXPECT_EQ(sc.state.score(0) - sc.state.score(1), 7);
  }
}

// The last tile of the game can go next to an opponent's cloister (a point for them) or elsewhere.
// Two players: seat 1's monk sits at (0,1). Three players: seat 2's, and seat 0 must not feed it either.
TEST_P(EverySearch, AvoidsFeedingAnOpponentsCloister) {
  for (int players : {2, 3}) {
    SCOPED_TRACE(players);
    Scenario sc(rules_with(players), {{"BA.RFr", players - 1}, {"BA.L", 1}, {"BA.Rr", 1}});
    if (players == 3) sc.turn("BA.RFr", 1, 0, 0);  // seat 0
    sc.turn("BA.RFr", -1, 0, 0);                    // the seat before the monk's owner
    sc.turn("BA.L", 0, 1, 0, "C");                  // the monk below the start tile
    sc.draw("BA.Rr");                               // seat 0 (2 players) or seat 0 again (3 players)
    ASSERT_EQ(sc.state.current_player(), 0);
    const int around = sc.state.tile(sc.state.tile_at(0, 1)).around;
    auto bot = mcts(GetParam());
    const Action place = bot->choose(sc.state);
    ASSERT_EQ(sc.state.try_apply(place), "");
    EXPECT_EQ(sc.state.tile(sc.state.tile_at(0, 1)).around, around) << "fed the cloister with " << place.to_string();
  }
}

INSTANTIATE_TEST_SUITE_P(Mcts, EverySearch, ::testing::ValuesIn(kConfigurations));

// The evaluator leaf finds the city in a longer game, where random rollouts would be noisy.
TEST(Mcts, EvaluatorLeafCompletesACityInALongGame) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 10}, {"BA.Rr", 10}});
  sc.draw("BA.C");
  auto bot = mcts("mcts:iterations=1500");
  EXPECT_EQ(bot->choose(sc.state), Action::place(0, -1, 2));
}

// Positions from the middle of games with every expansion: two threads on one tree leave a consistent
// tree (visits add up, no virtual loss left, nothing expanded twice) and run exactly the budget.
TEST(Mcts, TreeParallelSearchKeepsTheTreeConsistent) {
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kKingRobber}, uint8_t{kCount | kCultPlaces | kAbbeyMayor}}) {
    Dealer dealer(expansions + 5);
    RandomPlayer random(3);
    State s(rules_with(3, expansions));
    for (int i = 0; i < 40 && !s.is_terminal(); ++i) s.apply(s.is_chance() ? dealer.deal(s) : random.choose(s));
    while (s.is_chance()) s.apply(dealer.deal(s));
    for (const char* spec : {"mcts:iterations=20000,threads=2,leaf=eval", "mcts:iterations=3000,threads=2",
                             "mcts:iterations=4000,threads=2,puct=1,widen=1,leaf=eval,max_nodes=5000",
                             "mcts:iterations=4000,threads=2,chance=full,fpu=-1,finish=0"}) {
      SCOPED_TRACE(std::string(spec) + " " + s.rules().to_string());
      auto bot = mcts(spec);
      const Action a = bot->choose(s);
      EXPECT_TRUE(s.is_legal(a)) << a.to_string();
      EXPECT_EQ(bot->verify_tree(), "");
      EXPECT_EQ(bot->last_iterations(), std::stoi(std::string(spec).substr(16)));
      int visits = 0;
      for (const auto& child : bot->last_root()) visits += child.visits;
      EXPECT_EQ(visits, bot->last_iterations());
    }
  }
}

// The profile accounts for every simulation: each ends at exactly one first visit below the root (none
// reaches the end of the game here), at the depths and in the places it reports.
TEST(Mcts, ProfileAccountsForEverySimulation) {
  const State s = testing::random_position(rules_with(2), 2, 20);
  for (const char* spec : {"mcts:iterations=3000,reuse=0,chance=full", "mcts:iterations=3000,reuse=0,chance=sample"}) {
    SCOPED_TRACE(spec);
    auto bot = mcts(spec);
    (void)bot->choose(s);
    const MctsPlayer::Profile p = bot->profile();
    EXPECT_EQ(p.simulations, 3000);
    int64_t below_root = 0, draws = 0;
    for (size_t d = 1; d < p.depths.size(); ++d) below_root += p.depths[d].nodes;
    for (const auto& d : p.depths) draws += d.chance_nodes;
    ASSERT_GT(draws, 0);
    const bool passes = std::string(spec).find("sample") != std::string::npos;
    if (passes) {
      EXPECT_EQ(p.ended_after_draw, 0);  // drawn tiles are passed through
      EXPECT_GT(below_root, 3000);       // so some simulations visit two new nodes
    } else {
      EXPECT_EQ(below_root, 3000);
      EXPECT_GT(p.ended_after_draw, 0);
    }
    EXPECT_EQ(p.depths[1].visits, 3000);
    EXPECT_EQ(p.ended_at_root, p.depths[1].nodes);
    EXPECT_GT(p.mean_leaf_depth, 1.0);
    EXPECT_GE(p.principal_depth, 1);
    EXPECT_GT(p.best_share, 0.0);
    EXPECT_LE(p.best_share, 1.0);
  }
}

TEST(Mcts, NodeCapStopsExpansionButNotTheSearch) {
  Scenario sc(rules_with(2), {{"BA.C", 3}, {"BA.RFr", 3}, {"BA.Rr", 3}});
  sc.draw("BA.RFr");
  auto bot = mcts("mcts:iterations=5000,max_nodes=1000");
  (void)bot->choose(sc.state);
  EXPECT_LE(bot->last_nodes(), 1000);
  EXPECT_EQ(bot->last_iterations(), 5000);
  EXPECT_EQ(bot->verify_tree(), "");
}

// Root parallelism: one tree per worker; the root visits add up over the workers.
TEST(Mcts, RootParallelWorkersAddUp) {
  Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
  sc.draw("BA.C");
  auto bot = mcts("mcts:iterations=1500,threads=2,parallel=root");
  EXPECT_EQ(bot->choose(sc.state), Action::place(0, -1, 2));
  EXPECT_EQ(bot->last_iterations(), 3000);
  EXPECT_EQ(bot->verify_tree(), "");
}

// With one thread and a seed, a whole game of choices (tree reuse included) repeats exactly.
TEST(Mcts, OneThreadWithASeedIsReproducible) {
  auto play = [](std::vector<std::vector<int>>& visits) {
    MctsPlayer a(with_iterations(300, 11)), b(with_iterations(200, 12));
    return play_recording_visits(rules_with(2, kRiver2 | kKingRobber), a, b, 9, visits);
  };
  std::vector<std::vector<int>> first, second;
  EXPECT_EQ(play(first), play(second));
  EXPECT_EQ(first, second);
}

// The Gumbel root with 4 candidates and 1,000 simulations: the first simulation expands the root, then
// two rounds of sequential halving. Round one gives each candidate (999 / 2) / 4 = 124 visits, round two
// gives the 2 kept (1000 - 497) / 2 = 251 more each, and the one simulation left goes to the one played.
// The same seed samples the same candidates and plays the same; the shares hold with two threads too.
TEST(Mcts, GumbelRootSharesTheBudgetBySequentialHalving) {
  // The first position of a random game from the 20th action on with at least 8 choices.
  int actions = 20;
  auto choices = [](const State& s) {
    ActionList legal;
    s.legal_actions(legal);
    return legal.size;
  };
  while (choices(testing::random_position(rules_with(2), 2, actions)) < 8) ++actions;
  const State s = testing::random_position(rules_with(2), 2, actions);
  for (const char* spec : {"mcts:iterations=1000,gumbel=4,reuse=0", "mcts:iterations=1000,gumbel=4,reuse=0,threads=2"}) {
    SCOPED_TRACE(spec);
    auto bot = mcts(spec);
    const Action chosen = bot->choose(s);
    EXPECT_EQ(bot->verify_tree(), "");
    EXPECT_EQ(bot->last_iterations(), 1000);
    std::vector<int> visits;
    int chosen_visits = -1;
    for (const auto& c : bot->last_root()) {
      if (c.visits > 0) visits.push_back(c.visits);
      if (c.action == chosen) chosen_visits = c.visits;
    }
    std::sort(visits.rbegin(), visits.rend());
    // The expanding simulation may have visited a fifth child, or one of the four once more.
    ASSERT_GE(visits.size(), 4u);
    ASSERT_LE(visits.size(), 5u);
    EXPECT_GE(visits[1], 124 + 251);
    EXPECT_LE(visits[0], 124 + 251 + 2);
    EXPECT_LE(visits[2], 124 + 1);
    EXPECT_EQ(chosen_visits, visits[0]);
    auto again = mcts(spec);
    if (std::string(spec).find("threads") == std::string::npos) {
      EXPECT_EQ(again->choose(s), chosen);
    }
  }
  // One candidate: the whole budget goes to it.
  auto single = mcts("mcts:iterations=500,gumbel=1,reuse=0");
  const Action only = single->choose(s);
  EXPECT_EQ(single->last_iterations(), 500);
  for (const auto& c : single->last_root()) {
    if (c.action == only) {
      EXPECT_GE(c.visits, 499);
    }
  }
  // A time budget is shared out by deadlines instead.
  auto timed = mcts("mcts:ms=60,gumbel=16,reuse=0");
  EXPECT_TRUE(s.is_legal(timed->choose(s)));
  EXPECT_EQ(timed->verify_tree(), "");
  EXPECT_GE(timed->last_iterations(), 1);
}

// Tree reuse: after observing its own move and the opponent's, the player starts from the subtree it
// had already searched; a player that is not told the moves searches afresh. Both trees stay consistent.
TEST(Mcts, ReusesTheSubtreeOfTheObservedMoves) {
  Dealer dealer(4);
  MctsPlayer bot(with_iterations(4000));
  RandomPlayer other(5);
  State s(rules_with(2));
  int reused = 0, searches = 0;
  while (!s.is_terminal() && searches < 12) {
    Action a;
    if (s.is_chance()) {
      a = dealer.deal(s);
    } else if (s.current_player() == 0) {
      a = bot.choose(s);
      ++searches;
      reused += bot.reused_visits() > 0;
      EXPECT_EQ(bot.verify_tree(), "");
      EXPECT_EQ(bot.last_iterations(), 4000);
    } else {
      a = other.choose(s);
    }
    s.apply(a);
    bot.observe(a);
  }
  EXPECT_GE(reused, searches / 2);
  while (s.is_chance()) s.apply(dealer.deal(s));
  ASSERT_FALSE(s.is_terminal());
  MctsPlayer fresh(with_iterations(100));
  (void)fresh.choose(s);
  EXPECT_EQ(fresh.reused_visits(), 0);
  EXPECT_THROW(fresh.choose(State(rules_with(2))), std::invalid_argument);  // a chance node: nothing to choose
}

TEST(Mcts, BotSpecsAreCheckedWithClearErrors) {
  EXPECT_NO_THROW(make_player("mcts:iterations=10,leaf=eval,c=0.5,threads=2,puct=1,worlds=4", 1));
  EXPECT_NO_THROW(make_player("heuristic:eval=endnow", 1));
  auto message = [](const std::string& spec) {
    try {
      make_player(spec, 1);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("mcts:leaf=magic"), "bot mcts: bad value 'magic' for leaf: must be rollout or truncated or eval");
  EXPECT_EQ(message("mcts:iterations=x"), "bot mcts: bad value 'x' for iterations: not an integer");
  EXPECT_EQ(message("mcts:c=fast"), "bot mcts: bad value 'fast' for c: not a number");
  EXPECT_EQ(message("mcts:threads=0"), "bot mcts: bad value '0' for threads: must be 1 to 256");
  EXPECT_EQ(message("greedy:iterations=3"), "unknown parameter 'iterations' of bot greedy; its parameters are none");
  EXPECT_NE(message("mcts:depth=3").find("unknown parameter 'depth' of bot mcts; its parameters are batch, c, chance, eval, finish, fpu, gumbel, iterations"), std::string::npos);
  EXPECT_NE(message("mcts:eval=nope").find("unknown evaluator 'nope'"), std::string::npos);
  EXPECT_NE(message("alphazero").find("unknown bot 'alphazero'; bots are: random, greedy, heuristic"), std::string::npos);
  EXPECT_EQ(message("mcts:iterations=0"), "bot mcts needs iterations > 0 or ms > 0");
  EXPECT_EQ(message("mcts:gumbel=4,worlds=3"), "mcts: gumbel needs tree search (it cannot be combined with worlds or parallel=root)");
  EXPECT_EQ(message("mcts:gumbel=-1"), "bot mcts: bad value '-1' for gumbel: must be 0 to " + std::to_string(kMaxActions));
}

// Every player, every combination of expansions, 2 to 4 players: whole games, every choice legal.
TEST(Players, PlayWholeGamesWithEveryExpansionCombination) {
  const char* const specs[] = {"mcts:iterations=8", "mcts:iterations=8,threads=2,leaf=eval", "mcts:iterations=6,worlds=2,puct=1",
                               "heuristic", "greedy", "random"};
  for (int combination = 0; combination < 32; ++combination) {
    Rules rules = rules_with(2 + combination % 3);
    for (int e = 0; e < kNumExpansions; ++e)
      if (combination & (1 << e)) rules.expansions |= static_cast<uint8_t>(1 << e);
    SCOPED_TRACE(rules.to_string());
    Dealer dealer(static_cast<uint64_t>(combination) + 1);
    std::vector<std::unique_ptr<Player>> seats;
    for (int p = 0; p < rules.players; ++p) seats.push_back(make_player(specs[(combination + p) % 6], static_cast<uint64_t>(combination * 8 + p)));
    State s(rules);
    while (!s.is_terminal()) {
      const Action a = s.is_chance() ? dealer.deal(s) : seats[static_cast<size_t>(s.current_player())]->choose(s);
      ASSERT_EQ(s.try_apply(a), "");
      for (auto& seat : seats) seat->observe(a);
    }
  }
}

}  // namespace
}  // namespace meeple
