// The extension module meeple._meeple: one init_<area> per subsystem, in dependency order.
#include "bindings.h"
#include "meeple/version.h"

PYBIND11_MODULE(_meeple, m) {
  m.doc() = "meeple: a Carcassonne engine and bots (C++). Use the package `meeple`, which re-exports this.";
  m.attr("__version__") = meeple::kVersion;
  meeple::python::init_errors(m);
  meeple::python::init_game(m);
  meeple::python::init_players(m);
  meeple::python::init_encoding(m);
  meeple::python::init_network(m);
  meeple::python::check_arguments(m);
}
