// Observations for learning: board planes around the played area, and an encoding of actions as integers.
// The encoding numbers the cells of placements and abbeys in one of two ways:
// - the planes' window: `size` x `size` cells centred on the middle of the board's bounding box, so that a
//   placement's index matches the planes' cell (placements outside the window have no index);
// - action ids: the rank of the cell among this decision's legal cells, so that every legal action has an
//   id, in a space of fixed size (ACTION_IDS) whatever the board; what the environments (OpenSpiel,
//   PettingZoo, Gymnasium) act in.
#include <algorithm>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/state.h"

namespace meeple::python {
namespace {

struct Window {
  int size, x0, y0;  // cell (x, y) is at row y - y0, column x - x0
  Window(const State& s, int size_) : size(size_) {
    if (size < 3 || size > 255) throw std::invalid_argument("window size must be 3 to 255, got " + std::to_string(size));
    int min_x = 0, max_x = 0, min_y = 0, max_y = 0;
    for (int i = 0; i < s.num_tiles(); ++i) {
      min_x = std::min<int>(min_x, s.tile(i).x), max_x = std::max<int>(max_x, s.tile(i).x);
      min_y = std::min<int>(min_y, s.tile(i).y), max_y = std::max<int>(max_y, s.tile(i).y);
    }
    x0 = (min_x + max_x) / 2 - size / 2;
    y0 = (min_y + max_y) / 2 - size / 2;
  }
  int cell(int x, int y) const {  // index in the window, or -1 outside
    const int c = x - x0, r = y - y0;
    return c >= 0 && c < size && r >= 0 && r < size ? r * size + c : -1;
  }
};

// Planes: 0 tile, 1-4 city on edge N E S W, 5-8 road, 9-12 river, 13 cloister/shrine/abbey, 14 pennants,
// 15 frontier cell, 16 the tile in hand fits there, 17 the last tile placed (where a deploy goes), 18 + p:
// figures of seat p on the tile.
constexpr int kPlanes = 18;

// Action encoding: pass; placements (cell x rotation); deploys (figure x segment); abbeys (cell); Count
// deploys (figure x quarter x count_to); redeploys (quarter x figure x node); wagons (node).
struct Encoding {
  int n;  // window cells
  int place() const { return 1; }
  int deploy() const { return place() + 4 * n; }
  int abbey() const { return deploy() + 4 * kMaxSegments; }
  int count_deploy() const { return abbey() + n; }
  int redeploy() const { return count_deploy() + 4 * kNumQuarters * (kNumQuarters + 1); }
  int wagon() const { return redeploy() + kNumQuarters * 4 * kMaxNodes; }
  int size() const { return wagon() + kMaxNodes; }
};

// `cell_of(x, y)`: the number of a cell, 0 .. e.n - 1, or -1 when it has none.
template <class CellOf>
int encode(const Encoding& e, Action a, const CellOf& cell_of) {
  switch (a.kind()) {
    case Action::kPass: return 0;
    case Action::kPlace: {
      const int c = cell_of(a.x(), a.y());
      return c < 0 ? -1 : e.place() + 4 * c + a.rotation();
    }
    case Action::kDeploy: return e.deploy() + static_cast<int>(a.figure()) * kMaxSegments + a.segment();
    case Action::kAbbey: {
      const int c = cell_of(a.x(), a.y());
      return c < 0 ? -1 : e.abbey() + c;
    }
    case Action::kCountDeploy:
      return e.count_deploy() + (static_cast<int>(a.figure()) * kNumQuarters + a.quarter()) * (kNumQuarters + 1) + a.count_to();
    case Action::kRedeploy:
      return e.redeploy() + (a.quarter() * 4 + static_cast<int>(a.moved_figure())) * kMaxNodes + a.node();
    case Action::kWagon: return e.wagon() + a.node();
    default: return -1;
  }
}

int encode(const Window& w, Action a) {
  return encode(Encoding{w.size * w.size}, a, [&](int x, int y) { return w.cell(x, y); });
}

// Action ids: cells numbered by rank among the legal placements' (or abbeys') cells, which are frontier
// cells, so kMaxFrontier numbers suffice.
const Encoding kIds{kMaxFrontier};

std::vector<std::pair<int, Action>> legal_ids(const State& s) {
  ActionList legal;
  s.legal_actions(legal);
  std::vector<CellKey> cells;
  for (Action a : legal)
    if (a.kind() == Action::kPlace || a.kind() == Action::kAbbey) cells.push_back(cell_key(a.x(), a.y()));
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  const auto rank = [&](int x, int y) {
    return static_cast<int>(std::lower_bound(cells.begin(), cells.end(), cell_key(x, y)) - cells.begin());
  };
  std::vector<std::pair<int, Action>> out;
  for (Action a : legal) out.emplace_back(encode(kIds, a, rank), a);
  std::sort(out.begin(), out.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  return out;
}

}  // namespace

void init_observation(py::module_& m) {
  m.def("board_planes", [](const State& s, int size) {
    const Window w(s, size);
    const int planes = kPlanes + s.num_players();
    py::array_t<float> out({planes, size, size});
    std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0.0f);
    auto v = out.mutable_unchecked<3>();
    const TileCatalog& cat = TileCatalog::get();
    for (int i = 0; i < s.num_tiles(); ++i) {
      const PlacedTile& pt = s.tile(i);
      const int c = w.cell(pt.x, pt.y);
      if (c < 0) continue;
      const int r = c / size, col = c % size;
      const TileType& t = cat[pt.type];
      v(0, r, col) = 1;
      for (int e = 0; e < 4; ++e) {
        const int seg = t.rot[pt.rotation].edge_segment[e];
        if (seg == kNoSegment) continue;
        const SegmentKind k = t.segments[static_cast<size_t>(seg)].kind;
        if (k == SegmentKind::kCity) v(1 + e, r, col) = 1;
        if (k == SegmentKind::kRoad) v(5 + e, r, col) = 1;
        if (k == SegmentKind::kRiver) v(9 + e, r, col) = 1;
      }
      if (t.cloister >= 0 || t.has(kFlagAbbey)) v(13, r, col) = 1;
      for (int seg = 0; seg < t.num_segments; ++seg) v(14, r, col) += t.segments[static_cast<size_t>(seg)].pennants;
    }
    if (s.num_tiles() > 0) {
      const PlacedTile& last = s.tile(s.num_tiles() - 1);
      if (const int c = w.cell(last.x, last.y); c >= 0) v(17, c / size, c % size) = 1;
    }
    for (int i = 0; i < s.frontier_size(); ++i) {
      const CellKey k = s.frontier_cell(i);
      const int c = w.cell(key_x(k), key_y(k));
      if (c >= 0) v(15, c / size, c % size) = 1;
    }
    ActionList legal;
    s.legal_actions(legal);
    for (Action a : legal) {
      if (a.kind() != Action::kPlace) continue;
      const int c = w.cell(a.x(), a.y());
      if (c >= 0) v(16, c / size, c % size) = 1;
    }
    for (int p = 0; p < s.num_players(); ++p)
      for (int slot = 0; slot < kFiguresPerPlayer; ++slot) {
        const int node = s.figure_node(p, slot);
        if (node < 0) continue;
        const PlacedTile& pt = s.tile(s.node_tile(node));
        const int c = w.cell(pt.x, pt.y);
        if (c >= 0) v(kPlanes + p, c / size, c % size) += 1;
      }
    return out;
  }, py::arg("state"), py::arg("size") = 31, R"doc(Board planes (float32, planes x size x size) around the played area.

0 tile, 1-4 city on edge N E S W, 5-8 road, 9-12 river, 13 building (cloister, shrine, abbey), 14 pennants,
15 empty cell next to the board, 16 the tile in hand fits there, 17 the last tile placed (where a deploy
goes), 18 + p figures of seat p. Rows grow south.)doc");

  m.def("action_space_size", [](int size) { return Encoding{size * size}.size(); }, py::arg("size") = 31,
        "Number of action indices for a window of size x size cells.");
  m.def("encode_action", [](const State& s, Action a, int size) { return encode(Window(s, size), a); },
        py::arg("state"), py::arg("action"), py::arg("size") = 31,
        "The index of an action in this state's window (-1: a placement outside the window, or a draw).");
  m.def("legal_action_mask", [](const State& s, int size) {
    const Window w(s, size);
    // Arrays are made from a shape, not a count: pybind11 before 2.12 takes a count's stride from the dtype's
    // size as NumPy 1 laid it out, which under NumPy 2 reads 0 (every element would read as the first).
    py::array_t<bool> mask(std::vector<py::ssize_t>{Encoding{size * size}.size()});
    std::fill(mask.mutable_data(), mask.mutable_data() + mask.size(), false);
    ActionList legal;
    s.legal_actions(legal);
    std::vector<Action> actions(static_cast<size_t>(mask.size()), Action::none());
    py::dict by_index;
    for (Action a : legal) {
      const int i = encode(w, a);
      if (i < 0) continue;
      mask.mutable_data()[i] = true;
      by_index[py::int_(i)] = a;
    }
    return py::make_tuple(mask, by_index);
  }, py::arg("state"), py::arg("size") = 31,
        "(mask of legal action indices, {index: Action}); placements outside the window are left out.");

  m.attr("ACTION_IDS") = kIds.size();
  m.def("legal_action_ids", [](const State& s) {
    const auto legal = legal_ids(s);
    py::array_t<int64_t> ids(std::vector<py::ssize_t>{static_cast<py::ssize_t>(legal.size())});
    std::vector<Action> actions;
    for (size_t i = 0; i < legal.size(); ++i) {
      ids.mutable_data()[i] = legal[i].first;
      actions.push_back(legal[i].second);
    }
    return py::make_tuple(ids, actions);
  }, py::arg("state"), R"doc((ids, actions): every legal action and its id, in ascending order of id.

Ids lie in 0 .. ACTION_IDS - 1 and every legal action has one: a placement's (and an abbey's) cell is numbered
by its rank among the decision's legal cells (sorted by row, then column), not by a window. Empty at chance
and terminal nodes.)doc");
}

}  // namespace meeple::python
