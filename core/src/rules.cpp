#include "meeple/rules.h"

#include <set>
#include <sstream>
#include <stdexcept>

#include "meeple/checked.h"
#include "meeple/input.h"

namespace meeple {

namespace {

constexpr std::array<const char*, kNumExpansions> kExpansionNames = {"river2", "count", "king_robber", "cult_places",
                                                                     "abbey_mayor"};

template <typename Names>
std::string join(const Names& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::string(v[i]);
  return out;
}

int option_index(std::string_view name) {
  for (int i = 0; i < kNumOptions; ++i)
    if (name == option_specs()[i].name) return i;
  return -1;
}

std::string option_names() {
  std::vector<const char*> names;
  for (const auto& o : option_specs()) names.push_back(o.name);
  return join(names, ", ");
}

std::vector<std::string> split_list(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace

const char* expansion_name(Expansion e) { return kExpansionNames[__builtin_ctz(e)]; }

std::array<uint8_t, kNumOptions> Rules::default_options() {
  std::array<uint8_t, kNumOptions> o{};
  for (int i = 0; i < kNumOptions; ++i) o[i] = option_specs()[i].is_set ? 1 : 0;
  return o;
}


void Rules::set_option(std::string_view name, std::string_view value) {
  const int i = option_index(name);
  if (i < 0) throw std::invalid_argument("unknown option '" + excerpt(name) + "'; options are: " + option_names());
  const OptionSpec& spec = option_specs()[i];
  if (spec.is_set) {
    set_option(name, split_list(value, '+'));
    return;
  }
  for (size_t v = 0; v < spec.values.size(); ++v) {
    if (value == spec.values[v]) {
      options[i] = static_cast<uint8_t>(v);
      return;
    }
  }
  throw std::invalid_argument("option " + std::string(name) + " has no value '" + excerpt(value) +
                              "'; valid values: " + join(spec.values, ", "));
}

void Rules::set_option(std::string_view name, const std::vector<std::string>& set_values) {
  const int i = option_index(name);
  if (i < 0) throw std::invalid_argument("unknown option '" + excerpt(name) + "'; options are: " + option_names());
  const OptionSpec& spec = option_specs()[i];
  if (!spec.is_set) {
    if (set_values.size() != 1) throw std::invalid_argument("option " + std::string(name) + " takes one value");
    set_option(name, std::string_view(set_values[0]));
    return;
  }
  uint8_t mask = 0;
  for (const std::string& v : set_values) {
    size_t k = 0;
    while (k < spec.values.size() && v != spec.values[k]) ++k;
    if (k == spec.values.size())
      throw std::invalid_argument("option " + std::string(name) + " has no value '" + excerpt(v) +
                                  "'; valid values: " + join(spec.values, ", "));
    if (mask & (1 << k)) throw std::invalid_argument("option " + std::string(name) + ": '" + v + "' given twice");
    mask = static_cast<uint8_t>(mask | (1 << k));
  }
  if (!mask) throw std::invalid_argument("option " + std::string(name) + " needs at least one of: " + join(spec.values, ", "));
  options[i] = mask;
}

void Rules::add_expansion(std::string_view name) {
  for (int i = 0; i < kNumExpansions; ++i) {
    if (name == kExpansionNames[i]) {
      // A name listed twice is a slip (a list built wrong), not a second copy of the expansion.
      if (expansions & (1 << i)) throw std::invalid_argument("expansion '" + std::string(name) + "' given twice");
      expansions |= static_cast<Expansion>(1 << i);
      return;
    }
  }
  throw std::invalid_argument("unknown expansion '" + excerpt(name) + "'; expansions are: " + join(kExpansionNames, ", "));
}

void Rules::validate() const {
  if (players < 2 || players > 6)
    throw std::invalid_argument("players must be 2 to 6, got " + std::to_string(players));
  if (expansions >> kNumExpansions) throw std::invalid_argument("unknown expansion bits in the ruleset");
  for (int i = 0; i < kNumOptions; ++i) {  // a value that names one of the option's values (or a set of them)
    const OptionSpec& spec = option_specs()[static_cast<size_t>(i)];
    const size_t n = spec.values.size();
    if (spec.is_set ? options[i] >> n != 0 : options[i] >= n)
      throw std::invalid_argument(std::string("option ") + spec.name + " holds no valid value (" + std::to_string(options[i]) + ")");
  }
}

std::string Rules::option_value(Option o) const {
  const OptionSpec& spec = option_specs()[static_cast<int>(o)];
  const uint8_t v = option(o);
  if (!spec.is_set) return spec.values[v];
  std::vector<const char*> members;
  for (size_t k = 0; k < spec.values.size(); ++k)
    if (v & (1 << k)) members.push_back(spec.values[k]);
  return join(members, "+");
}

Rules Rules::parse(std::string_view text) {
  // Every name is checked (NAME=VALUE, given once: the last would win silently) before any value is read.
  std::vector<std::pair<std::string, std::string>> given;
  std::set<std::string> names;
  std::istringstream in{std::string(text)};
  for (std::string word; in >> word;) {
    const auto eq = word.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("rules: expected NAME=VALUE, got '" + excerpt(word) + "'");
    const std::string name = word.substr(0, eq);
    if (!names.insert(name).second) throw std::invalid_argument("rules: " + excerpt(name) + " given twice");
    given.emplace_back(name, word.substr(eq + 1));
  }
  Rules rules;
  for (const auto& [name, value] : given) {
    if (name == "players") {
      try {
        rules.players = parse_number<uint8_t>(value, 2, 6);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("rules: players " + std::string(e.what()) + ", got '" + excerpt(value) + "'");
      }
    } else if (name == "expansions") {
      for (const std::string& e : split_list(value, ',')) rules.add_expansion(e);
    } else {
      rules.set_option(name, value);
    }
  }
  rules.validate();
  return rules;
}

std::string Rules::to_string() const {
  std::string out = "players=" + std::to_string(players);
  std::vector<const char*> names;
  for (int i = 0; i < kNumExpansions; ++i)
    if (expansions & (1 << i)) names.push_back(kExpansionNames[i]);
  if (!names.empty()) out += " expansions=" + join(names, ",");
  const auto defaults = default_options();
  for (int i = 0; i < kNumOptions; ++i) {
    if (options[i] == defaults[i]) continue;
    out.append(" ").append(option_specs()[i].name).append("=").append(option_value(static_cast<Option>(i)));
  }
  return out;
}

}  // namespace meeple
