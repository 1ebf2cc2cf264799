#include "meeple/ai/player.h"

#include <algorithm>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "meeple/ai/expectimax.h"
#include "meeple/checked.h"
#include "meeple/input.h"
#include "meeple/ai/mcts.h"

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

namespace {

// "key=value,key=value" against a table of setters; each setter throws std::invalid_argument saying
// what is wrong with a bad value.
using Setters = std::map<std::string, std::function<void(const std::string&)>>;

// Every name is checked (known, given once: the last would win silently) before any value is set.
void apply_params(const std::string& bot, const std::string& params, const Setters& setters) {
  std::vector<std::pair<std::string, std::string>> items;
  std::stringstream in(params);
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (!setters.count(key)) {
      std::string keys;
      for (const auto& [k, _] : setters) keys += (keys.empty() ? "" : ", ") + k;
      throw std::invalid_argument("unknown parameter '" + excerpt(key) + "' of bot " + bot + "; its parameters are " +
                                  (keys.empty() ? "none" : keys));
    }
    for (const auto& [k, _] : items)
      if (k == key) throw std::invalid_argument("bot " + bot + ": parameter " + key + " given twice");
    items.emplace_back(key, eq == std::string::npos ? "" : item.substr(eq + 1));
  }
  for (const auto& [key, value] : items) {
    try {
      setters.at(key)(value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("bot " + bot + ": bad value '" + excerpt(value) + "' for " + key + ": " + e.what());
    }
  }
}

int parse_int(const std::string& v, int lo, int hi) { return parse_number<int>(v, lo, hi); }  // meeple/checked.h
double parse_double(const std::string& v, double lo, double hi) { return parse_number<double>(v, lo, hi); }

template <typename E>
E parse_choice(const std::string& v, std::initializer_list<std::pair<const char*, E>> choices) {
  std::string names;
  for (const auto& [n, e] : choices) {
    if (v == n) return e;
    names += (names.empty() ? "" : " or ") + std::string(n);
  }
  throw std::invalid_argument("must be " + names);
}

}  // namespace

std::string bot_spec_help() {
  return "bots are: random, greedy, heuristic[:eval=trained|handtuned|endnow|FILE.json], "
         "mcts[:iterations=N,ms=N,threads=N,parallel=tree|root,worlds=N,leaf=rollout|truncated|eval,turns=N,"
         "eval=trained|handtuned|endnow|FILE.json,c=X,scale=X,chance=full|sample,fpu=X,finish=0|1,reward=margin|win,puct=0|1,policy=trained|oneply|FILE.json,temp=X,widen=X,widen_exp=X,gumbel=N,"
         "reuse=0|1,max_nodes=N,net=FILE.json,batch=N,noise=X,noise_weight=X,play_temp=X,play_temp_tiles=N], expectimax[:depth=N,ms=N,evals=N,threads=N,prune=none|star1|star2,"
         "eval=trained|handtuned|endnow|FILE.json,scale=X]";
}

std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string params = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (name == "random" || name == "greedy") {
    apply_params(name, params, {});
    if (name == "random") return std::make_unique<RandomPlayer>(seed);
    return std::make_unique<OnePlyPlayer>("greedy", std::make_shared<EndNowEvaluator>(), seed);
  }
  if (name == "heuristic") {
    std::shared_ptr<const Evaluator> eval = make_evaluator("trained");
    apply_params(name, params, {{"eval", [&](const std::string& v) { eval = make_evaluator(v); }}});
    return std::make_unique<OnePlyPlayer>("heuristic", eval, seed);
  }
  if (name == "mcts") {
    MctsOptions o;
    o.seed = seed;
    bool iterations_given = false, noise_weight_given = false, play_temp_tiles_given = false;
    bool one_ply_priors = false;
    bool scale_given = false;
    double temperature = 5.0;
    apply_params(name, params, {
        {"iterations", [&](const std::string& v) { o.iterations = parse_int(v, 0, 1 << 30); iterations_given = true; }},
        {"ms", [&](const std::string& v) { o.milliseconds = parse_int(v, 0, 1 << 30); }},
        {"threads", [&](const std::string& v) { o.threads = parse_int(v, 1, 256); }},
        {"parallel", [&](const std::string& v) { o.parallel = parse_choice<MctsOptions::Parallel>(v, {{"tree", MctsOptions::Parallel::kTree}, {"root", MctsOptions::Parallel::kRoot}}); }},
        {"worlds", [&](const std::string& v) { o.determinizations = parse_int(v, 0, MctsOptions::kMaxDeterminizations); }},
        {"leaf", [&](const std::string& v) { o.leaf = parse_choice<MctsOptions::Leaf>(v, {{"rollout", MctsOptions::Leaf::kRollout}, {"truncated", MctsOptions::Leaf::kTruncated}, {"eval", MctsOptions::Leaf::kEval}}); }},
        {"turns", [&](const std::string& v) { o.rollout_turns = parse_int(v, 0, 1000); }},
        {"eval", [&](const std::string& v) { o.evaluator = make_evaluator(v); }},
        {"c", [&](const std::string& v) { o.exploration = parse_double(v, 0, 100); }},
        {"scale", [&](const std::string& v) { o.reward_scale = parse_double(v, 1e-3, 1e6); scale_given = true; }},
        {"reward", [&](const std::string& v) { o.reward = parse_choice<MctsOptions::Reward>(v, {{"margin", MctsOptions::Reward::kMargin}, {"win", MctsOptions::Reward::kWin}}); }},
        {"chance", [&](const std::string& v) { o.chance = parse_choice<MctsOptions::Chance>(v, {{"full", MctsOptions::Chance::kFull}, {"sample", MctsOptions::Chance::kSample}}); }},
        {"finish", [&](const std::string& v) { o.finish_turn = parse_int(v, 0, 1); }},
        {"fpu", [&](const std::string& v) { o.fpu = parse_double(v, -1, 10); }},
        {"puct", [&](const std::string& v) { o.puct = parse_int(v, 0, 1); }},
        {"temp", [&](const std::string& v) { temperature = parse_double(v, 1e-3, 1e6); }},
        {"policy", [&](const std::string& v) {
          one_ply_priors = v == "oneply";  // built below: it needs the evaluator, which may come later
          o.policy = one_ply_priors ? nullptr : make_policy(v);
        }},
        {"widen", [&](const std::string& v) { o.widening = parse_double(v, 0, 1e6); }},
        {"widen_exp", [&](const std::string& v) { o.widening_exponent = parse_double(v, 0, 1); }},
        {"gumbel", [&](const std::string& v) { o.gumbel = parse_int(v, 0, kMaxActions); }},
        {"reuse", [&](const std::string& v) { o.reuse_tree = parse_int(v, 0, 1); }},
        {"max_nodes", [&](const std::string& v) { o.max_nodes = static_cast<size_t>(parse_int(v, 1000, MctsOptions::kMaxNodes)); }},
        {"net", [&](const std::string& v) {
          if (v == "trained") throw std::invalid_argument("no shipped network yet: give a weight file FILE.json");
          if (!v.ends_with(".json")) throw std::invalid_argument("networks are weight files FILE.json");
          o.network = load_network(v);
        }},
        {"batch", [&](const std::string& v) { o.batch = parse_int(v, 1, MctsOptions::kMaxBatch); }},
        {"noise", [&](const std::string& v) { o.root_noise = parse_double(v, 0, 100); }},
        {"noise_weight", [&](const std::string& v) { o.noise_weight = parse_double(v, 0, 1); noise_weight_given = true; }},
        {"play_temp", [&](const std::string& v) { o.play_temperature = parse_double(v, 0, 100); }},
        {"play_temp_tiles", [&](const std::string& v) { o.play_temperature_tiles = parse_int(v, 0, 1000); play_temp_tiles_given = true; }},
    });
    if (noise_weight_given && o.root_noise == 0) throw std::invalid_argument("bot mcts: noise_weight needs noise=ALPHA (the noise it weighs)");
    if (play_temp_tiles_given && o.play_temperature == 0) throw std::invalid_argument("bot mcts: play_temp_tiles needs play_temp=T");
    if (o.network && scale_given && !o.evaluator)
      throw std::invalid_argument("bot mcts: scale cannot be combined with net unless eval= values the leaves (the network's reward_scale is used)");
    if (one_ply_priors) o.policy = std::make_shared<OnePlyPolicy>(o.evaluator ? o.evaluator : make_evaluator("trained"), temperature);
    if (o.milliseconds > 0 && !iterations_given) o.iterations = 0;  // "ms=1000" alone: time only
    if (o.iterations <= 0 && o.milliseconds <= 0) throw std::invalid_argument("bot mcts needs iterations > 0 or ms > 0");
    return std::make_unique<MctsPlayer>(o);
  }
  if (name == "expectimax") {
    ExpectimaxOptions o;
    o.seed = seed;
    apply_params(name, params, {
        {"depth", [&](const std::string& v) { o.depth = parse_int(v, 1, 8); }},
        {"ms", [&](const std::string& v) { o.milliseconds = parse_int(v, 0, 1 << 30); }},
        {"evals", [&](const std::string& v) { o.evaluations = parse_int(v, 0, 1 << 30); }},
        {"threads", [&](const std::string& v) { o.threads = parse_int(v, 1, 256); }},
        {"prune", [&](const std::string& v) { o.pruning = parse_choice<ExpectimaxOptions::Pruning>(v, {{"none", ExpectimaxOptions::Pruning::kNone}, {"star1", ExpectimaxOptions::Pruning::kStar1}, {"star2", ExpectimaxOptions::Pruning::kStar2}}); }},
        {"eval", [&](const std::string& v) { o.evaluator = make_evaluator(v); }},
        {"scale", [&](const std::string& v) { o.reward_scale = parse_double(v, 1e-3, 1e6); }},
    });
    return std::make_unique<ExpectimaxPlayer>(o);
  }
  throw std::invalid_argument("unknown bot '" + excerpt(spec) + "'; " + bot_spec_help());
}

}  // namespace meeple
