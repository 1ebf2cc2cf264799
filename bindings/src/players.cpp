// Players and evaluators in Python, and batch play in C++ threads. The GIL is released while C++ thinks.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/match.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/player.h"

namespace meeple::python {
namespace {

// Lets Python classes derive from meeple.Player: choose() (and observe(), name()) are looked up in Python.
class PyPlayer : public Player {
 public:
  std::string name() const override {
    py::gil_scoped_acquire gil;
    if (py::function f = py::get_override(static_cast<const Player*>(this), "name")) return f().cast<std::string>();
    return "python";
  }
  Action choose(const State& state) override { PYBIND11_OVERRIDE_PURE(Action, Player, choose, state); }
  void observe(Action a) override { PYBIND11_OVERRIDE(void, Player, observe, a); }
};

}  // namespace

void init_players(py::module_& m) {
  py::class_<Player, PyPlayer, std::shared_ptr<Player>>(m, "Player", R"doc(A bot: choose(state) returns a legal action.

Subclass it in Python (define choose, optionally observe) to play in the same games as the C++ bots.)doc")
      .def(py::init<>())
      .def("name", [](const Player& p) { return p.name(); })
      .def("choose", &Player::choose, py::arg("state"), py::call_guard<py::gil_scoped_release>(),
           "The action for `state`, a decision node (ValueError otherwise).")
      .def("observe", &Player::observe, py::arg("action"),
           "Told every action applied to the game, draws included (search keeps its tree).");

  m.def("make_player", [](const std::string& spec, uint64_t seed) { return std::shared_ptr<Player>(make_player(spec, seed)); },
        py::arg("spec"), py::arg("seed") = 1, ("A C++ bot from its spec; " + bot_spec_help()).c_str());

  py::class_<Evaluator, std::shared_ptr<Evaluator>>(m, "Evaluator", "An estimate of every seat's final score.")
      .def("evaluate", [](const Evaluator& e, const State& s) {
        const PlayerValues v = e.evaluate(s);
        return std::vector<double>(v.begin(), v.begin() + s.num_players());
      }, py::arg("state"))
      .def("name", &Evaluator::name);
  m.def("make_evaluator", [](const std::string& spec) { return std::const_pointer_cast<Evaluator>(make_evaluator(spec)); },
        py::arg("spec"), "'heuristic', 'endnow', or a weight file 'FILE.json'.");

  m.def("play_games", [](const Rules& rules, const std::vector<std::pair<std::vector<std::string>, uint64_t>>& games,
                         int jobs, bool records, const py::object& on_finished) {
    std::vector<GameSpec> specs;
    for (const auto& [bots, seed] : games) specs.push_back({bots, seed});
    std::vector<std::string> lines(specs.size());
    std::vector<State> finals;
    auto scores_of = [&](const State& s) {
      std::vector<int> scores;
      for (int p = 0; p < rules.players; ++p) scores.push_back(s.score(p));
      return scores;
    };
    // The games run on another thread while this one, the main thread, watches for Ctrl-C (Python only
    // sees signals there): an interrupt or an exception in `on_finished` stops every game, and only
    // finished games have been reported.
    std::atomic<bool> stop{false}, done{false};
    std::exception_ptr failure, interrupt;  // set by the games' thread, by this one
    {
      py::gil_scoped_release release;
      std::thread runner([&] {
        try {
          finals = play_games(rules, specs, jobs, records, [&](int g, const State& final_state, const std::string& line) {
            lines[static_cast<size_t>(g)] = line;
            if (on_finished.is_none() || stop) return;
            py::gil_scoped_acquire gil;
            try {
              on_finished(g, scores_of(final_state), records ? py::object(py::str(line)) : py::object(py::none()));
            } catch (...) {
              stop = true;
              throw;
            }
          }, &stop);
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
    if (failure) std::rethrow_exception(failure);
    if (interrupt) std::rethrow_exception(interrupt);
    py::list out;
    for (size_t g = 0; g < finals.size(); ++g)
      out.append(py::make_tuple(scores_of(finals[g]), records ? py::object(py::str(lines[g])) : py::object(py::none())));
    return out;
  }, py::arg("rules"), py::arg("games"), py::arg("jobs") = 1, py::arg("records") = false, py::arg("on_finished") = py::none(),
        R"doc(Plays games between C++ bots in C++ threads (the GIL released).

games: [(bot specs per seat, seed)], the seed fixing the tile order. on_finished(index, scores, record) is
called as each game ends (one call at a time). Returns [(scores, record line or None)] in the order given.)doc");
}

}  // namespace meeple::python
