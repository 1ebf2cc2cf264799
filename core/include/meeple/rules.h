// Which game is played: expansions, named options for disputed rulings, player count.
//
// Rule variants are data (one small struct), never subclasses: a ruleset is named in one line, e.g.
//   Rules::parse("players=3 expansions=river2,king_robber small_city=two_points")
// Option names and values are those of the game record format; defaults are the first value listed.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meeple {

enum Expansion : uint8_t {
  kRiver2 = 1 << 0,
  kCount = 1 << 1,
  kKingRobber = 1 << 2,
  kCultPlaces = 1 << 3,
  kAbbeyMayor = 1 << 4,
};
inline constexpr int kNumExpansions = 5;
const char* expansion_name(Expansion e);  // "river2", ...

enum class Option : uint8_t {
  kSmallCity, kCountMove, kCountBlocksEntry, kCountRedeployEmpty, kCountFinalQuarters, kChallengeOwn,
  kShrineHouseRule, kAbbeyEndRound, kVolcanoNoFollower, kPigHerd, kPigHerdBarn, kShrineSets,
};
inline constexpr int kNumOptions = 12;

struct OptionSpec {
  const char* name;
  std::vector<const char*> values;  // the first one is the default (for a set option: its one member)
  bool is_set;                      // a subset of the values (shrine_sets), stored as a bit mask
  uint8_t expansion;                // the expansion the option belongs to; 0 for the base game
  const char* note;
};
const std::array<OptionSpec, kNumOptions>& option_specs();

// Values of named options, as used in the engine (index into OptionSpec::values, or a bit mask).
enum SmallCity : uint8_t { kSmallCityNormal, kSmallCityTwoPoints };

struct Rules {
  uint8_t players = 2;
  uint8_t expansions = 0;
  std::array<uint8_t, kNumOptions> options = default_options();

  bool has(Expansion e) const { return expansions & e; }
  uint8_t option(Option o) const { return options[static_cast<int>(o)]; }
  bool on(Option o) const;  // for on/off options

  // Sets an option by name and value as in records; throws std::invalid_argument saying what is valid.
  void set_option(std::string_view name, std::string_view value);
  void set_option(std::string_view name, const std::vector<std::string>& set_values);
  // Enables an expansion by record name; throws std::invalid_argument for unknown ones.
  void add_expansion(std::string_view name);
  // Throws std::invalid_argument if the combination is not playable (player count, options of absent
  // expansions are allowed and ignored).
  void validate() const;

  // "players=3 expansions=river2,king_robber small_city=two_points shrine_sets=ckr+csc"
  static Rules parse(std::string_view text);
  std::string to_string() const;
  std::string option_value(Option o) const;  // "two_points", "ckr+csc"

  bool operator==(const Rules&) const = default;

 private:
  static std::array<uint8_t, kNumOptions> default_options();
};

}  // namespace meeple
