// The game API in Python: Rules, Action, State, Dealer, records.
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "meeple/ai/features.h"
#include "meeple/checked.h"
#include "meeple/random.h"
#include "meeple/record.h"
#include "meeple/state.h"

namespace meeple::python {
namespace {

std::vector<std::string> expansion_names(uint8_t mask) {
  std::vector<std::string> out;
  for (int i = 0; i < kNumExpansions; ++i)
    if (mask & (1 << i)) out.emplace_back(expansion_name(static_cast<Expansion>(1 << i)));
  return out;
}

// Strings from a list, tuple or set of them; TypeError naming `what` otherwise.
std::vector<std::string> string_list(const py::handle& value, const std::string& what) {
  const bool listlike = py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) || py::isinstance<py::set>(value) ||
                        py::isinstance<py::frozenset>(value);
  if (!listlike) throw py::type_error(what + " must be a list of strings, got " + describe(value));
  std::vector<std::string> out;
  for (const py::handle item : value) {
    if (!py::isinstance<py::str>(item)) throw py::type_error(what + " must be a list of strings, but holds " + describe(item));
    out.push_back(utf8_text(item, what));
  }
  return out;
}

// expansions: a list of names, or one string of comma-separated names ("river2,count").
Rules make_rules(int64_t players, const py::object& expansions, const py::dict& options) {
  Rules r;
  r.players = checked_field<uint8_t>(players, "players", 2, kMaxPlayers);
  std::vector<std::string> names;
  if (py::isinstance<py::str>(expansions)) {
    std::stringstream in(utf8_text(expansions, "expansions"));
    for (std::string name; std::getline(in, name, ',');)
      if (!name.empty()) names.push_back(name);
  } else {
    names = string_list(expansions, "expansions");
  }
  for (const std::string& e : names) r.add_expansion(e);
  for (const auto& [key, value] : options) {
    if (!py::isinstance<py::str>(key)) throw py::type_error("options: a key must be an option name (str), got " + describe(key));
    const std::string name = utf8_text(key, "option name");
    if (py::isinstance<py::str>(value)) {
      r.set_option(name, utf8_text(value, "option " + name));
    } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value) || py::isinstance<py::set>(value) ||
               py::isinstance<py::frozenset>(value)) {
      r.set_option(name, string_list(value, "option " + name));
    } else {
      throw py::type_error("options: option " + name + " must be a string (or a list of strings for a set option), got " + describe(value));
    }
  }
  r.validate();
  return r;
}

// Bits that name an action of a known kind (a draw of a known tile): an action from Python, or from a
// pickle, is never decoded into reads past a table.
Action action_from_bits(uint32_t bits) {
  const Action a = Action::from_bits(bits);
  if (a.kind() > Action::kWagon)
    throw std::invalid_argument("bits " + std::to_string(bits) + " name no action: kind " + std::to_string(bits >> 24) +
                                " is not 0 to " + std::to_string(Action::kWagon));
  if (a.kind() == Action::kDraw && a.tile() >= TileCatalog::get().size())
    throw std::invalid_argument("bits " + std::to_string(bits) + " draw tile type " + std::to_string(a.tile()) +
                                ", but there are " + std::to_string(TileCatalog::get().size()));
  return a;
}

int tile_index(const std::string& id) {
  const int t = TileCatalog::get().find(id);
  if (t < 0) throw std::invalid_argument("no tile '" + id + "' (tile ids look like 'BA.C'; meeple.tile_ids() lists them)");
  return t;
}

// State.final_account: the engine's account as plain data (the play app and the viewer show it).
py::object final_account_dict(const State& s, Action last) {
  if (!s.is_legal(last)) throw RulesViolation(last.to_string() + ": " + s.why_illegal(last));
  const std::optional<FinalAccount> account = s.final_account(last);
  if (!account) return py::none();
  const size_t players = static_cast<size_t>(s.num_players());
  py::list before, features;
  for (size_t p = 0; p < players; ++p) {
    py::dict by_category;
    for (int c = 0; c < kNumCategories; ++c) by_category[category_name(c)] = account->before[p][static_cast<size_t>(c)];
    before.append(by_category);
  }
  for (const ScoredFeature& e : account->features) {
    py::list cells, paid;
    for (const auto& [x, y] : e.cells) cells.append(py::make_tuple(x, y));
    for (size_t p = 0; p < players; ++p)
      if (e.paid >> p & 1) paid.append(p);
    py::dict entry;
    entry["what"] = to_string(e.what);
    entry["category"] = category_name(e.category);
    entry["cells"] = cells;
    entry["pennants"] = e.pennants;
    entry["completed"] = e.completed;
    entry["paid"] = paid;
    entry["points"] = std::vector<int>(e.points.begin(), e.points.begin() + s.num_players());
    features.append(entry);
  }
  py::dict out;
  out["before"] = before;
  out["features"] = features;
  return out;
}

const char* kind_name(Action::Kind k) {
  switch (k) {
    case Action::kNone: return "none";
    case Action::kPass: return "pass";
    case Action::kDraw: return "draw";
    case Action::kPlace: return "place";
    case Action::kDeploy: return "deploy";
    case Action::kCountDeploy: return "count_deploy";
    case Action::kRedeploy: return "redeploy";
    case Action::kAbbey: return "abbey";
    case Action::kWagon: return "wagon";
  }
  return "?";
}

void apply_checked(State& s, Action a) {
  const std::string error = s.try_apply(a);
  if (!error.empty()) throw RulesViolation(a.to_string() + ": " + error);
}

// Pickles: "TAG:SIZE:CRC:" and the state's bytes. The tag and size name the format, so a pickle from
// another build (other capacities or layout) is refused instead of misread. The CRC-32 of the bytes (zlib's,
// through Python's zlib module, which every CPython has) is checked before anything else reads them: a
// pickle changed in storage or transit may still pass every check of the state (a score, a count of tiles
// left) and load as another, consistent state; with the checksum it is refused.
constexpr const char* kPickleTag = "meeple-state/4";  // 2: fields grouped by concern; 3: a table of figure
                                                     // strengths; 4: the CRC-32
constexpr size_t kCrcDigits = 8;

std::string crc32_hex(std::string_view bytes) {
  const auto view = py::memoryview::from_memory(bytes.data(), static_cast<py::ssize_t>(bytes.size()));
  const auto crc = py::module_::import("zlib").attr("crc32")(view).cast<uint32_t>();
  char text[kCrcDigits + 1];
  std::snprintf(text, sizeof text, "%08x", crc);
  return text;
}

std::string pickle_head() { return std::string(kPickleTag) + ":" + std::to_string(sizeof(State)) + ":"; }

py::bytes state_bytes(const State& s) {
  const std::string bytes = s.to_bytes();
  return py::bytes(pickle_head() + crc32_hex(bytes) + ":" + bytes);
}

State state_from_bytes(const py::bytes& data) {
  const std::string in = data;
  const std::string head = pickle_head();
  const size_t body = head.size() + kCrcDigits + 1;
  if (in.size() != body + sizeof(State) || in.compare(0, head.size(), head) != 0 || in[body - 1] != ':')
    throw std::invalid_argument("not a pickled meeple State of this build (expected " + head + "CRC:" + " and " +
                                std::to_string(sizeof(State)) + " bytes)");
  const std::string_view bytes = std::string_view(in).substr(body);
  if (const std::string crc = crc32_hex(bytes); in.compare(head.size(), kCrcDigits, crc) != 0)
    throw std::invalid_argument("a corrupted State pickle: its checksum says " +
                                std::string(py::repr(py::bytes(in.substr(head.size(), kCrcDigits)))) +
                                ", but the CRC-32 of its bytes is " + crc);
  try {  // bytes of this build's layout may still be corrupt: they are checked before anything reads them
    return State::from_bytes(bytes);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("a corrupted State pickle: ") + e.what());
  }
}

// RecordBuilder for Python. C++ game loops add each action to the state it is applied to by construction;
// from Python both come from the caller, so each call is checked against the position the record has
// reached (an illegal action would be written with unknown locations, and another position's action would
// give a record that does not replay), and a refused call leaves the record as it was.
class CheckedRecordBuilder {
 public:
  CheckedRecordBuilder(const Rules& rules, std::vector<std::string> names, std::optional<int64_t> seed)
      : builder_(rules, std::move(names), seed), next_(rules) {}

  void add(const State& before, Action a) {
    require_next(before, "add");
    State after = before;
    apply_checked(after, a);  // RulesError, as State.apply
    builder_.add(before, a);
    next_ = std::move(after);
    ++added_;
  }

  std::string finish(const State& final_state) {
    require_next(final_state, "finish");
    return builder_.finish_line(final_state);
  }

 private:
  static std::string describe(const State& s) {
    return "phase " + std::string(to_string(s.phase())) + ", " + std::to_string(s.num_tiles()) + " tiles on the board, " +
           std::to_string(s.tiles_left()) + " left";
  }

  void require_next(const State& s, const char* call) const {
    const std::string where = std::string("RecordBuilder.") + call + ": ";
    if (!(s.rules() == next_.rules()))
      throw std::invalid_argument(where + "the state is a game of rules '" + s.rules().to_string() + "', the record's are '" +
                                  next_.rules().to_string() + "'");
    if (!(s == next_))
      throw std::invalid_argument(where + "the state (" + describe(s) + ") is not the position the " + std::to_string(added_) +
                                  " actions added so far lead to (" + describe(next_) +
                                  "); add every action, draws included, to the state it is applied to");
  }

  RecordBuilder builder_;
  State next_;  // the position after the actions added so far: the only one an action or the end may follow
  int added_ = 0;
};

}  // namespace

void init_game(py::module_& m) {
  m.def("tile_ids", [] {
    std::vector<std::string> ids;
    for (const TileType& t : TileCatalog::get().tiles()) ids.push_back(t.id);
    return ids;
  }, "Every tile type's id, indexed as in State.remaining_tiles() and Action.tile.");
  m.def("tile_geometry", [](const std::string& id) {
    const TileType& t = TileCatalog::get()[tile_index(id)];
    py::list segments;
    for (int i = 0; i < t.num_segments; ++i) {
      const Segment& seg = t.segments[static_cast<size_t>(i)];
      py::list edges, halves;
      for (int e = 0; e < 4; ++e)
        if (seg.edges & (1 << e)) edges.append(e);
      for (int h = 0; h < 8; ++h)
        if (seg.halves & (1 << h)) halves.append(h);
      py::dict d;
      d["kind"] = to_string(seg.kind);
      d["edges"] = edges;
      d["halves"] = halves;
      d["pennants"] = static_cast<int>(seg.pennants);
      d["inner"] = static_cast<int>(seg.inner_index);
      segments.append(d);
    }
    py::dict out;
    out["id"] = t.id;
    out["segments"] = segments;
    out["abbey"] = t.has(kFlagAbbey);
    out["block"] = t.has(kFlagBlock);
    out["volcano"] = t.has(kFlagVolcano);
    return out;
  }, py::arg("id"), R"doc(A tile as printed (rotation 0): its segments with kind, edges (0-3: N E S W) and
half-edges (0-7: NL NR EL ER SL SR WL WR) covered, pennants; flags. For pictures and observations.)doc");
  m.attr("FEATURE_NAMES") = std::vector<std::string>(kFeatureNames.begin(), kFeatureNames.end());
  m.attr("SCORE_CATEGORIES") = std::vector<std::string>{"city", "road", "cloister", "field", "bonus"};
  m.attr("MAX_PLAYERS") = kMaxPlayers;
  m.attr("EXPANSION_NAMES") = expansion_names((1 << kNumExpansions) - 1);
  std::vector<std::string> option_names;
  for (const OptionSpec& o : option_specs()) option_names.emplace_back(o.name);
  m.attr("OPTION_NAMES") = option_names;

  py::class_<Rules>(m, "Rules", "Which game is played: players, expansions, options for disputed rulings.")
      .def(py::init([](const py::object& players, const py::object& expansions, const py::dict& options) {
             // One constructor, so that a text converts implicitly wherever Rules are taken.
             if (py::isinstance<py::str>(players)) {
               const bool no_parts = (py::isinstance<py::list>(expansions) || py::isinstance<py::tuple>(expansions)) &&
                                     py::len(expansions) == 0 && options.empty();
               if (no_parts)
                 return Rules::parse(utf8_text(players, "rules text"));
               throw std::invalid_argument("Rules: give the text alone, or players, expansions and options, not both");
             }
             if (PyBool_Check(players.ptr()) || PyFloat_Check(players.ptr()) || !PyIndex_Check(players.ptr()))
               throw py::type_error("argument 'players' must be int (or the rules text, str), got " + describe(players));
             const py::int_ count = py::reinterpret_steal<py::int_>(PyNumber_Index(players.ptr()));  // numpy integers too
             if (!count) throw py::error_already_set();
             if (count < py::int_(2) || count > py::int_(kMaxPlayers))
               throw std::invalid_argument("players must be 2 to " + std::to_string(kMaxPlayers) + ", got " + std::string(py::str(count)));
             return make_rules(count.cast<int64_t>(), expansions, options);
           }),
           py::arg("players") = 2, py::arg("expansions") = std::vector<std::string>{}, py::arg("options") = py::dict(),
           "Rules(players=2, expansions=['river2', ...], options={'small_city': 'two_points'}), or "
           "Rules('players=3 expansions=river2,king_robber'): the text of Rules.parse, which every function taking "
           "Rules also accepts")
      .def_static("parse", &Rules::parse, py::arg("text"), "Rules.parse('players=3 expansions=river2,king_robber')")
      .def_property_readonly("players", [](const Rules& r) { return static_cast<int>(r.players); })
      .def_property_readonly("expansions", [](const Rules& r) { return expansion_names(r.expansions); })
      .def("option", [](const Rules& r, const std::string& name) {
        for (int i = 0; i < kNumOptions; ++i)
          if (name == option_specs()[static_cast<size_t>(i)].name) return r.option_value(static_cast<Option>(i));
        throw std::invalid_argument("unknown option '" + name + "'");
      }, py::arg("name"))
      .def("__str__", &Rules::to_string)
      .def("__repr__", [](const Rules& r) { return "Rules.parse('" + r.to_string() + "')"; })
      .def(py::self == py::self)
      .def(py::pickle([](const Rules& r) { return r.to_string(); }, [](const std::string& s) { return Rules::parse(s); }));

  py::implicitly_convertible<py::str, Rules>();  // a rules text wherever Rules are taken

  py::class_<Action>(m, "Action", "One move: a draw, a placement, a deploy, a pass, ... (32 bits).")
      .def_static("draw", [](const std::string& tile) { return Action::draw(tile_index(tile)); }, py::arg("tile"))
      .def_static("place", [](int64_t x, int64_t y, int64_t rotation) {
        if (rotation != 0 && rotation != 90 && rotation != 180 && rotation != 270)
          throw std::invalid_argument("rotation is in degrees: 0, 90, 180 or 270, got " + std::to_string(rotation));
        return Action::place(checked_field<int>(x, "x", kMinCoordinate, kMaxCoordinate),
                             checked_field<int>(y, "y", kMinCoordinate, kMaxCoordinate), static_cast<int>(rotation / 90));
      }, py::arg("x"), py::arg("y"), py::arg("rotation"), "A placement at (x, y) turned `rotation` degrees clockwise.")
      .def_static("pass_", &Action::pass)
      .def_static("from_bits", &action_from_bits, py::arg("bits"))
      .def_property_readonly("kind", [](Action a) { return kind_name(a.kind()); })
      .def_property_readonly("bits", &Action::bits)
      .def_property_readonly("tile", [](Action a) -> py::object {
        if (a.kind() != Action::kDraw) return py::none();
        return py::str(TileCatalog::get()[a.tile()].id);
      })
      .def_property_readonly("x", &Action::x)
      .def_property_readonly("y", &Action::y)
      .def_property_readonly("rotation", [](Action a) { return 90 * a.rotation(); })
      .def("__repr__", &Action::to_string)
      .def("__eq__", [](Action a, const py::object& other) { return py::isinstance<Action>(other) && a == other.cast<Action>(); })
      .def("__lt__", [](Action a, Action b) { return a < b; })
      .def("__hash__", [](Action a) { return a.bits(); })
      .def(py::pickle([](Action a) { return a.bits(); }, &action_from_bits));

  py::class_<State>(m, "State", R"doc(One position of a game (a copy costs a few microseconds).

At a chance node (current_player == -1) a tile is drawn: chance_outcomes() lists the draws with their
probabilities, or a Dealer deals one. At a decision node current_player chooses one of legal_actions().
apply() raises RulesError for an illegal action and leaves the state unchanged.)doc")
      .def(py::init<const Rules&>(), py::arg("rules"))
      .def_property_readonly("rules", &State::rules)
      .def_property_readonly("num_players", &State::num_players)
      .def_property_readonly("current_player", &State::current_player, "seat to decide, -1 at chance nodes, -2 when over")
      .def_property_readonly("turn_player", &State::turn_player)
      .def_property_readonly("phase", [](const State& s) { return to_string(s.phase()); })
      .def_property_readonly("is_terminal", &State::is_terminal)
      .def_property_readonly("is_chance", &State::is_chance)
      .def_property_readonly("tiles_left", &State::tiles_left)
      .def_property_readonly("num_tiles", &State::num_tiles, "tiles on the board")
      .def_property_readonly("drawn_tile", [](const State& s) -> py::object {
        if (s.drawn_tile() < 0) return py::none();
        return py::str(TileCatalog::get()[s.drawn_tile()].id);
      })
      .def("legal_actions", [](const State& s) {
        ActionList list;
        s.legal_actions(list);
        return std::vector<Action>(list.begin(), list.end());
      }, "Legal actions in ascending order; empty at chance and terminal nodes.")
      .def("chance_outcomes", [](const State& s) {
        ChanceOutcomes out;
        s.chance_outcomes(out);
        std::vector<std::pair<Action, double>> v;
        for (int i = 0; i < out.size; ++i) v.emplace_back(Action::draw(out.items[i].tile), out.probability(i));
        return v;
      }, "[(draw action, probability)] at a chance node, else [].")
      .def("is_legal", &State::is_legal, py::arg("action"))
      .def("apply", &apply_checked, py::arg("action"), "Applies a legal action; RulesError (state unchanged) otherwise.")
      .def("child", [](const State& s, Action a) {
        State next = s;
        apply_checked(next, a);
        return next;
      }, py::arg("action"), "A copy with the action applied.")
      .def_property_readonly("scores", [](const State& s) {
        std::vector<int> v;
        for (int p = 0; p < s.num_players(); ++p) v.push_back(s.score(p));
        return v;
      })
      .def("score_breakdown", [](const State& s) {
        std::vector<std::map<std::string, int>> v(static_cast<size_t>(s.num_players()));
        for (int p = 0; p < s.num_players(); ++p)
          for (int c = 0; c < kNumCategories; ++c) v[static_cast<size_t>(p)][category_name(c)] = s.score(p, c);
        return v;
      }, "Per seat: points by category (city, road, cloister, field, bonus).")
      .def("final_scores_if_ended_now", [](const State& s) {
        const auto a = s.final_scores_if_ended_now();
        return std::vector<int>(a.begin(), a.begin() + s.num_players());
      })
      .def("final_account", &final_account_dict, py::arg("last"),
           R"doc(The account of the final scoring that applying `last` here runs, or None when `last` does not end
the game: {"before": per seat the points by category before final scoring, "features": [{"what": "city",
"road", "cloister", "shrine", "farm", "barn", "king" or "robber", "category": where the points went,
"cells": [(x, y)] its tiles (the first where a figure of it stands; none for the King and the Robber),
"pennants": a city's, "completed": a farm's or barn's completed cities, the King's cities, the Robber's
roads, "paid": [seats], "points": per seat}]}, in the order scored. The features' points added to
"before" are the final scores. RulesError if `last` is illegal here.)doc")
      .def("winners", [](const State& s) {
        const auto w = s.winners();
        std::vector<int> v;
        for (int p = 0; p < s.num_players(); ++p)
          if (w[p]) v.push_back(p);
        return v;
      }, "Seats with the highest score (ties share the win); meaningful when terminal.")
      .def("remaining_tiles", [](const State& s) {
        py::array_t<int32_t> out(std::vector<py::ssize_t>{TileCatalog::get().size()});  // a shape, see zeros() in encoding.cpp
        auto v = out.mutable_unchecked<1>();
        for (int t = 0; t < TileCatalog::get().size(); ++t) v(t) = s.remaining(t);
        return out;
      }, "Copies still to come per tile type (public information), indexed like tile_ids().")
      .def("features", [](const State& s) {
        py::array_t<float> out({s.num_players(), static_cast<int>(kNumFeatures)});
        extract_features(s, std::span<float>(out.mutable_data(), static_cast<size_t>(out.size())));
        return out;
      }, "The evaluator features, one row per seat (columns named by FEATURE_NAMES), float32.")
      .def("tiles", [](const State& s) {
        py::list out;
        for (int i = 0; i < s.num_tiles(); ++i) {
          const PlacedTile& t = s.tile(i);
          out.append(py::make_tuple(TileCatalog::get()[t.type].id, static_cast<int>(t.x), static_cast<int>(t.y), 90 * t.rotation));
        }
        return out;
      }, "[(tile id, x, y, rotation in degrees)] of the placed tiles, in placement order (y grows south).")
      .def("figures", [](const State& s) {
        py::list out;
        s.for_each_figure([&](int p, int slot, int node) {
          const char* figure = slot < kFollowersPerPlayer ? "follower" : slot == kMayorSlot ? "mayor" : slot == kWagonSlot ? "wagon" : "barn";
          const PlacedTile& pt = s.tile(s.node_tile(node));
          out.append(py::make_tuple(p, figure, static_cast<int>(pt.x), static_cast<int>(pt.y), node - pt.node_base));
        });
        return out;
      }, "[(seat, figure, x, y, segment)] of the figures on the board (segment of the tile as printed; a barn's: its corner field).")
      .def("quarters", [](const State& s) {
        std::vector<std::vector<int>> out(static_cast<size_t>(s.num_players()), std::vector<int>(kNumQuarters));
        for (int p = 0; p < s.num_players(); ++p)
          for (int q = 0; q < kNumQuarters; ++q) out[static_cast<size_t>(p)][static_cast<size_t>(q)] = s.followers_in_quarter(p, q);
        return py::make_tuple(out, s.rules().has(kCount) ? py::object(py::str(quarter_name(s.count_quarter()))) : py::object(py::none()));
      }, "(followers per seat per quarter (castle, market, blacksmith, cathedral), the Count's quarter or None).")
      .def("check_consistency", &State::check_consistency)
      .def("copy", [](const State& s) { return State(s); })
      .def("__copy__", [](const State& s) { return State(s); })
      .def("__deepcopy__", [](const State& s, const py::dict&) { return State(s); }, py::arg("memo"))
      .def(py::self == py::self)
      .def("__repr__", [](const State& s) {
        std::string scores;
        for (int p = 0; p < s.num_players(); ++p) scores += (p ? ", " : "") + std::to_string(s.score(p));
        return "<meeple.State " + s.rules().to_string() + ", phase " + to_string(s.phase()) + ", player " +
               std::to_string(s.current_player()) + ", " + std::to_string(s.tiles_left()) + " tiles left, scores [" +
               scores + "]>";
      })
      .def(py::pickle(&state_bytes, &state_from_bytes));

  py::class_<Dealer>(m, "Dealer", "Deals tiles from a hidden order fixed by its seed (paired games share seeds).")
      .def(py::init<uint64_t>(), py::arg("seed"))
      .def("deal", [](Dealer& d, const State& s) {
        if (!s.is_chance()) throw std::invalid_argument("deal: the state is not at a chance node (phase " + std::string(to_string(s.phase())) + ")");
        return d.deal(s);
      }, py::arg("state"));

  {
    py::list phases;
    for (int p = 0; p <= static_cast<int>(Phase::kGameOver); ++p) phases.append(to_string(static_cast<Phase>(p)));
    m.attr("PHASES") = phases;  // State.phase is one of these
  }
  m.def("action_json", [](const State& before, Action a) -> py::object {
    if (!before.is_legal(a)) throw RulesViolation(before.why_illegal(a));
    std::string text;
    append_action_json(before, a, text);
    if (text.empty()) return py::none();
    return py::module_::import("json").attr("loads")(text);
  }, py::arg("before"), py::arg("action"),
        R"doc(The record form (meeple-game/1) of a legal action in the state it applies to, as a dict: e.g.
{"deploy": {"figure": "follower", "at": "NL"}, "p": 0}, locations in the board's frame. None for choosing
to draw instead of placing the abbey, which records have no form of its own for. RulesError if illegal.)doc");
  m.def("replay", [](const py::object& record, bool check_result) {
    const std::string text = utf8_text(record, "record");
    try {
      return replay(parse_record(text), check_result);
    } catch (const RecordError& e) {
      throw std::invalid_argument(e.action() < 0 ? std::string("record: ") + e.what()
                                                 : "record action " + std::to_string(e.action()) + ": " + e.what());
    }
  }, py::arg("record"), py::arg("check_result") = true,
        "The final state of a meeple-game/1 record (JSON text: str or UTF-8 bytes); ValueError naming the bad action otherwise.");

  py::class_<CheckedRecordBuilder>(m, "RecordBuilder", R"doc(Writes a meeple-game/1 record while a game is played.

add(before, action) before applying each action, draws included, to `before`: RulesError for an action not
legal there, ValueError for a state that is not the position the actions added so far lead to (or of other
rules); the record is left as it was.)doc")
      .def(py::init<const Rules&, std::vector<std::string>, std::optional<int64_t>>(), py::arg("rules"),
           py::arg("names") = std::vector<std::string>{}, py::arg("seed") = py::none())
      .def("add", &CheckedRecordBuilder::add, py::arg("before"), py::arg("action"), "Call before applying each action.")
      .def("finish", &CheckedRecordBuilder::finish, py::arg("final_state"),
           "The record as one JSON line, with the scores as its result (when the game is over).");
}

}  // namespace meeple::python
