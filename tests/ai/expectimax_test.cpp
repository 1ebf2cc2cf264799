// Expectimax: Star1 and Star2 return exactly the value of plain expectimax (a brute force written here
// independently) at depths 1 to 3 on small decks, with 2 and 3 players and with expansions; they evaluate
// fewer positions; depth 1 plays as the one-ply heuristic; the search finds the right move in small
// constructed positions; budgets stop the deepening.
#include <gtest/gtest.h>

#include <cmath>

#include "../core/scenario.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/expectimax.h"

namespace meeple {
namespace {

using testing::rules_with;
using testing::Scenario;

// The value of a position where the search stops: tanh(margin / scale) of the final scores or of the
// evaluator's estimate.
double brute_force_leaf(const State& s, int me, const Evaluator& e, double scale) {
  PlayerValues v{};
  if (s.is_terminal()) {
    for (int p = 0; p < s.num_players(); ++p) v[p] = s.score(p);
  } else {
    v = e.evaluate(s);
  }
  double other = -1e300;
  for (int p = 0; p < s.num_players(); ++p)
    if (p != me) other = std::max(other, v[p]);
  return std::tanh((v[me] - other) / scale);
}

// Plain expectimax from `me`'s side, as the header defines it: a turn ends at a draw, or where another
// player's turn starts without one; the positions where the last turn ends are evaluated; everyone else
// minimises tanh(margin / scale).
double brute_force(const State& s, int turns, int me, const Evaluator& e, double scale) {
  if (s.is_terminal()) return brute_force_leaf(s, me, e, scale);
  if (s.is_chance()) {
    if (turns <= 1) return brute_force_leaf(s, me, e, scale);
    ChanceOutcomes outcomes;
    s.chance_outcomes(outcomes);
    double sum = 0;
    for (int i = 0; i < outcomes.size; ++i) {
      State child = s;
      child.apply(Action::draw(outcomes.items[i].tile));
      sum += outcomes.probability(i) * brute_force(child, turns - 1, me, e, scale);
    }
    return sum;
  }
  ActionList actions;
  s.legal_actions(actions);
  const bool maximise = s.current_player() == me;
  double best = maximise ? -1e300 : 1e300;
  for (Action a : actions) {
    State child = s;
    child.apply(a);
    const bool next_turn = !child.is_chance() && !child.is_terminal() && child.turn_player() != s.turn_player();
    const double v = next_turn && turns <= 1 ? brute_force_leaf(child, me, e, scale)
                                             : brute_force(child, next_turn ? turns - 1 : turns, me, e, scale);
    best = maximise ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

ExpectimaxOptions with_pruning(ExpectimaxOptions::Pruning pruning) {
  ExpectimaxOptions o;
  o.pruning = pruning;
  return o;
}

// Decision nodes reached by random play from a small deck, a few tiles in.
std::vector<State> small_deck_positions(int players, uint8_t expansions, const std::map<std::string, int>& deck, int count) {
  std::vector<State> out;
  for (uint64_t seed = 1; static_cast<int>(out.size()) < count; ++seed) {
    Dealer dealer(seed);
    RandomPlayer random(seed);
    State s(rules_with(players, expansions), testing::deck_of(deck));
    const int skip = static_cast<int>(seed % 4);
    for (int decisions = 0; !s.is_terminal(); ) {
      if (s.is_chance()) {
        s.apply(dealer.deal(s));
        continue;
      }
      if (decisions++ == skip) break;
      s.apply(random.choose(s));
    }
    if (!s.is_terminal()) out.push_back(s);
  }
  return out;
}

TEST(Expectimax, StarPruningEqualsBruteForce) {
  const auto evaluator = make_evaluator("trained");
  const std::map<std::string, int> deck{{"BA.C", 1}, {"BA.RFr", 2}, {"BA.L", 1}, {"BA.Rr", 1}, {"BA.CRr", 1}};
  struct Case {
    int players;
    uint8_t expansions;
    int max_depth;
  };
  for (const Case c : {Case{2, 0, 3}, Case{3, 0, 2}, Case{2, kKingRobber | kAbbeyMayor, 2}, Case{3, kAbbeyMayor | kCount, 2}}) {
    int64_t plain = 0, star1 = 0, star2 = 0;
    for (const State& s : small_deck_positions(c.players, c.expansions, deck, 6)) {
      for (int depth = 1; depth <= c.max_depth; ++depth) {
        SCOPED_TRACE(s.rules().to_string() + " depth " + std::to_string(depth));
        const double want = brute_force(s, depth, s.current_player(), *evaluator, 20.0);
        ExpectimaxPlayer none(with_pruning(ExpectimaxOptions::Pruning::kNone));
        ExpectimaxPlayer one(with_pruning(ExpectimaxOptions::Pruning::kStar1));
        ExpectimaxPlayer two(with_pruning(ExpectimaxOptions::Pruning::kStar2));
        EXPECT_NEAR(none.value(s, depth), want, 1e-12);
        EXPECT_NEAR(one.value(s, depth), want, 1e-12);
        EXPECT_NEAR(two.value(s, depth), want, 1e-12);
        ExpectimaxOptions parallel = with_pruning(ExpectimaxOptions::Pruning::kStar2);
        parallel.threads = 2;
        ExpectimaxPlayer shared(parallel);
        EXPECT_NEAR(shared.value(s, depth), want, 1e-12);
        if (depth >= 2) {
          plain += none.last_evaluations();
          star1 += one.last_evaluations();
          star2 += two.last_evaluations();
        }
      }
    }
    // Pruning pays: fewer positions evaluated over the deeper searches.
    EXPECT_LT(star1, plain) << c.players << " players";
    EXPECT_LT(star2, plain) << c.players << " players";
  }
}

// After the last tile, players still holding their abbey place it in turn without a draw (A4): each of
// those is a turn of its own, for expectimax and for MCTS's finished turns, so neither searches the whole
// round as one turn. Values still equal the brute force's.
TEST(Expectimax, TheAbbeyRoundIsTurnByTurn) {
  const auto evaluator = make_evaluator("trained");
  int rounds = 0;
  for (uint64_t seed = 1; seed <= 8 && rounds < 3; ++seed) {
    Dealer dealer(seed);
    Rng rng(seed);
    State s(rules_with(3, kAbbeyMayor));  // the whole game, for holes an abbey can fill
    while (!s.is_terminal() && !(s.tiles_left() == 0 && s.phase() == Phase::kPlace)) {
      // Keep the abbeys for the end: pass over abbey placements during the game.
      Action a = s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng);
      while (a.kind() == Action::kAbbey) a = s.sample_legal_action(rng);
      s.apply(a);
    }
    if (s.is_terminal()) continue;
    for (int depth = 1; depth <= 3; ++depth) {
      ExpectimaxPlayer bot{ExpectimaxOptions{}};
      EXPECT_NEAR(bot.value(s, depth), brute_force(s, depth, s.current_player(), *evaluator, 20.0), 1e-12);
    }
    auto mcts = make_player("mcts:iterations=300", seed);
    State game = s;
    while (!game.is_terminal()) {
      rounds += game.phase() == Phase::kAbbeyRound;
      ASSERT_EQ(game.try_apply(mcts->choose(game)), "");
    }
  }
  EXPECT_GT(rounds, 0) << "no game reached the abbey round";
}

// Depth 1 is the one-ply heuristic: the chosen action's one-ply value is the best one.
TEST(Expectimax, DepthOneChoosesAsTheOnePlyHeuristic) {
  const auto evaluator = make_evaluator("trained");
  for (const State& s : small_deck_positions(2, 0, {{"BA.C", 2}, {"BA.RFr", 3}, {"BA.L", 2}, {"BA.CRr", 2}}, 8)) {
    ExpectimaxOptions o;
    o.depth = 1;
    ExpectimaxPlayer bot(o);
    const Action a = bot.choose(s);
    ASSERT_TRUE(s.is_legal(a));
    State after = s;
    after.apply(a);
    const int me = s.current_player();
    EXPECT_NEAR(brute_force(after, 1, me, *evaluator, 20.0), brute_force(s, 1, me, *evaluator, 20.0), 1e-12);
    EXPECT_EQ(bot.last_depth(), 1);
  }
}

// The constructed positions of the MCTS tests: close a city for 4 points; take the contested farm.
TEST(Expectimax, CompletesACityAndTakesAContestedFarm) {
  for (const char* spec : {"expectimax:depth=1", "expectimax:depth=2", "expectimax:depth=3,prune=star1"}) {
    SCOPED_TRACE(spec);
    {
      Scenario sc(rules_with(2), {{"BA.C", 1}, {"BA.RFr", 2}});
      sc.draw("BA.C");
      auto bot = make_player(spec, 1);
      const Action place = bot->choose(sc.state);
      EXPECT_EQ(place, Action::place(0, -1, 2)) << place.to_string();
      ASSERT_EQ(sc.state.try_apply(place), "");
      ASSERT_EQ(sc.state.try_apply(bot->choose(sc.state)), "");
      EXPECT_EQ(sc.state.score(0, kCityPoints), 4);
    }
    {
      Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.C", 1}, {"BA.L", 2}, {"BA.LR", 1}});
      testing::build_contested_farm(sc);
      sc.draw("BA.LR");
      auto bot = make_player(spec, 1);
      while (!sc.state.is_terminal()) ASSERT_EQ(sc.state.try_apply(bot->choose(sc.state)), "");
      EXPECT_EQ(sc.state.score(0) - sc.state.score(1), 7);
    }
  }
}

// An evaluation budget stops the deepening at a completed depth; depth 1 always completes.
TEST(Expectimax, BudgetsStopTheDeepening) {
  const State s = testing::random_position(rules_with(2), 3, 12);
  ExpectimaxOptions tiny;
  tiny.depth = 4;
  tiny.evaluations = 1;
  ExpectimaxPlayer a(tiny);
  EXPECT_TRUE(s.is_legal(a.choose(s)));
  EXPECT_EQ(a.last_depth(), 1);
  ExpectimaxOptions enough = tiny;
  enough.depth = 2;
  enough.evaluations = 1 << 30;
  ExpectimaxPlayer b(enough);
  const Action best = b.choose(s);
  EXPECT_EQ(b.last_depth(), 2);
  ExpectimaxOptions fixed;  // depth 2, no budget: the same search
  ExpectimaxPlayer c(fixed);
  EXPECT_EQ(c.choose(s), best);
  EXPECT_DOUBLE_EQ(c.last_value(), b.last_value());
}

// Two threads at the root choose the move one thread chooses, with the same value, in mid-game positions
// with and without expansions; and they stop within a budget.
TEST(Expectimax, TwoThreadsChooseAsOne) {
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kKingRobber | kAbbeyMayor}}) {
    const State s = testing::random_position(rules_with(2, expansions), 7, 30);
    ExpectimaxOptions one;
    ExpectimaxOptions two = one;
    two.threads = 2;
    ExpectimaxPlayer a(one), b(two);
    EXPECT_EQ(a.choose(s), b.choose(s)) << s.rules().to_string();
    EXPECT_NEAR(a.last_value(), b.last_value(), 1e-12);
    two.evaluations = 2000;
    two.depth = 3;
    ExpectimaxPlayer budgeted(two);
    EXPECT_TRUE(s.is_legal(budgeted.choose(s)));
    EXPECT_GE(budgeted.last_depth(), 1);
    EXPECT_LE(budgeted.last_depth(), 2);
  }
}

TEST(Expectimax, BotSpecsAreCheckedWithClearErrors) {
  EXPECT_NO_THROW(make_player("expectimax:depth=2,prune=star1,eval=endnow,scale=10,ms=50,evals=1000,threads=2", 1));
  for (const char* bad : {"expectimax:depth=0", "expectimax:prune=star3", "expectimax:width=2"}) {
    try {
      make_player(bad, 1);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("expectimax"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace meeple
