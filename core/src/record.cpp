#include "meeple/record.h"

#include <set>

#include "meeple/checked.h"
#include "meeple/input.h"

namespace meeple {

using nlohmann::json;

namespace {

const TileCatalog& cat() { return TileCatalog::get(); }

[[noreturn]] void bad(const std::string& field, const std::string& what) { throw RecordError(-1, field + ": " + what); }

const char* type_name(const json& j) { return j.type_name(); }

void expect(bool ok, const std::string& field, const std::string& what) {
  if (!ok) bad(field, what);
}

// A JSON integer as a T in [lo, hi]: std::invalid_argument("FIELD must be LO to HI, got V") otherwise,
// whatever the size of V (JSON numbers are 64-bit here; the engine's types are narrower).
template <typename T>
T integer_of(const json& v, const std::string& field, T lo, T hi) {
  if (!v.is_number_integer()) throw std::invalid_argument(field + " must be an integer, got " + excerpt_json(v));
  return v.is_number_unsigned() ? checked_field<T>(v.get<uint64_t>(), field, lo, hi) : checked_field<T>(v.get<int64_t>(), field, lo, hi);
}

// The same for a field of the record as a whole: RecordError(-1, ...).
template <typename T>
T record_integer(const json& v, const std::string& field, T lo, T hi) {
  try {
    return integer_of<T>(v, field, lo, hi);
  } catch (const std::invalid_argument& e) {
    throw RecordError(-1, e.what());
  }
}

int coordinate(const json& v, const char* name) { return integer_of<int>(v, name, kMinCoordinate, kMaxCoordinate); }

// A location name on the tile just placed, in the board's frame.
std::string location_name(const PlacedTile& pt, int segment) {
  const TileType& tt = cat()[pt.type];
  const Segment& seg = tt.segments[segment];
  const auto& rot = tt.rot[pt.rotation];
  switch (seg.kind) {
    case SegmentKind::kCloister:
    case SegmentKind::kShrine: return "C";
    case SegmentKind::kField:
      if (seg.inner_index) return "I" + std::to_string(seg.inner_index);
      for (int h = 0; h < 8; ++h)
        if (rot.half_segment[h] == segment) return half_name(h);
      break;
    default:
      for (int e = 0; e < 4; ++e)
        if (rot.edge_segment[e] == segment) return edge_name(e);
  }
  return "?";
}

int segment_at(const PlacedTile& pt, const std::string& at) {
  const TileType& tt = cat()[pt.type];
  const auto& rot = tt.rot[pt.rotation];
  if (const int e = parse_edge(at); e >= 0) {
    if (rot.edge_segment[e] == kNoSegment)
      throw std::invalid_argument("edge " + at + " of " + tt.id + " is a field edge: name a field by its half-edge (" +
                                  at + "L or " + at + "R)");
    return rot.edge_segment[e];
  }
  if (const int h = parse_half(at); h >= 0) {
    if (rot.half_segment[h] == kNoSegment)
      throw std::invalid_argument("half-edge " + at + " of " + tt.id + " is not a field (it is on a city edge)");
    return rot.half_segment[h];
  }
  if (at == "C") {
    if (tt.cloister < 0) throw std::invalid_argument(tt.id + " has no cloister or shrine (location C)");
    return tt.cloister;
  }
  if (at == "I1" || at == "I2") {
    const int want = at[1] - '0';
    for (int s = 0; s < tt.num_segments; ++s)
      if (tt.segments[s].inner_index == want) return s;
    throw std::invalid_argument(tt.id + " has no inner field " + at);
  }
  if (at == "NE" || at == "SE" || at == "SW" || at == "NW")
    throw std::invalid_argument("corner " + at + " is a barn location; barns need the abbey_mayor expansion");
  throw std::invalid_argument("unknown location '" + excerpt(at) + "'; expected N E S W, NL NR EL ER SL SR WL WR, C, I1, I2");
}

// Structure of one action object: one known key, plus an optional integer "p".
void check_action_shape(const json& a, size_t i) {
  const std::string field = "actions[" + std::to_string(i) + "]";
  expect(a.is_object(), field, std::string("must be an object, got ") + type_name(a));
  static const std::set<std::string> kinds = {"draw", "place", "abbey", "deploy", "count_deploy", "redeploy", "wagon"};
  int named = 0;
  for (auto it = a.begin(); it != a.end(); ++it) {
    if (it.key() == "p") {
      expect(it.value().is_number_integer(), field + ".p", "must be an integer seat");
    } else if (kinds.count(it.key())) {
      ++named;
    } else {
      bad(field, "unknown key '" + excerpt(it.key()) + "'; an action is one of draw, place, abbey, deploy, count_deploy, redeploy, wagon");
    }
  }
  expect(named == 1, field, "must name exactly one action");
  if (a.contains("draw")) expect(a["draw"].is_string(), field + ".draw", "must be a tile id string");
  if (a.contains("place")) {
    const json& p = a["place"];
    expect(p.is_array() && p.size() == 3 && p[0].is_number_integer() && p[1].is_number_integer() && p[2].is_number_integer(),
           field + ".place", "must be [x, y, rot] with integers");
  }
  if (a.contains("count_deploy") && !a["count_deploy"].is_null()) {
    const json& d = a["count_deploy"];
    expect(d.is_object(), field + ".count_deploy", "must be an object or null");
    for (auto it = d.begin(); it != d.end(); ++it)
      expect(it.key() == "figure" || it.key() == "quarter" || it.key() == "count_to", field + ".count_deploy",
             "unknown key '" + excerpt(it.key()) + "'");
    expect(d.contains("figure") && d["figure"].is_string(), field + ".count_deploy.figure", "must be a string");
    expect(d.contains("quarter") && d["quarter"].is_string(), field + ".count_deploy.quarter", "must be a quarter name");
    if (d.contains("count_to"))
      expect(d["count_to"].is_null() || d["count_to"].is_string(), field + ".count_deploy.count_to", "must be a quarter name or null");
  }
  if (a.contains("redeploy") && !a["redeploy"].is_null()) {
    const json& d = a["redeploy"];
    expect(d.is_object(), field + ".redeploy", "must be an object or null");
    for (auto it = d.begin(); it != d.end(); ++it)
      expect(it.key() == "figure" || it.key() == "from" || it.key() == "to", field + ".redeploy", "unknown key '" + excerpt(it.key()) + "'");
    expect(d.contains("from") && d["from"].is_string(), field + ".redeploy.from", "must be a quarter name");
    if (d.contains("figure")) expect(d["figure"].is_string(), field + ".redeploy.figure", "must be a string");
    const json& to = d.contains("to") ? d["to"] : json();
    expect(to.is_array() && to.size() == 3 && to[0].is_number_integer() && to[1].is_number_integer() && to[2].is_string(),
           field + ".redeploy.to", "must be [x, y, location]");
  }
  if (a.contains("abbey") && !a["abbey"].is_null())
    expect(a["abbey"].is_array() && a["abbey"].size() == 2 && a["abbey"][0].is_number_integer() && a["abbey"][1].is_number_integer(),
           field + ".abbey", "must be [x, y] or null");
  if (a.contains("wagon") && !a["wagon"].is_null())
    expect(a["wagon"].is_array() && a["wagon"].size() == 3 && a["wagon"][0].is_number_integer() && a["wagon"][1].is_number_integer() &&
               a["wagon"][2].is_string(),
           field + ".wagon", "must be [x, y, location] or null");
  if (a.contains("deploy")) {
    const json& d = a["deploy"];
    if (!d.is_null()) {
      expect(d.is_object(), field + ".deploy", "must be an object or null");
      for (auto it = d.begin(); it != d.end(); ++it)
        expect(it.key() == "figure" || it.key() == "at", field + ".deploy", "unknown key '" + excerpt(it.key()) + "'");
      expect(d.contains("figure") && d["figure"].is_string(), field + ".deploy.figure", "must be a string");
      expect(d.contains("at") && d["at"].is_string(), field + ".deploy.at", "must be a location string");
    }
  }
}

Figure parse_figure(const State& state, const std::string& figure) {
  Figure f;
  if (figure == "follower") return Figure::kFollower;
  if (figure == "mayor") f = Figure::kMayor;
  else if (figure == "wagon") f = Figure::kWagon;
  else if (figure == "barn") f = Figure::kBarn;
  else throw std::invalid_argument("unknown figure '" + excerpt(figure) + "'; figures are follower, mayor, wagon, barn");
  if (!state.rules().has(kAbbeyMayor)) throw std::invalid_argument("figure '" + figure + "' needs the abbey_mayor expansion");
  return f;
}

// [x, y, location] on the board: the feature's root node.
int feature_at(const State& state, const json& where) {
  const int x = coordinate(where[0], "x"), y = coordinate(where[1], "y");
  const int tile = state.tile_at(x, y);
  if (tile < 0) throw std::invalid_argument("(" + std::to_string(x) + "," + std::to_string(y) + ") holds no tile");
  return state.feature_root(state.node(tile, segment_at(state.tile(tile), where[2].get<std::string>())));
}

int quarter_of(const json& name) {
  const int q = parse_quarter(name.get<std::string>());
  if (q < 0) throw std::invalid_argument("unknown quarter '" + excerpt(name.get<std::string>()) + "'; quarters are castle, market, blacksmith, cathedral");
  return q;
}

std::string phase_mismatch(Phase phase, const char* what) {
  return std::string("expected a ") + to_string(phase) + " action, not " + what;
}

// A record's key names a kind of action; the phase table says which kind each phase takes (a null under
// the key is that phase's pass: each row's pass_record_key is its kind's key, or none for the turn start).
void expect_kind(Phase phase, Action::Kind kind, const char* what) {
  if (action_kind(phase) != kind) throw std::invalid_argument(phase_mismatch(phase, what));
}

}  // namespace

Action action_from_json(const State& state, const json& j) {
  const Phase phase = state.phase();
  if (j.contains("draw")) {
    const int tile = cat().find(j["draw"].get<std::string>());
    if (tile < 0) throw std::invalid_argument("unknown tile id '" + excerpt(j["draw"].get<std::string>()) + "'");
    const char* pass_key = pass_record_key(phase);
    if (pass_key && !*pass_key) return Action::pass();  // a pass written as the draw that follows it (A1)
    expect_kind(phase, Action::kDraw, "a draw");
    return Action::draw(tile);
  }
  if (j.contains("place")) {
    expect_kind(phase, Action::kPlace, "a placement");
    const json& p = j["place"];
    const int x = coordinate(p[0], "x"), y = coordinate(p[1], "y");
    if (p[2] != 0 && p[2] != 90 && p[2] != 180 && p[2] != 270)
      throw std::invalid_argument("rotation must be 0, 90, 180 or 270, got " + excerpt_json(p[2]));
    return Action::place(x, y, p[2].get<int>() / 90);
  }
  if (j.contains("deploy")) {
    expect_kind(phase, Action::kDeploy, "a deploy");
    const json& d = j["deploy"];
    if (d.is_null()) return Action::pass();
    const Figure f = parse_figure(state, d["figure"].get<std::string>());
    const std::string at = d["at"].get<std::string>();
    if (f == Figure::kBarn) {
      const int corner = parse_corner(at);
      if (corner < 0) throw std::invalid_argument("a barn stands on a corner: NE, SE, SW or NW, not '" + excerpt(at) + "'");
      return Action::deploy(f, corner);
    }
    return Action::deploy(f, segment_at(state.tile(state.last_tile()), at));
  }
  if (j.contains("count_deploy")) {
    expect_kind(phase, Action::kCountDeploy, "a Count deploy");
    const json& d = j["count_deploy"];
    if (d.is_null()) return Action::pass();
    const Figure f = parse_figure(state, d["figure"].get<std::string>());
    int to = kCountStays;
    if (d.contains("count_to") && !d["count_to"].is_null()) {
      if (state.rules().count_move() != CountMove::kFree)
        throw std::invalid_argument("count_to is only given with count_move free; the Count moves by the rule");
      to = quarter_of(d["count_to"]);
      if (to == state.count_quarter()) to = kCountStays;  // moving to where it stands is staying
    }
    return Action::count_deploy(f, quarter_of(d["quarter"]), to);
  }
  if (j.contains("redeploy")) {
    expect_kind(phase, Action::kRedeploy, "a redeploy");
    const json& d = j["redeploy"];
    if (d.is_null()) return Action::pass();
    const Figure f = parse_figure(state, d.contains("figure") ? d["figure"].get<std::string>() : "follower");
    return Action::redeploy(quarter_of(d["from"]), f, feature_at(state, d["to"]));
  }
  if (j.contains("abbey")) {
    expect_kind(phase, Action::kAbbey, "an abbey placement");
    const json& a = j["abbey"];
    if (a.is_null()) {
      if (std::string_view(pass_record_key(phase)) != "abbey")
        throw std::invalid_argument("declining the abbey is written as a draw during the game");
      return Action::pass();
    }
    return Action::abbey(cell_key(coordinate(a[0], "x"), coordinate(a[1], "y")));
  }
  if (j.contains("wagon")) {
    expect_kind(phase, Action::kWagon, "a wagon move");
    if (j["wagon"].is_null()) return Action::pass();
    return Action::wagon(feature_at(state, j["wagon"]));
  }
  throw std::invalid_argument("not an action");
}

// The compact JSON text of an action, keys in the order nlohmann's dump() writes them (sorted), so a
// record written from text is byte for byte the record written from a JSON tree. Every string here is a
// tile id or a fixed name: nothing needs escaping.
void append_action_json(const State& before, Action a, std::string& out) {
  auto str = [&out](std::string_view s) { (out += '"') += s, out += '"'; };
  auto num = [&out](int v) { out += std::to_string(v); };
  auto cell = [&](int x, int y) { out += '[', num(x), out += ',', num(y); };  // leaves the array open
  auto player = [&] { out += "\"p\":", num(before.current_player()); };
  switch (a.kind()) {
    case Action::kDraw: out += "{\"draw\":", str(cat()[a.tile()].id), out += '}'; return;
    case Action::kPlace:
      out += '{', player(), out += ",\"place\":", cell(a.x(), a.y()), out += ',', num(90 * a.rotation()), out += "]}";
      return;
    case Action::kDeploy:
      out += "{\"deploy\":{\"at\":";
      str(a.figure() == Figure::kBarn ? std::string(corner_name(a.segment())) : location_name(before.tile(before.last_tile()), a.segment()));
      out += ",\"figure\":", str(to_string(a.figure())), out += "},", player(), out += '}';
      return;
    case Action::kAbbey: out += "{\"abbey\":", cell(a.x(), a.y()), out += "],", player(), out += '}'; return;
    case Action::kWagon: {
      const PlacedTile& pt = before.tile(before.node_tile(a.node()));
      out += '{', player(), out += ",\"wagon\":", cell(pt.x, pt.y), out += ',', str(location_name(pt, a.node() - pt.node_base)), out += "]}";
      return;
    }
    case Action::kCountDeploy:
      out += "{\"count_deploy\":{";
      if (before.rules().count_move() == CountMove::kFree) {
        out += "\"count_to\":";
        if (a.count_to() == kCountStays) out += "null";
        else str(quarter_name(a.count_to()));
        out += ',';
      }
      out += "\"figure\":", str(to_string(a.figure())), out += ",\"quarter\":", str(quarter_name(a.quarter())), out += "},";
      player(), out += '}';
      return;
    case Action::kRedeploy: {
      const PlacedTile& pt = before.tile(before.node_tile(a.node()));
      out += '{', player(), out += ",\"redeploy\":{\"figure\":", str(to_string(a.moved_figure()));
      out += ",\"from\":", str(quarter_name(a.quarter())), out += ",\"to\":", cell(pt.x, pt.y);
      out += ',', str(location_name(pt, a.node() - pt.node_base)), out += "]}}";
      return;
    }
    case Action::kPass: {
      const char* key = pass_record_key(before.phase());
      if (!key) throw std::invalid_argument("no pass in this phase");
      if (!*key) return;  // the draw that follows stands for this choice: nothing written
      // "p" sorts after "abbey", "count_deploy" and "deploy", before "redeploy" and "wagon".
      const bool p_first = std::string_view(key) > "p";
      out += '{';
      if (p_first) player(), out += ',';
      str(key), out += ":null";
      if (!p_first) out += ',', player();
      out += '}';
      return;
    }
    case Action::kNone: throw std::invalid_argument("no action");
  }
}

json action_to_json(const State& before, Action a) {
  std::string text;
  append_action_json(before, a, text);
  return text.empty() ? json() : json::parse(text);  // text written above, not input: no limits needed
}

GameRecord parse_record(std::string_view text) {
  json j;
  try {
    j = parse_json(text);
  } catch (const std::invalid_argument& e) {  // bad syntax or UTF-8, a NUL byte, too deep, a key twice
    throw RecordError(-1, std::string("not valid JSON: ") + e.what());
  }
  return record_from_json(j);
}

GameRecord record_from_json(const json& j) {
  expect(j.is_object(), "record", std::string("must be a JSON object, got ") + type_name(j));
  static const std::set<std::string> keys = {"format", "rules", "players", "names", "seed", "actions", "result"};
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!keys.count(it.key())) bad(excerpt(it.key()), "unknown key; a record has format, rules, players, names, seed, actions, result");
  expect(j.contains("format") && j["format"] == kRecordFormat, "format", std::string("must be \"") + kRecordFormat + "\"");
  expect(j.contains("rules") && j["rules"].is_object(), "rules", "must be an object");
  expect(j.contains("players"), "players", "is missing");
  expect(j.contains("actions") && j["actions"].is_array(), "actions", "must be an array");

  GameRecord r;
  const int players = record_integer<int>(j["players"], "players", 2, kMaxPlayers);
  r.rules.players = static_cast<uint8_t>(players);
  const json& rules = j["rules"];
  for (auto it = rules.begin(); it != rules.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    if (k == "expansions") {
      expect(v.is_array(), "rules.expansions", "must be an array of names");
      for (const json& e : v) {
        expect(e.is_string(), "rules.expansions", "must contain strings");
        try {
          r.rules.add_expansion(e.get<std::string>());
        } catch (const std::invalid_argument& err) {
          bad("rules.expansions", err.what());
        }
      }
    } else if (k == "options") {
      expect(v.is_object(), "rules.options", "must be an object");
      for (auto o = v.begin(); o != v.end(); ++o) {
        const std::string field = "rules.options." + excerpt(o.key());
        try {
          if (o.value().is_string()) {
            r.rules.set_option(o.key(), o.value().get<std::string>());
          } else if (o.value().is_array()) {
            std::vector<std::string> values;
            for (const json& x : o.value()) {
              expect(x.is_string(), field, "must contain strings");
              values.push_back(x.get<std::string>());
            }
            r.rules.set_option(o.key(), values);
          } else {
            bad(field, std::string("must be a string (or an array for shrine_sets), got ") + type_name(o.value()));
          }
        } catch (const std::invalid_argument& err) {
          bad(field, err.what());
        }
      }
    } else if (k == "deck") {
      expect(v.is_object(), "rules.deck", "must be an object of tile id to copies");
      r.deck.assign(cat().size(), 0);
      for (auto d = v.begin(); d != v.end(); ++d) {
        const int tile = cat().find(d.key());
        if (tile < 0) bad("rules.deck." + excerpt(d.key()), "unknown tile id");
        r.deck[tile] = record_integer<uint8_t>(d.value(), "rules.deck." + d.key(), 0, 255);  // a known tile id: short
      }
    } else {
      bad("rules." + excerpt(k), "unknown key; rules have expansions, options, deck");
    }
  }
  if (j.contains("names")) {
    expect(j["names"].is_array(), "names", "must be an array of strings");
    for (const json& n : j["names"]) {
      expect(n.is_string(), "names", "must contain strings");
      r.names.push_back(n.get<std::string>());
    }
  }
  if (j.contains("seed")) {
    r.seed = record_integer<int64_t>(j["seed"], "seed", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  }
  if (j.contains("result")) {
    const json& res = j["result"];
    expect(res.is_object(), "result", "must be an object");
    for (auto it = res.begin(); it != res.end(); ++it)
      if (it.key() != "scores") bad("result." + excerpt(it.key()), "unknown key; result has scores");
    expect(res.contains("scores") && res["scores"].is_array(), "result.scores", "must be an array of integers");
    std::vector<int> scores;
    for (const json& s : res["scores"]) {
      scores.push_back(record_integer<int>(s, "result.scores", std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()));
    }
    expect(static_cast<int>(scores.size()) == players, "result.scores", "must have one score per player");
    r.result_scores = scores;
  }
  const json& actions = j["actions"];
  for (size_t i = 0; i < actions.size(); ++i) {
    check_action_shape(actions[i], i);
    r.actions.push_back(actions[i]);
  }
  return r;
}

json GameRecord::to_json() const {
  json j;
  j["format"] = kRecordFormat;
  json rules_json;
  json expansions = json::array();
  for (int i = 0; i < kNumExpansions; ++i)
    if (rules.expansions & (1 << i)) expansions.push_back(expansion_name(static_cast<Expansion>(1 << i)));
  rules_json["expansions"] = expansions;
  const Rules defaults;
  json options = json::object();
  for (int i = 0; i < kNumOptions; ++i) {
    const auto o = static_cast<Option>(i);
    if (rules.option(o) == defaults.option(o)) continue;
    const OptionSpec& spec = option_specs()[i];
    if (spec.is_set) {
      json values = json::array();
      for (size_t k = 0; k < spec.values.size(); ++k)
        if (rules.option(o) & (1 << k)) values.push_back(spec.values[k]);
      options[spec.name] = values;
    } else {
      options[spec.name] = spec.values[rules.option(o)];
    }
  }
  if (!options.empty()) rules_json["options"] = options;
  if (!deck.empty()) {
    json d = json::object();
    for (size_t t = 0; t < deck.size(); ++t)
      if (deck[t]) d[cat()[static_cast<int>(t)].id] = deck[t];
    rules_json["deck"] = d;
  }
  j["rules"] = rules_json;
  j["players"] = rules.players;
  if (!names.empty()) j["names"] = names;
  if (seed) j["seed"] = *seed;
  j["actions"] = actions;
  if (result_scores) j["result"] = json{{"scores", *result_scores}};
  return j;
}

State replay(const GameRecord& record, bool check_result) {
  State state = [&] {
    try {
      return record.initial_state();
    } catch (const std::invalid_argument& e) {
      throw RecordError(-1, std::string("rules: ") + e.what());
    }
  }();
  for (size_t i = 0; i < record.actions.size(); ++i) {
    const json& a = record.actions[i];
    const int index = static_cast<int>(i);
    auto fail = [&](const std::string& why) { throw RecordError(index, "action " + std::to_string(i) + " " + excerpt_json(a) + ": " + why); };
    if (state.is_terminal()) fail("the game is already over");
    Action action;
    try {
      action = action_from_json(state, a);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
    if (a.contains("p") && !state.is_chance()) {
      int seat = 0;
      try {
        seat = integer_of<int>(a["p"], "p", 0, state.num_players() - 1);
      } catch (const std::invalid_argument& e) {
        fail(e.what());
      }
      if (seat != state.current_player())
        fail("taken by seat " + std::to_string(seat) + ", but seat " + std::to_string(state.current_player()) + " is to act");
    }
    if (state.phase() == Phase::kTurnStart && a.contains("draw")) {
      state.apply(Action::pass());  // the record's draw also stands for choosing to draw
      try {
        action = action_from_json(state, a);
      } catch (const std::invalid_argument& e) {
        fail(e.what());
      }
    }
    if (const std::string err = state.try_apply(action); !err.empty()) fail(err);
  }
  if (check_result && record.result_scores) {
    if (!state.is_terminal()) throw RecordError(-1, "result: the record has a result but its actions end before the game does");
    std::vector<int> scores;
    for (int p = 0; p < state.num_players(); ++p) scores.push_back(state.score(p));
    if (scores != *record.result_scores)
      throw RecordError(-1, "result.scores " + json(*record.result_scores).dump() + " differ from the replayed scores " +
                                json(scores).dump());
  }
  return state;
}

RecordBuilder::RecordBuilder(const Rules& rules, std::vector<std::string> names, std::optional<int64_t> seed,
                             std::vector<uint8_t> deck) {
  record_.rules = rules;
  record_.names = std::move(names);
  record_.seed = seed;
  record_.deck = std::move(deck);
}

void RecordBuilder::add(const State& before, Action a) {
  const size_t size = actions_.size();
  if (size > 1) actions_ += ',';
  append_action_json(before, a, actions_);
  if (actions_.size() == size + (size > 1 ? 1 : 0)) actions_.resize(size);  // nothing written: drop the comma
}

void RecordBuilder::set_result(const State& final_state) {
  if (!final_state.is_terminal()) return;
  std::vector<int> scores;
  for (int p = 0; p < final_state.num_players(); ++p) scores.push_back(final_state.score(p));
  record_.result_scores = scores;
}

GameRecord RecordBuilder::finish(const State& final_state) {
  set_result(final_state);
  GameRecord r = record_;
  r.actions = json::parse(actions_ + ']').get<std::vector<json>>();
  return r;
}

std::string RecordBuilder::finish_line(const State& final_state) {
  set_result(final_state);
  // "actions" is the first key of the dump (keys are sorted): the rest is the record without it.
  json without_actions = record_.to_json();
  without_actions.erase("actions");
  const std::string rest = without_actions.dump();
  return "{\"actions\":" + actions_ + "]," + rest.substr(1);
}

json scores_json(const State& state) {
  json scores = json::array(), breakdown = json::array();
  for (int p = 0; p < state.num_players(); ++p) {
    scores.push_back(state.score(p));
    json b;
    for (int c = 0; c < kNumCategories; ++c) b[category_name(c)] = state.score(p, c);
    breakdown.push_back(b);
  }
  return json{{"terminal", state.is_terminal()}, {"scores", scores}, {"breakdown", breakdown}};
}

}  // namespace meeple
