#include "meeple/ai/player.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "meeple/ai/mcts.h"

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

// "random", "greedy", or "mcts" with parameters: "mcts:iterations=2000,c=0.7,ms=0,scale=20".
std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string params = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if ((name == "random" || name == "greedy") && !params.empty())
    throw std::invalid_argument("bot '" + name + "' takes no parameters");
  if (name == "random") return std::make_unique<RandomPlayer>(seed);
  if (name == "greedy") return std::make_unique<GreedyPlayer>(seed);
  if (name == "mcts") {
    MctsOptions o;
    o.seed = seed;
    std::stringstream in(params);
    for (std::string item; std::getline(in, item, ',');) {
      const auto eq = item.find('=');
      const std::string key = item.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
      try {
        if (key == "iterations") o.iterations = std::stoi(value);
        else if (key == "ms") o.milliseconds = std::stoi(value);
        else if (key == "c") o.exploration = std::stod(value);
        else if (key == "scale") o.reward_scale = std::stod(value);
        else if (key == "threads") o.threads = std::stoi(value);
        else if (key == "leaf" && (value == "rollout" || value == "eval"))
          o.leaf = value == "eval" ? MctsOptions::Leaf::kEval : MctsOptions::Leaf::kRollout;
        else if (key == "leaf") throw std::invalid_argument("bot mcts: leaf is rollout or eval, not '" + value + "'");
        else throw std::invalid_argument("unknown parameter '" + key + "' of bot mcts; parameters are iterations, ms, c, scale, leaf, threads");
      } catch (const std::logic_error& e) {
        if (dynamic_cast<const std::invalid_argument*>(&e) && std::string(e.what()).find("bot mcts") != std::string::npos) throw;
        if (dynamic_cast<const std::invalid_argument*>(&e) && std::string(e.what()).find("unknown parameter") != std::string::npos) throw;
        throw std::invalid_argument("bot mcts: bad value '" + value + "' for " + key);
      }
    }
    if (o.iterations <= 0 && o.milliseconds <= 0) throw std::invalid_argument("bot mcts needs iterations > 0 or ms > 0");
    if (o.threads < 1 || o.threads > 256) throw std::invalid_argument("bot mcts: threads must be 1 to 256");
    if (o.milliseconds > 0 && !params.empty() && params.find("iterations") == std::string::npos) o.iterations = 0;
    return std::make_unique<MctsPlayer>(o);
  }
  throw std::invalid_argument("unknown bot '" + spec + "'; bots are: random, greedy, mcts[:iterations=N,ms=N,c=X,scale=X,leaf=rollout|eval,threads=N]");
}

}  // namespace meeple
