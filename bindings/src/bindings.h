// Shared by the binding files: one init function per subsystem, and the exception bad actions raise.
#pragma once

#include <stdexcept>
#include <string>

#include <pybind11/pybind11.h>

namespace meeple::python {

namespace py = pybind11;

// An action that breaks the rules in the state it was applied to: meeple.RulesError in Python. Bad input
// of other kinds (unknown names, wrong values) is std::invalid_argument: ValueError.
class RulesViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void init_errors(py::module_& m);  // RulesError; C++ exceptions' text made valid UTF-8 (errors.cpp)
void init_game(py::module_& m);     // Rules, Action, State, Dealer, records (game.cpp)
void init_players(py::module_& m);  // players, evaluators, batch play (players.cpp)
void init_encoding(py::module_& m);     // the board encoding and the vectorized environment (encoding.cpp)
void init_network(py::module_& m);      // policy-value networks (network.cpp)
// Wraps every function and method of the module so that arguments pybind11 cannot convert get a TypeError
// (ValueError for an integer out of range) naming the argument and the type expected (errors.cpp). Last.
void check_arguments(py::module_& m);

// A value as messages quote it: its type and a shortened repr ("int 5", "str 'abc'", "None").
std::string describe(py::handle value);
// The UTF-8 text of a str or bytes argument; ValueError naming `what` and the offset of a byte (or a
// character) that is not UTF-8, TypeError for other types.
std::string utf8_text(py::handle value, const std::string& what);

}  // namespace meeple::python
