// Policy-value networks (ai/network.h, docs/networks.md) in Python: the C++ side of the comparison with the
// JAX implementation (evaluate: the plain reference's raw outputs) and the priors search uses (the batched
// path). Evaluation runs without the GIL.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/ai/network.h"

namespace meeple::python {
namespace {

template <typename T>
py::array_t<T> array_of(const std::vector<T>& values) {
  py::array_t<T> a(std::vector<py::ssize_t>{static_cast<py::ssize_t>(values.size())});  // a shape, never a bare count
  std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

}  // namespace

void init_network(py::module_& m) {
  using Net = PolicyValueNet;
  py::class_<Net, std::shared_ptr<Net>>(m, "PolicyValueNet", R"doc(A policy-value network (docs/networks.md, format meeple-net/1).

meeple.load_network(path) or PolicyValueNet.from_json(text) reads one. evaluate(state) gives its raw outputs,
priors(state) the priors search uses (one per legal action). A network is immutable: threads may share it.)doc")
      .def_static("from_json", [](const std::string& text, const std::string& source) {
        return std::make_shared<Net>(Net::from_json(text, source));
      }, py::arg("text"), py::arg("source") = "network", "A network from its weight file's text; errors name `source`.")
      .def("to_json", &Net::to_json, "The weight file's text.")
      .def_property_readonly("name", &Net::name)
      .def_property_readonly("players", &Net::players)
      .def_property_readonly("rules", [](const Net& net) { return net.trained_on(); }, "The Rules it was trained on.")
      .def_property_readonly("reward_scale", &Net::reward_scale, "Values are tanh(margin / reward_scale).")
      .def_property_readonly("value_base", [](const Net& net) { return net.shape().value_base; },
                             "The evaluator spec whose leaf_points the value corrects, or '' for none.")
      .def("check_rules", &Net::check_rules, py::arg("rules"),
           "Raises ValueError when the network was trained on other rules (expansions, options or players).")
      .def("evaluate", [](const Net& net, const State& state) {
        const State own = state;  // copied with the GIL held: another thread may change `state` meanwhile
        Net::Outputs out;
        {
          py::gil_scoped_release release;
          out = net.evaluate_reference(own);
        }
        return py::make_tuple(array_of(out.values), array_of(out.logits));
      }, py::arg("state"), R"doc(The raw outputs for a state that is not finished, from the observer's point of view (the player
to act; at a chance node the player whose turn it is): values float32 [players], seat k from the observer round
the table, and logits float32 [NUM_ACTION_IDS], -inf for the ids the network does not compute (placements and
abbeys off the candidate cells). Computed plainly from the formulas, one position alone.)doc")
      .def("priors", [](const Net& net, const State& state) {
        if (state.is_chance() || state.is_terminal())
          throw py::value_error(std::string("priors need a decision node, not a ") + (state.is_terminal() ? "finished game" : "chance node"));
        const State own = state;
        ActionList actions;
        own.legal_actions(actions);
        std::vector<float> priors(static_cast<size_t>(actions.size));
        {
          py::gil_scoped_release release;
          Net::Workspace workspace(net, 1);
          PlayerValues values;
          const Net::Query query{&own, &actions, priors.data(), &values};
          net.evaluate(std::span(&query, 1), workspace);
        }
        return priors;
      }, py::arg("state"), "The prior of each legal action, in legal_actions() order, as search computes them (batched path).");

  m.def("load_network", [](const std::string& path) {
    std::shared_ptr<const Net> net;
    {
      py::gil_scoped_release release;
      net = load_network(path);
    }
    return std::const_pointer_cast<Net>(net);
  }, py::arg("path"), "Reads a network weight file (meeple-net/1); ValueError naming the file and what is wrong.");

  m.def("leaf_points", [](const State& state, const std::string& evaluator) {
    const State own = state;
    const std::shared_ptr<const Evaluator> e = make_evaluator(evaluator);
    e->check_rules(own.rules());
    PlayerValues points;
    {
      py::gil_scoped_release release;
      points = leaf_points(*e, own);
    }
    return std::vector<double>(points.begin(), points.begin() + own.num_players());
  }, py::arg("state"), py::arg("evaluator") = "trained",
        R"doc(The evaluator's points (absolute seats) for a search leaf at `state` (ai/evaluator.h): before the turn's
tile is placed the points as they stand, later in a turn the turn finished greedily. What a network's value base
corrects and what search without a network values a leaf by.)doc");

  m.def("random_network_json", [](const Rules& rules, uint64_t seed, int channels, int residual, int flat_hidden,
                                  int global_hidden, bool hand_features, double reward_scale, const std::string& name,
                                  const std::string& value_base) {
    NetworkShape shape;
    shape.channels = channels;
    shape.residual = residual;
    shape.flat_hidden = flat_hidden;
    shape.global_hidden = global_hidden;
    shape.hand_features = hand_features;
    shape.reward_scale = reward_scale;
    shape.value_base = utf8_text(py::bytes(value_base), "value_base");  // JSON text is UTF-8
    return random_network_json(rules, shape, seed, utf8_text(py::bytes(name), "name"));  // JSON text is UTF-8
  }, py::arg("rules"), py::arg("seed") = 1, py::arg("channels") = 32, py::arg("residual") = 1, py::arg("flat_hidden") = 64,
        py::arg("global_hidden") = 64, py::arg("hand_features") = true, py::arg("reward_scale") = 20.0, py::arg("name") = "random",
        py::arg("value_base") = "",
        "A weight file's text for a network of this size with random weights (uniform, scaled by each layer's inputs): for tests.");
}

}  // namespace meeple::python
