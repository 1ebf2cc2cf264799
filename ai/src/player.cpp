#include "meeple/ai/player.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace meeple {

void Player::require_decision(const State& state) {
  if (state.current_player() < 0)
    throw std::invalid_argument(std::string("a player was asked to choose at a ") +
                                (state.is_terminal() ? "finished game" : "chance node (a tile draw is due)") +
                                ": players choose only at decision nodes");
}

Action RandomPlayer::choose(const State& state) {
  require_decision(state);
  return state.sample_legal_action(rng_);
}

double OnePlyPlayer::value_after(const State& state, Action a, int me) const {
  State next = state;
  next.apply(a);
  if (!next.is_terminal() && !next.is_chance() && next.current_player() == me) {
    ActionList follow;
    next.legal_actions(follow);
    double best = -1e18;
    for (Action f : follow) best = std::max(best, value_after(next, f, me));
    return best;
  }
  return margin(evaluator_->evaluate(next), me, next.num_players());
}

Action OnePlyPlayer::choose(const State& state) {
  require_decision(state);
  check_rules(state.rules());
  ActionList actions;
  state.legal_actions(actions);
  const int me = state.current_player();
  double best = -1e18;
  Action choice = actions[0];
  int ties = 0;
  for (Action a : actions) {
    const double v = value_after(state, a, me);
    if (v > best) {
      best = v;
      choice = a;
      ties = 1;
    } else if (v == best && rng_.below(static_cast<uint32_t>(++ties)) == 0) {
      choice = a;  // reservoir sampling: each tied action equally likely
    }
  }
  return choice;
}

}  // namespace meeple
