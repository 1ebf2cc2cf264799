// Plays one game of the base game between meeple's greedy and MCTS bots and prints the version and scores.
#include <iostream>

#include <meeple/ai/bots.h>
#include <meeple/random.h>
#include <meeple/state.h>
#include <meeple/version.h>

static_assert(MEEPLE_VERSION_MAJOR >= 0, "meeple/version.h gives the version as numbers too");

int main() {
  meeple::Rules rules;
  rules.players = 2;
  meeple::State state(rules);
  meeple::Dealer dealer(7);
  auto greedy = meeple::make_player("greedy", 1);
  auto mcts = meeple::make_player("mcts:iterations=50", 2);
  while (!state.is_terminal()) {
    meeple::Action a = state.is_chance() ? dealer.deal(state)
                       : state.current_player() == 0 ? greedy->choose(state)
                                                      : mcts->choose(state);
    state.apply(a);
    greedy->observe(a);
    mcts->observe(a);
  }
  std::cout << "meeple " << meeple::kVersion << " scores " << state.score(0) << " " << state.score(1) << "\n";
  return state.score(0) + state.score(1) > 0 ? 0 : 1;
}
