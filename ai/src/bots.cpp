#include "meeple/ai/bots.h"

#include <algorithm>
#include <functional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "meeple/ai/evaluator.h"
#include "meeple/ai/expectimax.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/network.h"
#include "meeple/ai/policy.h"
#include <nlohmann/json.hpp>
#include "meeple/ai/features.h"
#include "meeple/checked.h"
#include "meeple/input.h"
#include "meeple/record.h"
#include "meeple/tiles.h"
#include "meeple/version.h"

namespace meeple {
namespace {

// What the help says of a parameter.
struct ParamText {
  const char* key;
  const char* values;    // its syntax: N (an integer), X (a number), a|b (one of the names), FILE.json
  const char* fallback;  // its default
  const char* meaning;
};

// One row of a bot's table: its text, and how a value is applied to the bot's settings S (throwing
// std::invalid_argument saying what is wrong with a bad value).
template <typename S>
struct Param {
  ParamText text;
  void (*set)(S& settings, const std::string& value);
};

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

// "key=value,key=value" against a bot's table. Every key is checked (known, given once: the last would
// win silently) before any value is set.
template <typename S>
void apply_params(const std::string& bot, const std::string& params, std::span<const Param<S>> table, S& settings) {
  auto row_of = [&](const std::string& key) {
    return std::find_if(table.begin(), table.end(), [&](const Param<S>& p) { return key == p.text.key; });
  };
  std::vector<std::pair<std::string, std::string>> items;
  std::stringstream in(params);
  for (std::string item; std::getline(in, item, ',');) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (row_of(key) == table.end()) {
      std::vector<std::string> keys;
      for (const Param<S>& p : table) keys.emplace_back(p.text.key);
      std::sort(keys.begin(), keys.end());
      std::string list;
      for (const std::string& k : keys) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("unknown parameter '" + excerpt(key) + "' of bot " + bot + "; its parameters are " +
                                  (list.empty() ? "none" : list));
    }
    for (const auto& [k, _] : items)
      if (k == key) throw std::invalid_argument("bot " + bot + ": parameter " + key + " given twice");
    items.emplace_back(key, eq == std::string::npos ? "" : item.substr(eq + 1));
  }
  for (const auto& [key, value] : items) {
    try {
      row_of(key)->set(settings, value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("bot " + bot + ": bad value '" + excerpt(value) + "' for " + key + ": " + e.what());
    }
  }
}

// --- The tables, one per bot ------------------------------------------------------------------------------

struct NoSettings {};

struct HeuristicSettings {
  std::shared_ptr<const Evaluator> eval;  // null: the shipped weights
};

const Param<HeuristicSettings> kHeuristicParams[] = {
    {{"eval", "trained|handtuned|endnow|FILE.json", "trained", "the evaluator whose estimate it maximises"},
     [](HeuristicSettings& s, const std::string& v) { s.eval = make_evaluator(v); }},
};

// MctsOptions, and what the checks after the table need to know of the spec.
struct MctsSettings {
  MctsOptions o;
  bool iterations_given = false, scale_given = false, noise_weight_given = false, play_temp_tiles_given = false;
  bool one_ply_priors = false;  // policy=oneply: built after the table, since it needs the evaluator
  double temperature = 5.0;     // of policy=oneply
};

const Param<MctsSettings> kMctsParams[] = {
    {{"iterations", "N", "1000", "simulations per decision (0: none; with ms alone, time only)"},
     [](MctsSettings& s, const std::string& v) { s.o.iterations = parse_int(v, 0, 1 << 30); s.iterations_given = true; }},
    {{"ms", "N", "0", "milliseconds per decision (0: no limit)"},
     [](MctsSettings& s, const std::string& v) { s.o.milliseconds = parse_int(v, 0, 1 << 30); }},
    {{"threads", "N", "1", "search threads (1 to 256)"},
     [](MctsSettings& s, const std::string& v) { s.o.threads = parse_int(v, 1, 256); }},
    {{"parallel", "tree|root", "tree", "tree: one shared tree; root: a tree per thread, their root visits summed"},
     [](MctsSettings& s, const std::string& v) {
       s.o.parallel = parse_choice<MctsOptions::Parallel>(v, {{"tree", MctsOptions::Parallel::kTree}, {"root", MctsOptions::Parallel::kRoot}});
     }},
    {{"worlds", "N", "0", "determinized search: this many sampled tile orders (at most 64), a tree each (0: off)"},
     [](MctsSettings& s, const std::string& v) { s.o.determinizations = parse_int(v, 0, MctsOptions::kMaxDeterminizations); }},
    {{"leaf", "rollout|truncated|eval", "eval", "how a leaf is valued: rollout, a random game to the end; truncated, turns random turns then the evaluator; eval, the evaluator"},
     [](MctsSettings& s, const std::string& v) {
       s.o.leaf = parse_choice<MctsOptions::Leaf>(v, {{"rollout", MctsOptions::Leaf::kRollout}, {"truncated", MctsOptions::Leaf::kTruncated}, {"eval", MctsOptions::Leaf::kEval}});
     }},
    {{"turns", "N", "4", "random turns of leaf=truncated"},
     [](MctsSettings& s, const std::string& v) { s.o.rollout_turns = parse_int(v, 0, 1000); }},
    {{"eval", "trained|handtuned|endnow|FILE.json", "trained", "the evaluator of the leaves (and of policy=oneply)"},
     [](MctsSettings& s, const std::string& v) { s.o.evaluator = make_evaluator(v); }},
    {{"c", "X", "1 with puct=1, 0.4 with puct=0", "prior weight (PUCT) or exploration constant (UCT)"},
     [](MctsSettings& s, const std::string& v) { s.o.exploration = parse_double(v, 0, 100); }},
    {{"scale", "X", "20", "reward = tanh(margin / scale), the margin in points over the best opponent (with net, the network's own unless eval=)"},
     [](MctsSettings& s, const std::string& v) { s.o.reward_scale = parse_double(v, 1e-3, 1e6); s.scale_given = true; }},
    {{"chance", "full|sample", "sample", "full: a drawn tile's first visit ends a simulation; sample: simulations pass through to the drawn tile's decision"},
     [](MctsSettings& s, const std::string& v) {
       s.o.chance = parse_choice<MctsOptions::Chance>(v, {{"full", MctsOptions::Chance::kFull}, {"sample", MctsOptions::Chance::kSample}});
     }},
    {{"fpu", "X", "0.1", "first-play urgency: an untried child is worth its parent's mean less this (negative, UCT only: each child tried once first)"},
     [](MctsSettings& s, const std::string& v) { s.o.fpu = parse_double(v, -1, 10); }},
    {{"finish", "0|1", "1", "1: a leaf in the middle of a turn is valued at the turn's end, its last decisions taken greedily"},
     [](MctsSettings& s, const std::string& v) { s.o.finish_turn = parse_int(v, 0, 1); }},
    {{"reward", "margin|win", "margin", "margin: tanh(margin / scale); win: +1, 0 or -1"},
     [](MctsSettings& s, const std::string& v) {
       s.o.reward = parse_choice<MctsOptions::Reward>(v, {{"margin", MctsOptions::Reward::kMargin}, {"win", MctsOptions::Reward::kWin}});
     }},
    {{"puct", "0|1", "1", "1: PUCT with the priors of policy; 0: UCT"},
     [](MctsSettings& s, const std::string& v) { s.o.puct = parse_int(v, 0, 1); }},
    {{"policy", "trained|oneply|FILE.json", "trained", "the priors: the shipped networks, a softmax of one-ply margins at temp, or a policy file"},
     [](MctsSettings& s, const std::string& v) {
       s.one_ply_priors = v == "oneply";
       s.o.policy = s.one_ply_priors ? nullptr : make_policy(v);
     }},
    {{"temp", "X", "5", "temperature of policy=oneply, in points"},
     [](MctsSettings& s, const std::string& v) { s.temperature = parse_double(v, 1e-3, 1e6); }},
    {{"widen", "X", "0", "progressive widening: only the best ceil(widen * visits^widen_exp) children by prior (0: off)"},
     [](MctsSettings& s, const std::string& v) { s.o.widening = parse_double(v, 0, 1e6); }},
    {{"widen_exp", "X", "0.5", "the exponent of widen"},
     [](MctsSettings& s, const std::string& v) { s.o.widening_exponent = parse_double(v, 0, 1); }},
    {{"gumbel", "N", "0", "Gumbel root: this many root actions sampled by prior, halved by value until one is left (0: off; tree search only)"},
     [](MctsSettings& s, const std::string& v) { s.o.gumbel = parse_int(v, 0, kMaxActions); }},
    {{"reuse", "0|1", "1", "1: keep the subtree of the observed moves between decisions"},
     [](MctsSettings& s, const std::string& v) { s.o.reuse_tree = parse_int(v, 0, 1); }},
    {{"max_nodes", "N", "8000000", "beyond this many nodes (1000 to 100000000) leaves are valued but no longer expanded"},
     [](MctsSettings& s, const std::string& v) { s.o.max_nodes = static_cast<size_t>(parse_int(v, 1000, MctsOptions::kMaxNodes)); }},
    {{"net", "trained|FILE.json", "none", "a policy-value network for the priors and the leaves' values (tree search only); with eval= only the priors, with policy= only the values; trained: the shipped one for the game's rules"},
     [](MctsSettings& s, const std::string& v) {
       if (v == "trained") {
         s.o.network = shipped_networks().front();
         s.o.shipped_network = true;
         return;
       }
       if (!v.ends_with(".json")) throw std::invalid_argument("networks are trained (the shipped ones) or weight files FILE.json");
       s.o.network = load_network(v);
     }},
    {{"net_value", "W", "0", "with net and eval=: a leaf's value is W times the network's plus 1 - W times the evaluator's"},
     [](MctsSettings& s, const std::string& v) { s.o.net_value_weight = parse_double(v, 0, 1); }},
    {{"batch", "N", "8", "with net: leaves per network call (1 to 256)"},
     [](MctsSettings& s, const std::string& v) { s.o.batch = parse_int(v, 1, MctsOptions::kMaxBatch); }},
    {{"noise", "X", "0", "Dirichlet noise of this alpha mixed into the root's priors (0: off)"},
     [](MctsSettings& s, const std::string& v) { s.o.root_noise = parse_double(v, 0, 100); }},
    {{"noise_weight", "X", "0.25", "the noise's share of the root's priors"},
     [](MctsSettings& s, const std::string& v) { s.o.noise_weight = parse_double(v, 0, 1); s.noise_weight_given = true; }},
    {{"play_temp", "X", "0", "play a root action drawn with odds visits^(1/play_temp), not the most visited (0: off)"},
     [](MctsSettings& s, const std::string& v) { s.o.play_temperature = parse_double(v, 0, 100); }},
    {{"play_temp_tiles", "N", "0", "play_temp applies while fewer tiles than this are on the board (0: all game)"},
     [](MctsSettings& s, const std::string& v) { s.o.play_temperature_tiles = parse_int(v, 0, 1000); s.play_temp_tiles_given = true; }},
};

const Param<ExpectimaxOptions> kExpectimaxParams[] = {
    {{"depth", "N", "2", "turns searched (1 to 8); with ms or evals, iterative deepening up to it"},
     [](ExpectimaxOptions& o, const std::string& v) { o.depth = parse_int(v, 1, 8); }},
    {{"ms", "N", "0", "milliseconds per decision (0: no limit)"},
     [](ExpectimaxOptions& o, const std::string& v) { o.milliseconds = parse_int(v, 0, 1 << 30); }},
    {{"evals", "N", "0", "evaluator calls per decision (0: no limit)"},
     [](ExpectimaxOptions& o, const std::string& v) { o.evaluations = parse_int(v, 0, 1 << 30); }},
    {{"threads", "N", "1", "search threads (1 to 256)"},
     [](ExpectimaxOptions& o, const std::string& v) { o.threads = parse_int(v, 1, 256); }},
    {{"prune", "none|star1|star2", "star2", "pruning at the tile draws; each gives the same value"},
     [](ExpectimaxOptions& o, const std::string& v) {
       o.pruning = parse_choice<ExpectimaxOptions::Pruning>(v, {{"none", ExpectimaxOptions::Pruning::kNone}, {"star1", ExpectimaxOptions::Pruning::kStar1}, {"star2", ExpectimaxOptions::Pruning::kStar2}});
     }},
    {{"eval", "trained|handtuned|endnow|FILE.json", "trained", "the evaluator"},
     [](ExpectimaxOptions& o, const std::string& v) { o.evaluator = make_evaluator(v); }},
    {{"scale", "X", "20", "value = tanh(margin / scale)"},
     [](ExpectimaxOptions& o, const std::string& v) { o.reward_scale = parse_double(v, 1e-3, 1e6); }},
};

// --- The bots -------------------------------------------------------------------------------------------

std::unique_ptr<Player> build_mcts(MctsSettings& s, uint64_t seed) {
  MctsOptions& o = s.o;
  o.seed = seed;
  if (s.noise_weight_given && o.root_noise == 0) throw std::invalid_argument("bot mcts: noise_weight needs noise=ALPHA (the noise it weighs)");
  if (s.play_temp_tiles_given && o.play_temperature == 0) throw std::invalid_argument("bot mcts: play_temp_tiles needs play_temp=T");
  if (o.network && s.scale_given && !o.evaluator)
    throw std::invalid_argument("bot mcts: scale cannot be combined with net unless eval= values the leaves (the network's reward_scale is used)");
  if (s.one_ply_priors) o.policy = std::make_shared<OnePlyPolicy>(o.evaluator ? o.evaluator : make_evaluator("trained"), s.temperature);
  if (o.milliseconds > 0 && !s.iterations_given) o.iterations = 0;  // "ms=1000" alone: time only
  if (o.iterations <= 0 && o.milliseconds <= 0) throw std::invalid_argument("bot mcts needs iterations > 0 or ms > 0");
  return std::make_unique<MctsPlayer>(o);
}

struct Bot {
  const char* name;
  const char* summary;
  std::vector<ParamText> params;
  std::function<std::unique_ptr<Player>(const std::string& params, uint64_t seed)> make;
};

// A bot whose spec sets the settings S through `table`, then `build` makes the player from them.
template <typename S>
Bot bot(const char* name, const char* summary, std::span<const Param<S>> table,
        std::unique_ptr<Player> (*build)(S& settings, uint64_t seed)) {
  std::vector<ParamText> texts;
  for (const Param<S>& p : table) texts.push_back(p.text);
  return {name, summary, std::move(texts), [name, table, build](const std::string& params, uint64_t seed) {
            S settings{};
            apply_params(name, params, table, settings);
            return build(settings, seed);
          }};
}

const std::vector<Bot>& bots() {
  static const std::vector<Bot> all = {
      bot<NoSettings>("random", "uniform over the legal actions", {},
                      [](NoSettings&, uint64_t seed) -> std::unique_ptr<Player> { return std::make_unique<RandomPlayer>(seed); }),
      bot<NoSettings>("greedy", "the best one-ply score difference, counting what the board would pay if the game ended now", {},
                      [](NoSettings&, uint64_t seed) -> std::unique_ptr<Player> {
                        return std::make_unique<OnePlyPlayer>("greedy", std::make_shared<EndNowEvaluator>(), seed);
                      }),
      bot<HeuristicSettings>("heuristic", "the best one-ply estimate of an evaluator's score difference", kHeuristicParams,
                             [](HeuristicSettings& s, uint64_t seed) -> std::unique_ptr<Player> {
                               return std::make_unique<OnePlyPlayer>("heuristic", s.eval ? s.eval : make_evaluator("trained"), seed);
                             }),
      bot<MctsSettings>("mcts", "Monte Carlo tree search", kMctsParams, build_mcts),
      bot<ExpectimaxOptions>("expectimax", "expectimax over the tile draws, turns deep", kExpectimaxParams,
                             [](ExpectimaxOptions& o, uint64_t seed) -> std::unique_ptr<Player> {
                               o.seed = seed;
                               return std::make_unique<ExpectimaxPlayer>(o);
                             }),
  };
  return all;
}

}  // namespace

std::string bot_spec_help() {
  std::string out = "bots are: ";
  for (const Bot& b : bots()) {
    if (&b != &bots().front()) out += ", ";
    out += b.name;
    for (const ParamText& p : b.params) out += (&p == &b.params.front() ? "[:" : ",") + std::string(p.key) + "=" + p.values;
    if (!b.params.empty()) out += "]";
  }
  return out;
}

std::string bot_parameters_help() {
  std::string out;
  for (const Bot& b : bots()) {
    out += std::string(b.name) + ": " + b.summary + "\n";
    for (const ParamText& p : b.params)
      out += "  " + std::string(p.key) + "=" + p.values + " (default " + p.fallback + "): " + p.meaning + "\n";
  }
  return out;
}

std::unique_ptr<Player> make_player(const std::string& spec, uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string params = colon == std::string::npos ? "" : spec.substr(colon + 1);
  for (const Bot& b : bots())
    if (name == b.name) return b.make(params, seed);
  throw std::invalid_argument("unknown bot '" + excerpt(spec) + "'; " + bot_spec_help());
}

namespace {

nlohmann::json info() {
  using nlohmann::json;
  const TileCatalog& c = TileCatalog::get();
  json out;
  out["version"] = MEEPLE_VERSION;
  out["record_format"] = kRecordFormat;
  json expansions = json::array();
  for (int i = 0; i < kNumExpansions; ++i) expansions.push_back({{"name", expansion_name(static_cast<Expansion>(1 << i))}});
  out["expansions"] = expansions;
  json options = json::array();
  for (const OptionSpec& o : option_specs()) {
    json values = json::array();
    for (const char* v : o.values) values.push_back(v);
    options.push_back({{"name", o.name},
                       {"values", values},
                       {"default", o.is_set ? json::array({o.values[0]}) : json(o.values[0])},
                       {"expansion", o.expansion ? expansion_name(static_cast<Expansion>(o.expansion)) : "base"},
                       {"note", o.note}});
  }
  out["options"] = options;
  json sets = json::object();
  for (const TileSet& s : c.sets()) sets[s.name] = {{"tiles", s.total()}, {"types", s.counts.size()}};
  out["tile_sets"] = sets;
  out["tile_types"] = c.size();
  json bot_list = json::array();
  for (const Bot& b : bots()) {
    json parameters = json::array();
    for (const ParamText& p : b.params)
      parameters.push_back({{"key", p.key}, {"values", p.values}, {"default", p.fallback}, {"meaning", p.meaning}});
    bot_list.push_back({{"name", b.name}, {"summary", b.summary}, {"parameters", parameters}});
  }
  out["bots"] = bot_list;
  out["features"] = kFeatureNames;
  json categories = json::array();
  for (int i = 0; i < kNumCategories; ++i) categories.push_back(category_name(i));
  out["score_categories"] = categories;
  out["state_size_bytes"] = kStateBytes;
  out["max_players"] = kMaxPlayers;
  return out;
}

}  // namespace

std::string info_json() { return info().dump(2); }

std::string info_text() {
  const nlohmann::json i = info();
  std::string out = "meeple " + i["version"].get<std::string>() + " (records: " + i["record_format"].get<std::string>() + ")\n" +
                    "state size: " + std::to_string(kStateBytes) + " bytes\nexpansions:";
  for (const auto& e : i["expansions"]) out += " " + e["name"].get<std::string>();
  out += "\noptions:\n";
  for (const auto& o : i["options"]) out += "  " + o["name"].get<std::string>() + " = " + o["values"].dump() + "  " + o["note"].get<std::string>() + "\n";
  out += "tile sets:\n";
  for (auto it = i["tile_sets"].begin(); it != i["tile_sets"].end(); ++it)
    out += "  " + it.key() + ": " + it.value()["tiles"].dump() + " tiles\n";
  out += "bots: " + bot_spec_help().substr(std::string("bots are: ").size()) + "\n";
  return out;
}

}  // namespace meeple
