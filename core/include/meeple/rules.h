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

// Option values as the engine reads them: a switch is on or off, the others are enums whose values are
// the indices into OptionSpec::values (tests/core/rules_test.cpp checks both against option_specs()).
// Reading one is a load and a compare, never a string compare.
enum class SmallCity : uint8_t { kNormal, kTwoPoints };
enum class CountMove : uint8_t { kFree, kClockwise, kFollow };
enum class CountFinalQuarters : uint8_t { kAny, kMarket };
enum class ShrineHouseRule : uint8_t { kOff, kWinnerTakesBoth };
// For each option, the index of "on" among its values, or kNotASwitch.
inline constexpr uint8_t kNotASwitch = 0xFF;
inline constexpr std::array<uint8_t, kNumOptions> kOnValue = {
    kNotASwitch, kNotASwitch, 1, 0, kNotASwitch, 0,  // small_city, count_move, count_blocks_entry, count_redeploy_empty, count_final_quarters, challenge_own
    kNotASwitch, 0, 0, 0, 1, kNotASwitch,            // shrine_house_rule, abbey_end_round, volcano_no_follower, pig_herd, pig_herd_barn, shrine_sets
};

struct Rules {
  uint8_t players = 2;
  uint8_t expansions = 0;
  std::array<uint8_t, kNumOptions> options = default_options();

  bool has(Expansion e) const { return expansions & e; }
  uint8_t option(Option o) const { return options[static_cast<int>(o)]; }
  bool on(Option o) const { return options[static_cast<int>(o)] == kOnValue[static_cast<int>(o)]; }  // switches
  SmallCity small_city() const { return static_cast<SmallCity>(option(Option::kSmallCity)); }
  CountMove count_move() const { return static_cast<CountMove>(option(Option::kCountMove)); }
  CountFinalQuarters count_final_quarters() const { return static_cast<CountFinalQuarters>(option(Option::kCountFinalQuarters)); }
  ShrineHouseRule shrine_house_rule() const { return static_cast<ShrineHouseRule>(option(Option::kShrineHouseRule)); }

  // Sets an option by name and value as in records; throws std::invalid_argument saying what is valid
  // (a member of a set given twice included).
  void set_option(std::string_view name, std::string_view value);
  void set_option(std::string_view name, const std::vector<std::string>& set_values);
  // Enables an expansion by record name; throws std::invalid_argument for unknown ones and for one
  // already enabled (a list that names it twice).
  void add_expansion(std::string_view name);
  // Throws std::invalid_argument if the combination is not playable (player count, options of absent
  // expansions are allowed and ignored).
  void validate() const;

  // "players=3 expansions=river2,king_robber small_city=two_points shrine_sets=ckr+csc"; a name given
  // twice is an error.
  static Rules parse(std::string_view text);
  std::string to_string() const;
  std::string option_value(Option o) const;  // "two_points", "ckr+csc"

  bool operator==(const Rules&) const = default;

 private:
  static std::array<uint8_t, kNumOptions> default_options();
};

}  // namespace meeple
