// Players and evaluators in Python, and batch play in C++ threads. The GIL is released while C++ thinks.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/ai/bots.h"
#include "meeple/ai/encoding.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/match.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/player.h"
#include "meeple/ai/policy.h"
#include "meeple/ai/selfplay.h"

namespace meeple::python {
namespace {

// Lets Python classes derive from meeple.Player: choose() (and observe(), name()) are looked up in Python.
// What Python returns is checked here, so a bot returning the wrong thing is named where it happens, not
// by whatever uses the value next.
class PyPlayer : public Player {
 public:
  std::string name() const override {
    py::gil_scoped_acquire gil;
    py::function f = py::get_override(static_cast<const Player*>(this), "name");
    if (!f) return "python";
    const py::object name = f();
    if (!py::isinstance<py::str>(name)) throw py::type_error(class_name() + ".name returned " + describe(name) + ", expected str");
    return utf8_text(name, class_name() + ".name");
  }
  Action choose(const State& state) override {
    py::gil_scoped_acquire gil;
    py::function f = py::get_override(static_cast<const Player*>(this), "choose");
    if (!f) throw py::type_error("meeple.Player subclass " + class_name() + " does not define choose(state)");
    const py::object action = f(state);
    if (!py::isinstance<Action>(action))
      throw py::type_error("Player '" + label() + "'.choose returned " + describe(action) + ", expected meeple.Action");
    return action.cast<Action>();
  }
  void observe(Action a) override { PYBIND11_OVERRIDE(void, Player, observe, a); }

 private:
  std::string class_name() const {
    return py::str(py::type::handle_of(py::cast(static_cast<const Player*>(this))).attr("__name__"));
  }
  std::string label() const {  // the name the bot gives itself, or its class's when name() fails
    try {
      return name();
    } catch (const std::exception&) {
      return class_name();
    }
  }
};

// A Python player in play_seated: what its choose returns is checked with the bot and its seat named, as
// the environments name them.
class SeatedPython : public Player {
 public:
  SeatedPython(std::shared_ptr<Player> bot, std::string name) : bot_(std::move(bot)), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  Action choose(const State& state) override {
    py::gil_scoped_acquire gil;
    const py::object action = py::cast(bot_).attr("choose")(state);
    if (!py::isinstance<Action>(action))
      throw py::type_error("bot " + name_ + " at seat " + std::to_string(state.current_player()) + " returned " + describe(action) +
                           " from choose(), not a meeple.Action");
    return action.cast<Action>();
  }
  void observe(Action a) override { bot_->observe(a); }

 private:
  std::shared_ptr<Player> bot_;
  std::string name_;
};

// A C++ bot handed to Python. Python threads may share it, and choose() runs without the GIL, but a
// search is not reentrant (two at once corrupt its tree): the lock makes calls take turns. Turns rather
// than a refusal: a program sharing a bot between threads is then correct, only no faster, and each call
// sees what the ones before it observed, as without threads. Python bots need none: they run under the GIL.
class SharedPlayer final : public Player {
 public:
  explicit SharedPlayer(std::unique_ptr<Player> player) : player_(std::move(player)) {}
  std::string name() const override { return player_->name(); }  // fixed when the bot is made
  Action choose(const State& state) override {
    const std::lock_guard lock(mutex_);
    return player_->choose(state);
  }
  void observe(Action a) override {
    const std::lock_guard lock(mutex_);
    player_->observe(a);
  }
  void check_rules(const Rules& rules) const override { player_->check_rules(rules); }  // reads only its settings

 private:
  std::unique_ptr<Player> player_;
  std::mutex mutex_;
};

// Runs `work` on another thread while this one, the main thread, watches for Ctrl-C (Python only sees
// signals there). `work` polls `stop`, and runs Python callbacks through `in_python` (which takes the GIL
// and, once stopping, runs nothing). An interrupt or an exception in a callback sets `stop`. After `work`
// has returned, an exception it threw is rethrown; an interrupt is returned (the KeyboardInterrupt to
// raise once the caller has kept what finished), or null.
using InPython = std::function<void(const std::function<void()>&)>;
[[nodiscard]] std::exception_ptr run_watching_signals(
    const std::function<void(const std::atomic<bool>& stop, const InPython& in_python)>& work) {
  std::atomic<bool> stop{false}, done{false};
  std::exception_ptr failure, interrupt;  // set by the work's thread, by this one
  {
    py::gil_scoped_release release;
    std::thread runner([&] {
      try {
        work(stop, [&](const std::function<void()>& callback) {
          if (stop) return;
          py::gil_scoped_acquire gil;
          try {
            callback();
          } catch (...) {
            stop = true;
            throw;
          }
        });
      } catch (...) {
        failure = std::current_exception();
      }
      done = true;
    });
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      py::gil_scoped_acquire gil;
      if (!interrupt && PyErr_CheckSignals() != 0) {
        stop = true;
        interrupt = std::make_exception_ptr(py::error_already_set());  // takes the KeyboardInterrupt
      }
    }
    runner.join();
  }
  // A signal that came after the last look still counts: the caller keeps what finished, then raises.
  if (!interrupt && PyErr_CheckSignals() != 0) interrupt = std::make_exception_ptr(py::error_already_set());
  if (failure) std::rethrow_exception(failure);
  return interrupt;
}

using GameList = std::vector<std::pair<std::vector<std::string>, uint64_t>>;  // (bots per seat, seed)

std::vector<GameSpec> game_specs(const GameList& games) {
  std::vector<GameSpec> specs;
  for (const auto& [bots, seed] : games) specs.push_back({bots, seed});
  return specs;
}

// The seats of a game played from Python: C++ bots as they are, Python players wrapped so that their
// choices are checked with the bot and its seat named (one wrapper for one object in two seats), and None
// for the caller's seats where `callers` allows them. Every player checks the rules before the game.
struct Seats {
  std::vector<std::shared_ptr<Player>> players;  // kept alive as long as the seats
  std::vector<py::object> python_players;        // and the Python objects of Python players (their overrides)
  std::vector<std::unique_ptr<Player>> wrappers;
  std::vector<Player*> seats;

  Seats(const Rules& rules, const std::vector<std::shared_ptr<Player>>& given, const std::vector<std::string>& names,
        bool callers, const std::string& who)
      : players(given) {
    if (names.size() != players.size())
      throw std::invalid_argument(who + ": one name per player, got " + std::to_string(names.size()) + " names for " +
                                  std::to_string(players.size()) + " players");
    if (static_cast<int>(players.size()) != rules.players)
      throw std::invalid_argument(who + ": the rules seat " + std::to_string(rules.players) + " players, got " +
                                  std::to_string(players.size()));
    for (size_t p = 0; p < players.size(); ++p) {
      if (!players[p]) {
        if (!callers) throw py::type_error(who + ": the player of seat " + std::to_string(p) + " is None");
        seats.push_back(nullptr);
        continue;
      }
      if (dynamic_cast<PyPlayer*>(players[p].get()) == nullptr) {
        seats.push_back(players[p].get());
        continue;
      }
      const size_t first = static_cast<size_t>(std::find(players.begin(), players.end(), players[p]) - players.begin());
      if (first < p) {  // the same object in two seats: one wrapper, told each action once
        seats.push_back(seats[first]);
        continue;
      }
      python_players.push_back(py::cast(players[p]));
      wrappers.push_back(std::make_unique<SeatedPython>(players[p], names[p]));
      seats.push_back(wrappers.back().get());
    }
    for (Player* seat : seats)
      if (seat) seat->check_rules(rules);  // weights fitted to other rules fail before the game
  }
};

// Ctrl-C is looked for after every choice of a game played with the GIL released.
void check_signals(const State&, const Player&) {
  const py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// A game stepped from Python: meeple::Table with its seats, used by one thread at a time.
class PyTable {
 public:
  PyTable(const Rules& rules, const std::vector<std::shared_ptr<Player>>& players, const std::vector<std::string>& names,
          uint64_t seed, bool record)
      : seats_(rules, players, names, true, "Table"), table_(rules, seats_.seats, names, seed, record, true) {}

  // The actions applied, each with the position before it, when `log`.
  py::object advance(bool log) {
    const Use use(*this);
    std::vector<std::pair<State, Action>> seen;
    {
      const py::gil_scoped_release release;
      table_.advance(nullptr, check_signals, log ? Table::ActionSeen([&seen](const State& s, Action a) { seen.emplace_back(s, a); })
                                                 : Table::ActionSeen());
    }
    if (!log) return py::none();
    return py::cast(seen);
  }
  void act(Action a) {
    const Use use(*this);
    const py::gil_scoped_release release;  // the C++ players observe without it, as Player.observe does
    table_.act(a);
  }
  State state() {
    const Use use(*this);
    return table_.state();
  }
  std::string record_line() {
    const Use use(*this);
    return table_.record_line();
  }

 private:
  // A second use while one is going on (another thread, or one of the table's own players calling back
  // into it) is refused, not waited for: it is a bug of the caller's.
  struct Use {
    explicit Use(PyTable& t) : busy(t.busy_) {
      if (busy.exchange(true))
        throw std::runtime_error("meeple.Table is in use (by another thread, or by one of its players during its "
                                 "own call): give each thread its own table");
    }
    ~Use() { busy = false; }
    std::atomic<bool>& busy;
  };
  Seats seats_;
  Table table_;
  std::atomic<bool> busy_{false};
};

}  // namespace

void init_players(py::module_& m) {
  py::class_<Player, PyPlayer, std::shared_ptr<Player>>(m, "Player", R"doc(A bot: choose(state) returns a legal action.

Subclass it in Python (define choose, optionally observe) to play in the same games as the C++ bots.)doc")
      .def(py::init<>())
      .def("name", [](const Player& p) { return p.name(); })
      .def("choose", [](Player& p, const State& state) {
        const State own = state;  // copied with the GIL held: another thread may change `state` during the search
        const py::gil_scoped_release release;
        return p.choose(own);
      }, py::arg("state"), "The action for `state`, a decision node (ValueError otherwise). Threads may share a bot: "
                           "their calls take turns.")
      .def("observe", &Player::observe, py::arg("action"), py::call_guard<py::gil_scoped_release>(),
           "Told every action applied to the game, draws included (search keeps its tree).");

  m.def("make_player", [](const std::string& spec, uint64_t seed) -> std::shared_ptr<Player> {
    return std::make_shared<SharedPlayer>(make_player(spec, seed));
  },
        py::arg("spec"), py::arg("seed") = 1, ("A C++ bot from its spec; " + bot_spec_help()).c_str());

  py::class_<Evaluator, std::shared_ptr<Evaluator>>(m, "Evaluator", "An estimate of every seat's final score.")
      .def("evaluate", [](const Evaluator& e, const State& s) {
        const PlayerValues v = e.evaluate(s);
        return std::vector<double>(v.begin(), v.begin() + s.num_players());
      }, py::arg("state"))
      .def("name", &Evaluator::name);
  py::class_<FittedEvaluator, Evaluator, std::shared_ptr<FittedEvaluator>>(m, "FittedEvaluator",
      "An evaluator read from a weight file (kind linear or mlp), fitted to some rules.")
      .def_property_readonly("rules", [](const FittedEvaluator& e) -> py::object {
        if (!e.trained_on()) return py::none();
        return py::cast(*e.trained_on());
      }, "The Rules the weights were fitted to, or None (any rules).")
      .def("check_rules", &FittedEvaluator::check_rules, py::arg("rules"),
           "Raises ValueError when the weights were fitted to other rules.")
      .def("to_json", &FittedEvaluator::to_json, "The weight file's text.");
  py::class_<LinearEvaluator, FittedEvaluator, std::shared_ptr<LinearEvaluator>>(m, "LinearEvaluator",
      "Weights times features per seat: the hand-tuned evaluator and linear weight files.")
      .def_property_readonly("weights", [](const LinearEvaluator& e) {
        return std::vector<float>(e.weights().data(), e.weights().data() + kNumFeatures);
      }, "The weights in FEATURE_NAMES order.");
  py::class_<MlpEvaluator, FittedEvaluator, std::shared_ptr<MlpEvaluator>>(m, "MlpEvaluator",
      "A small multilayer perceptron on each seat's features relative to the others' (weight files of kind mlp).")
      .def_readonly_static("MAX_WIDTH", &MlpEvaluator::kMaxWidth)
      .def_property_readonly("layers", [](const MlpEvaluator& e) {
        py::list out;
        for (const auto& l : e.layers()) out.append(py::make_tuple(Eigen::MatrixXf(l.weights), Eigen::VectorXf(l.bias)));
        return out;
      }, "[(weights [outputs, inputs], bias [outputs])] per layer, inputs of the first in FEATURE_NAMES order.");
  py::class_<TrainedEvaluator, Evaluator, std::shared_ptr<TrainedEvaluator>>(m, "TrainedEvaluator",
      "The default evaluator: the weights shipped with meeple, one set per expansion set (make_evaluator('trained')).")
      .def("weights_for", [](const TrainedEvaluator& e, const Rules& rules) {
        return std::const_pointer_cast<FittedEvaluator>(e.weights_for(rules.expansions));
      }, py::arg("rules"), "The shipped weights used for games with these rules.");
  m.def("make_evaluator", [](const std::string& spec) { return std::const_pointer_cast<Evaluator>(make_evaluator(spec)); },
        py::arg("spec"), (std::string("An evaluator from its spec: ") + kEvaluatorSpecHelp + ".").c_str());

  m.attr("ACTION_FEATURE_NAMES") = std::vector<std::string>(kActionFeatureNames.begin(), kActionFeatureNames.end());
  m.def("action_features", [](const State& s) {
    if (s.is_chance() || s.is_terminal()) throw std::invalid_argument("action features need a decision node, not a chance or terminal one");
    ActionList actions;
    s.legal_actions(actions);
    py::array_t<float> out({static_cast<py::ssize_t>(actions.size), static_cast<py::ssize_t>(kNumActionFeatures)});
    extract_action_features(s, actions, std::span<float>(out.mutable_data(), static_cast<size_t>(out.size())));
    return out;
  }, py::arg("state"), "One row per legal action (in legal_actions() order) of the features a policy network reads "
                       "(columns named by ACTION_FEATURE_NAMES), float32.");
  py::class_<PolicyNet, std::shared_ptr<PolicyNet>>(m, "PolicyNet",
      "A prior over the legal actions of any decision, from each action's features (policy weight files).")
      .def_static("from_json", [](const std::string& text, const std::string& source) {
        return std::make_shared<PolicyNet>(PolicyNet::from_json(text, source));
      }, py::arg("text"), py::arg("source") = "policy")
      .def_static("load", [](const std::string& path) { return std::const_pointer_cast<PolicyNet>(load_policy(path)); },
                  py::arg("path"))
      .def("priors", [](const PolicyNet& net, const State& s) {
        if (s.is_chance() || s.is_terminal()) throw std::invalid_argument("priors need a decision node, not a chance or terminal one");
        ActionList actions;
        s.legal_actions(actions);
        std::vector<float> out(static_cast<size_t>(actions.size));
        net.priors(s, actions, out);
        return out;
      }, py::arg("state"), "The prior of each legal action, in legal_actions() order.")
      .def("check_rules", &PolicyNet::check_rules, py::arg("rules"))
      .def("to_json", &PolicyNet::to_json)
      .def_property_readonly("name", &PolicyNet::name)
      .def_property_readonly("layers", [](const PolicyNet& net) {
        py::list out;
        for (const auto& l : net.layers()) out.append(py::make_tuple(Eigen::MatrixXf(l.weights), Eigen::VectorXf(l.bias)));
        return out;
      }, "[(weights [outputs, inputs], bias [outputs])] per layer, inputs of the first in ACTION_FEATURE_NAMES order.");

  m.def("generate_policy_data", [](const Rules& rules, const GameList& games, int jobs, const py::object& on_finished,
                                   bool observations) {
    const std::vector<GameSpec> specs = game_specs(games);
    PolicyData data;
    const auto interrupt = run_watching_signals([&](const std::atomic<bool>& stop, const InPython& in_python) {
      data = generate_policy_data(rules, specs, jobs, &stop, [&](int finished) {
        if (!on_finished.is_none()) in_python([&] { on_finished(finished); });
      }, observations);
    });
    const auto n = static_cast<py::ssize_t>(data.decisions()), a = static_cast<py::ssize_t>(data.actions());
    const auto g = static_cast<py::ssize_t>(data.finished.size());
    const py::ssize_t p = data.players, f = kNumFeatures, k = kNumActionFeatures;
    py::dict out;
    out["game"] = py::array_t<int32_t>({n}, data.game.data());
    out["to_move"] = py::array_t<int8_t>({n}, data.to_move.data());
    out["first_action"] = py::array_t<int32_t>({n + 1}, data.first_action.data());
    out["features"] = py::array_t<float>({n, p, f}, data.features.data());
    out["leaf_points"] = py::array_t<float>({n, p}, data.leaf_points.data());
    out["action_features"] = py::array_t<float>({a, k}, data.action_features.data());
    out["visits"] = py::array_t<int32_t>({a}, data.visits.data());
    out["action_id"] = py::array_t<int32_t>({a}, data.action_id.data());
    out["action_value"] = py::array_t<float>({a}, data.action_value.data());
    out["in_hand"] = py::array_t<int16_t>({n}, data.in_hand.data());
    if (observations) {
      const auto entries = static_cast<py::ssize_t>(data.plane_value.size());
      out["first_entry"] = py::array_t<int64_t>({n + 1}, data.first_entry.data());
      out["plane_index"] = py::array_t<int32_t>({entries}, data.plane_index.data());
      out["plane_value"] = py::array_t<uint8_t>({entries}, data.plane_value.data());
      out["flat"] = py::array_t<float>({n, static_cast<py::ssize_t>(Encoding(data.players).flat_size())}, data.flat.data());
    }
    out["finished"] = py::array_t<int32_t>({g}, data.finished.data());
    out["final_scores"] = py::array_t<int16_t>({g, p}, data.final_scores.data());
    out["interrupted"] = static_cast<bool>(interrupt);
    return out;
  }, py::arg("rules"), py::arg("games"), py::arg("jobs") = 1, py::arg("on_finished") = py::none(),
        py::arg("observations") = false,
        R"doc(Decisions for training a policy network, from self-play between mcts bots in C++ threads (the GIL released).

games as for play_games; every seat an mcts spec. Every decision with two or more legal actions of every
finished game is kept. Returns a dict of numpy arrays: per decision game, to_move, features [decisions, seats,
FEATURE_NAMES], leaf_points [decisions, seats] (the shipped evaluator's points as search values a leaf: the turn in
progress finished greedily once its tile is placed); first_action [decisions + 1] (decision i's actions are rows first_action[i] to
first_action[i + 1] - 1, in legal_actions() order); per action row action_features [rows, ACTION_FEATURE_NAMES]
visits (of the search that chose), action_value (its mean reward for the chooser, 0 if unvisited) and action_id
(Encoding.id_of, -1 off the window); per decision in_hand (tile
type index, -1 for none); per finished game finished and final_scores; and interrupted. With observations, the
chooser's observation (Encoding.observe, orientation 0): flat [decisions, flat_size], and the planes' nonzero
bytes, decision i's at plane_index / plane_value[first_entry[i]:first_entry[i + 1]] (offsets into the flattened
planes).)doc");

  // Match statistics shared with `meeple match` (ai/match.h).
  m.def("schedule", [](int bots, size_t games, int players, uint64_t seed) {
    py::list out;
    for (const Seating& s : schedule(bots, games, players, seed)) out.append(py::make_tuple(py::tuple(py::cast(s.seats)), s.seed));
    return out;
  }, py::arg("bots"), py::arg("games"), py::arg("players"), py::arg("seed"),
        R"doc(The seats of a match's games: [(bot index per seat, seed)].

Every set of `players` bots (itertools.combinations order) is a group; groups take turns, and each plays
`players` games on one tile order (seed + its turn) with its bots rotated through the seats. Game g always
has the same seats and seed.)doc");
  m.def("info_json", &info_json, "What this build knows, as `meeple info --json` prints it (JSON text).");
  m.def("info_text", &info_text, "What this build knows, as `meeple info` prints it.");
  m.def("play_seated", [](const Rules& rules, const std::vector<std::shared_ptr<Player>>& players,
                          const std::vector<std::string>& names, uint64_t seed) {
    Seats seated(rules, players, names, false, "play_seated");
    const std::vector<Player*>& seats = seated.seats;
    std::string record;
    State final_state(rules);
    {
      // On this thread, so that Python players keep the caller's thread-local settings (no_grad, contexts);
      // they take the GIL for their own calls. Ctrl-C is looked for after every choice.
      const py::gil_scoped_release release;
      final_state = play_seated(rules, seats, names, seed, &record, nullptr, check_signals, true);
    }
    std::vector<int> scores;
    for (int p = 0; p < final_state.num_players(); ++p) scores.push_back(final_state.score(p));
    return py::make_tuple(scores, record);
  }, py::arg("rules"), py::arg("seats"), py::arg("names"), py::arg("seed"),
        R"doc(One game between meeple.Player objects (C++ bots from make_player, or Python subclasses), seat p
played by seats[p] and named names[p] in the record, tiles from Dealer(seed): (final scores, the record
line). The game loop of every C++ match; a choice that is not legal raises RulesError naming the bot.)doc");
  py::class_<PyTable>(m, "Table", R"doc(One game stepped from Python, through the game loop of every match
(meeple.play_seated): seats[p] is a meeple.Player (a C++ bot or a Python subclass) or None, a seat the caller
plays; names[p] names it in the record; tiles come from Dealer(seed). advance() deals and lets the players
choose until a caller's seat is to decide or the game ends; act(action) takes that seat's decision. A
choice that is not legal raises RulesError naming the seat and why, and changes nothing.)doc")
      .def(py::init<const Rules&, const std::vector<std::shared_ptr<Player>>&, const std::vector<std::string>&, uint64_t, bool>(),
           py::arg("rules"), py::arg("seats"), py::arg("names"), py::arg("seed"), py::arg("keep_record") = true)
      .def("advance", &PyTable::advance, py::arg("log") = false,
           "Plays until a caller's seat decides or the game ends; with log, returns the (position before, action) "
           "pairs it applied.")
      .def("act", &PyTable::act, py::arg("action"), "The decision of the caller's seat that is to decide now.")
      .def_property_readonly("state", &PyTable::state, "A copy of the position.")
      .def("record_line", &PyTable::record_line, "The game's meeple-game/1 record, once it is over.");
  m.def("seat_seed", [](uint64_t game_seed, int seat) {
    if (seat < 0 || seat >= kMaxPlayers)
      throw std::invalid_argument("seat_seed: seat must be 0 to " + std::to_string(kMaxPlayers - 1) + ", got " + std::to_string(seat));
    return seat_seed(game_seed, seat);
  }, py::arg("game_seed"), py::arg("seat"),
        "The seed of the bot in `seat` of the game with tile seed `game_seed`, as every front end seats bots.");
  m.def("win_shares", [](const std::vector<int>& scores) {
    if (scores.size() < 1 || scores.size() > static_cast<size_t>(kMaxPlayers))
      throw std::invalid_argument("win_shares takes 1 to " + std::to_string(kMaxPlayers) + " scores, got " +
                                  std::to_string(scores.size()));
    std::array<int, kMaxPlayers> a{};
    std::copy(scores.begin(), scores.end(), a.begin());
    const auto units = win_units(a, static_cast<int>(scores.size()));
    std::vector<double> out;
    for (size_t p = 0; p < scores.size(); ++p) out.push_back(static_cast<double>(units[p]) / kWinUnits);
    return out;
  }, py::arg("scores"), "Each seat's share of the win given final scores: 1/k to each of k tied leaders (B13).");
  py::class_<Standings>(m, "Standings", "A match's standings per bot, as `meeple match` prints them (ai/match.h).")
      .def(py::init<const std::vector<std::string>&>(), py::arg("bots") = std::vector<std::string>{},
           "Rows for `bots` in this order; other bots get rows as they first play.")
      .def("add", py::overload_cast<const std::vector<std::string>&, const std::vector<int>&>(&Standings::add),
           py::arg("seat_bots"), py::arg("scores"), "One finished game: the bot of each seat and the final scores.")
      .def_property_readonly("games", &Standings::games)
      .def("rows", [](const Standings& st) {
        py::list out;
        for (const Standings::Row& r : st.rows()) {
          py::dict d;
          d["bot"] = r.bot;
          d["games"] = r.games;
          d["wins"] = r.wins;
          d["win_rate"] = r.win_rate();
          d["win_lo"] = r.win_rate_interval.lo;
          d["win_hi"] = r.win_rate_interval.hi;
          d["mean_score"] = r.mean_score;
          d["mean_margin"] = r.mean_margin;
          out.append(d);
        }
        return out;
      }, "Per bot: games, wins (ties shared), win_rate with its 95% Wilson interval (win_lo, win_hi), mean_score, "
         "mean_margin (over the best other seat).")
      .def("table", &Standings::table, "The table `meeple match` prints.");
  m.def("wilson", [](double successes, double trials, double z) {
    const Interval i = wilson(successes, trials, z);
    return py::make_tuple(i.lo, i.hi);
  }, py::arg("wins"), py::arg("n"), py::arg("z") = 1.96,
        "Wilson score interval (lo, hi) of a proportion: `wins` (may be fractional: shared wins) out of `n`.");

  m.def("play_games", [](const Rules& rules, const GameList& games, int jobs, bool records, const py::object& on_finished) {
    const std::vector<GameSpec> specs = game_specs(games);
    // Per game only its scores and record line are kept, not its final state (12 KB).
    std::vector<std::vector<int>> scores(specs.size());
    std::vector<std::string> lines(records ? specs.size() : 0);
    const auto interrupt = run_watching_signals([&](const std::atomic<bool>& stop, const InPython& in_python) {
      stream_games(rules, specs.size(), [&](size_t g) { return specs[g]; }, jobs, records,
                   [&](int g, const State& final_state, const std::string& line) {
        auto& game_scores = scores[static_cast<size_t>(g)];
        for (int p = 0; p < rules.players; ++p) game_scores.push_back(final_state.score(p));
        if (records) lines[static_cast<size_t>(g)] = line;
        if (on_finished.is_none()) return;
        in_python([&] { on_finished(g, game_scores, records ? py::object(py::str(line)) : py::object(py::none())); });
      }, &stop);
    });
    if (interrupt) std::rethrow_exception(interrupt);  // finished games were all reported to on_finished
    py::list out;
    for (size_t g = 0; g < specs.size(); ++g)
      out.append(py::make_tuple(scores[g], records ? py::object(py::str(lines[g])) : py::object(py::none())));
    return out;
  }, py::arg("rules"), py::arg("games"), py::arg("jobs") = 1, py::arg("records") = false, py::arg("on_finished") = py::none(),
        R"doc(Plays games between C++ bots in C++ threads (the GIL released).

games: [(bot specs per seat, seed)], the seed fixing the tile order. on_finished(index, scores, record) is
called as each game ends (one call at a time). Returns [(scores, record line or None)] in the order given.)doc");

  m.def("generate_selfplay", [](const Rules& rules, const GameList& games, int jobs, const py::object& on_finished) {
    const std::vector<GameSpec> specs = game_specs(games);
    SelfPlayData data;
    const auto interrupt = run_watching_signals([&](const std::atomic<bool>& stop, const InPython& in_python) {
      data = generate_selfplay(rules, specs, jobs, &stop, [&](int finished) {
        if (!on_finished.is_none()) in_python([&] { on_finished(finished); });
      });
    });
    const auto n = static_cast<py::ssize_t>(data.positions()), g = static_cast<py::ssize_t>(data.games());
    const py::ssize_t p = data.players, f = kNumFeatures, t = data.tile_types;
    py::dict out;
    out["game"] = py::array_t<int32_t>({n}, data.game.data());
    out["ply"] = py::array_t<int16_t>({n}, data.ply.data());
    out["to_move"] = py::array_t<int8_t>({n}, data.to_move.data());
    out["features"] = py::array_t<float>({n, p, f}, data.features.data());
    out["remaining"] = py::array_t<uint8_t>({n, t}, data.remaining.data());
    out["finished"] = py::array_t<int32_t>({g}, data.finished.data());
    out["final_scores"] = py::array_t<int16_t>({g, p}, data.final_scores.data());
    out["ranks"] = py::array_t<int8_t>({g, p}, data.ranks.data());
    out["interrupted"] = static_cast<bool>(interrupt);
    return out;
  }, py::arg("rules"), py::arg("games"), py::arg("jobs") = 1, py::arg("on_finished") = py::none(),
        R"doc(Self-play positions for training, generated in C++ threads (the GIL released).

games as for play_games. Every decision node of every finished game is a position. Returns a dict of numpy
arrays: per position game (index into games), ply, to_move, features [positions, seats, FEATURE_NAMES],
remaining [positions, tile types]; per finished game finished (index into games), final_scores and ranks
[games, seats] (0 = won; ties share), in the order of the positions; and interrupted: True when Ctrl-C
stopped it (the games finished by then are all there). on_finished(count) is called after each game.)doc");
}

}  // namespace meeple::python
