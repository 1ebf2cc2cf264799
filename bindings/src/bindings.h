// Shared by the binding files: one init function per subsystem, and the exception bad actions raise.
#pragma once

#include <stdexcept>

#include <pybind11/pybind11.h>

namespace meeple::python {

namespace py = pybind11;

// An action that breaks the rules in the state it was applied to: meeple.RulesError in Python. Bad input
// of other kinds (unknown names, wrong values) is std::invalid_argument: ValueError.
class RulesViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void init_game(py::module_& m);     // Rules, Action, State, Dealer, records (game.cpp)
void init_players(py::module_& m);  // players, evaluators, batch play (players.cpp)
void init_observation(py::module_& m);  // board planes, action encoding (observation.cpp)
void init_encoding(py::module_& m);     // the board encoding and the vectorized environment (encoding.cpp)

}  // namespace meeple::python
