// The board encoding (ai/encoding.h) and the vectorized environment's engine (ai/vector_env.h) in Python.
// Arrays are numpy arrays made or checked here; long work runs without the GIL, one call at a time per object.
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/ai/encoding.h"
#include "meeple/ai/vector_env.h"

namespace meeple::python {
namespace {

template <typename T>
py::array_t<T> zeros(std::vector<py::ssize_t> shape) {
  py::array_t<T> a(shape);  // a shape, never a bare count: pybind11 2.10 gives a count stride 0 under NumPy 2
  std::fill(a.mutable_data(), a.mutable_data() + a.size(), T{});
  return a;
}

// The shape, contiguity and writeability every array given to fill must have, or a ValueError naming `what`.
void check_layout(const py::array& a, const std::vector<py::ssize_t>& shape, const char* what) {
  std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
  if (got != shape) {
    const auto text = [](const std::vector<py::ssize_t>& s) {
      std::string out = "(";
      for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
      return out + (s.size() == 1 ? ",)" : ")");
    };
    throw py::value_error(std::string(what) + " must have shape " + text(shape) + ", got " + text(got));
  }
  if (!(a.flags() & py::array::c_style) || !a.writeable())
    throw py::value_error(std::string(what) + " must be a writeable C-contiguous array");
}

// A C-contiguous array of dtype T and exactly `shape`, or a TypeError/ValueError naming `what`.
template <typename T>
T* checked_array(const py::array& a, const std::vector<py::ssize_t>& shape, const char* what) {
  if (!py::isinstance<py::array_t<T>>(a) || !a.dtype().is(py::dtype::of<T>()))
    throw py::type_error(std::string(what) + " must be a numpy array of " + std::string(py::str(py::dtype::of<T>())) +
                         ", got " + std::string(py::str(a.dtype())));
  check_layout(a, shape, what);
  return static_cast<T*>(const_cast<void*>(a.data()));
}

// A mask: one byte per entry, as bool, int8 (what gymnasium's Discrete.sample takes) or uint8.
uint8_t* checked_flags(const py::array& a, const std::vector<py::ssize_t>& shape, const char* what) {
  const py::dtype d = a.dtype();
  if (!d.is(py::dtype::of<bool>()) && !d.is(py::dtype::of<int8_t>()) && !d.is(py::dtype::of<uint8_t>()))
    throw py::type_error(std::string(what) + " must be a numpy array of bool, int8 or uint8, got " + std::string(py::str(py::object(d))));
  check_layout(a, shape, what);
  return static_cast<uint8_t*>(const_cast<void*>(a.data()));
}

int checked_turns(int turns) {
  if (turns < 0 || turns > 3) throw py::value_error("turns must be 0 to 3 quarter turns, got " + std::to_string(turns));
  return turns;
}

// The Python object: the engine's VectorEnv and a lock, so that two threads calling it at once wait in turn
// instead of stepping the same games together.
struct PyVectorEnv {
  VectorEnv env;
  std::mutex busy;
  PyVectorEnv(const Rules& rules, int n, std::vector<std::string> opponents, uint64_t seed, int threads)
      : env(rules, n, std::move(opponents), seed, threads) {}

  VectorEnvArrays arrays(const py::dict& out) {
    const py::ssize_t n = env.num_envs(), players = env.rules().players;
    const Encoding& e = env.encoding();
    const auto get = [&](const char* name) -> py::array {
      if (!out.contains(name)) throw py::value_error(std::string("out has no array '") + name + "'");
      if (!py::isinstance<py::array>(out[name]))
        throw py::type_error(std::string("out['") + name + "'] must be a numpy array, got " + describe(out[name]));
      return out[name];
    };
    return {checked_array<uint8_t>(get("planes"), {n, e.num_planes(), kWindow, kWindow}, "planes"),
            checked_array<float>(get("flat"), {n, e.flat_size()}, "flat"),
            checked_array<uint8_t>(get("mask"), {n, Encoding::num_action_ids()}, "mask"),
            checked_array<float>(get("reward"), {n}, "reward"),
            checked_array<uint8_t>(get("terminated"), {n}, "terminated"),
            checked_array<uint8_t>(get("truncated"), {n}, "truncated"),
            checked_array<int32_t>(get("to_play"), {n}, "to_play"),
            checked_array<float>(get("returns"), {n, players}, "returns")};
  }
};

}  // namespace

void init_encoding(py::module_& m) {
  m.attr("WINDOW") = kWindow;
  m.attr("ENCODING_VERSION") = kEncodingVersion;
  m.attr("NUM_ACTION_IDS") = Encoding::num_action_ids();
  py::dict blocks;
  blocks["pass"] = action_id::kPass;
  blocks["place"] = action_id::kPlace;
  blocks["abbey"] = action_id::kAbbey;
  blocks["deploy"] = action_id::kDeploy;
  blocks["count_deploy"] = action_id::kCountDeploy;
  blocks["redeploy"] = action_id::kRedeploy;
  blocks["wagon"] = action_id::kWagon;
  blocks["end"] = action_id::kEnd;
  m.attr("ACTION_ID_BLOCKS") = blocks;

  py::class_<Encoding>(m, "Encoding", R"doc(The board encoding learners read (ai/encoding.h), for games of `players` players.

observe(state, seat) -> (planes uint8 [num_planes, WINDOW, WINDOW], flat float32 [flat_size], fits): one seat's
view, seats counted from it round the table; fits is False when the board outgrew the window (never cropped
silently: the flat field outside_window says so too). legal_mask(state) -> bool [NUM_ACTION_IDS]. Ids are
aligned with the planes: a placement is 1 + 4 * (row * WINDOW + column) + rotation. plane_channels() and
flat_fields() name every entry. `turns` (0-3) encodes the board turned that many quarter turns clockwise;
rotate_planes / rotate_flat / rotate_id turn encoded arrays the same way (for augmentation).)doc")
      .def(py::init<int>(), py::arg("players"))
      .def_property_readonly("players", &Encoding::players)
      .def_property_readonly("num_planes", &Encoding::num_planes)
      .def_property_readonly("plane_shape", [](const Encoding& e) { return py::make_tuple(e.num_planes(), kWindow, kWindow); })
      .def_property_readonly("flat_size", &Encoding::flat_size)
      .def_property_readonly("flat_layout", [](const Encoding& e) {
        const auto& f = e.flat_layout();
        py::dict d;
        d["in_hand"] = f.in_hand, d["placed"] = f.placed, d["placed_rotation"] = f.placed_rotation, d["remaining"] = f.remaining;
        d["tiles_left"] = f.tiles_left, d["phase"] = f.phase, d["acting"] = f.acting, d["turn"] = f.turn, d["scores"] = f.scores;
        d["followers"] = f.followers, d["specials"] = f.specials, d["abbeys"] = f.abbeys, d["king"] = f.king, d["robber"] = f.robber;
        d["count_quarter"] = f.count_quarter, d["in_quarters"] = f.in_quarters, d["expansions"] = f.expansions;
        d["outside_window"] = f.outside_window;
        return d;
      }, "Where each group of flat fields starts.")
      .def("observe", [](const Encoding& e, const State& s, int seat, int turns) {
        auto planes = zeros<uint8_t>({e.num_planes(), kWindow, kWindow});
        auto flat = zeros<float>({e.flat_size()});
        const bool fits = e.observe(s, seat, planes.mutable_data(), flat.mutable_data(), checked_turns(turns));
        return py::make_tuple(planes, flat, fits);
      }, py::arg("state"), py::arg("seat"), py::arg("turns") = 0)
      .def("observe_into", [](const Encoding& e, const State& s, int seat, const py::array& tensor, int turns) {
        // OpenSpiel's tensor, written where the caller keeps it: no array is made per call.
        float* out = checked_array<float>(tensor, {e.plane_size() + e.flat_size()}, "tensor");
        thread_local std::vector<uint8_t> planes;
        planes.resize(static_cast<size_t>(e.plane_size()));
        const bool fits = e.observe(s, seat, planes.data(), out + e.plane_size(), checked_turns(turns));
        std::copy(planes.begin(), planes.end(), out);
        return fits;
      }, py::arg("state"), py::arg("seat"), py::arg("tensor"), py::arg("turns") = 0,
           "observe() written over `tensor` (float32 [tensor_size]: the planes as floats, then the flat vector); returns fits.")
      .def_property_readonly("tensor_size", [](const Encoding& e) { return e.plane_size() + e.flat_size(); },
                             "Floats in observe_into's tensor: the planes, then the flat vector.")
      .def("legal_mask_into", [](const Encoding& e, const State& s, const py::array& mask, int turns) {
        return e.legal_mask(s, checked_flags(mask, {Encoding::num_action_ids()}, "mask"), checked_turns(turns));
      }, py::arg("state"), py::arg("mask"), py::arg("turns") = 0,
           "legal_mask() written over `mask` (bool, int8 or uint8 [NUM_ACTION_IDS]); returns the number of legal "
           "actions without an id (0 unless the board outgrew the window).")
      .def("legal_mask", [](const Encoding& e, const State& s, int turns) {
        auto mask = zeros<bool>({Encoding::num_action_ids()});
        static_assert(sizeof(bool) == sizeof(uint8_t));
        e.legal_mask(s, reinterpret_cast<uint8_t*>(mask.mutable_data()), checked_turns(turns));
        return mask;
      }, py::arg("state"), py::arg("turns") = 0, "bool [NUM_ACTION_IDS]: True at the id of every legal action.")
      .def_static("id_of", [](const State& s, Action a, int turns) { return Encoding::id_of(s, a, checked_turns(turns)); },
                  py::arg("state"), py::arg("action"), py::arg("turns") = 0,
                  "The action's id in this state, or -1 (a draw, or a cell outside the window).")
      .def_static("action_of", [](const State& s, int id, int turns) -> py::object {
        const Action a = Encoding::action_of(s, id, checked_turns(turns));
        return a == Action::none() ? py::none() : py::cast(a);
      }, py::arg("state"), py::arg("id"), py::arg("turns") = 0,
                  "The action an id names in this state, or None; whether it is legal is State.is_legal's answer.")
      .def("rotate_planes", [](const Encoding& e, const py::array& planes, int turns) {
        auto out = zeros<uint8_t>({e.num_planes(), kWindow, kWindow});
        std::vector<uint8_t> scratch(static_cast<size_t>(e.plane_size()));
        const uint8_t* in = checked_array<uint8_t>(planes, {e.num_planes(), kWindow, kWindow}, "planes");
        std::copy(in, in + e.plane_size(), out.mutable_data());
        e.rotate_planes(out.mutable_data(), scratch.data(), checked_turns(turns));
        return out;
      }, py::arg("planes"), py::arg("turns"), "The planes of the board turned `turns` quarter turns clockwise (a new array).")
      .def("rotate_flat", [](const Encoding& e, const py::array& flat, int turns) {
        auto out = zeros<float>({e.flat_size()});
        const float* in = checked_array<float>(flat, {e.flat_size()}, "flat");
        std::copy(in, in + e.flat_size(), out.mutable_data());
        e.rotate_flat(out.mutable_data(), checked_turns(turns));
        return out;
      }, py::arg("flat"), py::arg("turns"))
      .def_static("rotate_id", [](int id, int turns, const std::optional<std::string>& in_hand) {
        if (id < 0 || id >= Encoding::num_action_ids())
          throw py::value_error("id must be 0 to " + std::to_string(Encoding::num_action_ids() - 1) + ", got " + std::to_string(id));
        int tile = -1;
        if (in_hand && (tile = TileCatalog::get().find(*in_hand)) < 0) throw py::value_error("in_hand: no tile '" + *in_hand + "'");
        return Encoding::rotate_id(id, checked_turns(turns), tile);
      }, py::arg("id"), py::arg("turns"), py::arg("in_hand"),
                  "The id of the same action on the turned board; in_hand: the tile in hand (state.drawn_tile), or None.")
      .def("plane_channels", [](const Encoding& e) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& c : e.plane_channels()) out.emplace_back(c.name, c.what);
        return out;
      }, "[(name, what)] of every plane.")
      .def("flat_fields", [](const Encoding& e) {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& c : e.flat_fields()) out.emplace_back(c.name, c.what);
        return out;
      }, "[(name, what)] of every flat field.");

  py::class_<PyVectorEnv>(m, "VectorEnvCore", "The engine of meeple.vector.VectorEnv: use that class.")
      .def(py::init<const Rules&, int, std::vector<std::string>, uint64_t, int>(), py::arg("rules"), py::arg("num_envs"),
           py::arg("opponents"), py::arg("seed"), py::arg("threads"))
      .def_property_readonly("num_envs", [](const PyVectorEnv& v) { return v.env.num_envs(); })
      .def_property_readonly("encoding", [](const PyVectorEnv& v) { return Encoding(v.env.rules().players); })
      .def("reset", [](PyVectorEnv& v, uint64_t seed, const py::dict& out) {
        const VectorEnvArrays arrays = v.arrays(out);
        py::gil_scoped_release release;
        std::lock_guard lock(v.busy);
        v.env.reset(seed, arrays);
      }, py::arg("seed"), py::arg("out"))
      .def("step", [](PyVectorEnv& v, const py::array& actions, const py::dict& out) {
        const VectorEnvArrays arrays = v.arrays(out);
        const int64_t* data = checked_array<int64_t>(actions, {v.env.num_envs()}, "actions");  // never read past its end
        py::gil_scoped_release release;
        std::lock_guard lock(v.busy);
        v.env.step(data, arrays);
      }, py::arg("actions"), py::arg("out"), "actions: int64 [num_envs] (meeple.vector.VectorEnv.step takes any integer ids and checks them).")
      .def("state", [](PyVectorEnv& v, int i) {
        if (i < 0 || i >= v.env.num_envs())  // a ValueError, as meeple.vector.VectorEnv.state gives (not IndexError)
          throw py::value_error("index must be 0 to " + std::to_string(v.env.num_envs() - 1) + ", got " + std::to_string(i));
        std::lock_guard lock(v.busy);
        return v.env.state(i);  // a copy: the game goes on without it
      }, py::arg("index"));
}

}  // namespace meeple::python
