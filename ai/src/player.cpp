#include "meeple/ai/player.h"

#include <algorithm>
#include <stdexcept>

namespace meeple {

Action RandomPlayer::choose(const State& state) { return state.sample_legal_action(rng_); }

double GreedyPlayer::value_after(const State& state, Action a, int me) const {
  State next = state;
  next.apply(a);
  if (!next.is_terminal() && !next.is_chance() && next.current_player() == me) {
    ActionList follow;
    next.legal_actions(follow);
    double best = -1e9;
    for (Action f : follow) best = std::max(best, value_after(next, f, me));
    return best;
  }
  const auto scores = next.final_scores_if_ended_now();
  int best_other = -1000000;
  for (int p = 0; p < next.num_players(); ++p)
    if (p != me) best_other = std::max(best_other, scores[p]);
  return scores[me] - best_other;
}

Action GreedyPlayer::choose(const State& state) {
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

std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed) {
  if (spec == "random") return std::make_unique<RandomPlayer>(seed);
  if (spec == "greedy") return std::make_unique<GreedyPlayer>(seed);
  throw std::invalid_argument("unknown bot '" + spec + "'; bots are: random, greedy");
}

}  // namespace meeple
