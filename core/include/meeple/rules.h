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

// The options, by the name code reads them with. Each has its row in kOptionSpecs below, in this order
// (checked when compiling): adding an option is an enumerator here and its row there, nothing else.
enum class Option : uint8_t {
  kSmallCity, kCountMove, kCountBlocksEntry, kCountRedeployEmpty, kCountFinalQuarters, kChallengeOwn,
  kShrineHouseRule, kAbbeyEndRound, kVolcanoNoFollower, kPigHerd, kPigHerdBarn, kShrineSets,
};

// An option's values, as records and Rules::parse spell them; the first is the default.
class OptionValues {
 public:
  template <typename... Names>
  constexpr OptionValues(Names... names) : names_{names...}, size_(sizeof...(Names)) {  // NOLINT: a list
    static_assert(sizeof...(Names) >= 1 && sizeof...(Names) <= kMaxValues, "an option has 1 to kMaxValues values");
  }
  static constexpr size_t kMaxValues = 4;  // raise it for an option with more values
  constexpr size_t size() const { return size_; }
  constexpr const char* operator[](size_t i) const { return names_[i]; }
  constexpr const char* const* begin() const { return names_.data(); }
  constexpr const char* const* end() const { return names_.data() + size_; }

 private:
  std::array<const char*, kMaxValues> names_{};
  size_t size_;
};

struct OptionSpec {
  Option option;
  const char* name;
  OptionValues values;  // the first one is the default (for a set option: its one member)
  bool is_set;          // a subset of the values (shrine_sets), stored as a bit mask
  uint8_t expansion;    // the expansion the option belongs to; 0 for the base game
  const char* note;
};

// The one table of options: names, values, defaults and help come from it.
inline constexpr auto kOptionSpecs = std::to_array<OptionSpec>({
    {Option::kSmallCity, "small_city", {"normal", "two_points"}, false, 0,
     "legacy rule: a completed 2-tile city scores 1 per tile and pennant"},
    {Option::kCountMove, "count_move", {"free", "clockwise", "follow"}, false, kCount,
     "where the Count goes when a player deploys (C4)"},
    {Option::kCountBlocksEntry, "count_blocks_entry", {"off", "on"}, false, kCount, "no deploy into the Count's quarter"},
    {Option::kCountRedeployEmpty, "count_redeploy_empty", {"on", "off"}, false, kCount,
     "redeploy into unoccupied completed features (C6)"},
    {Option::kCountFinalQuarters, "count_final_quarters", {"any", "market"}, false, kCount,
     "quarters that may redeploy at the end (C9)"},
    {Option::kChallengeOwn, "challenge_own", {"on", "off"}, false, kCultPlaces, "challenging your own follower (S3)"},
    {Option::kShrineHouseRule, "shrine_house_rule", {"off", "winner_takes_both"}, false, kCultPlaces,
     "house rule: the challenge's winner also scores the loser's building as incomplete"},
    {Option::kAbbeyEndRound, "abbey_end_round", {"on", "off"}, false, kAbbeyMayor, "abbey round after the last tile (A4)"},
    {Option::kVolcanoNoFollower, "volcano_no_follower", {"on", "off"}, false, kRiver2,
     "no follower on the volcano tile (R7)"},
    {Option::kPigHerd, "pig_herd", {"on", "off"}, false, kRiver2, "a farm with the pig herd scores 4 per city (R8)"},
    {Option::kPigHerdBarn, "pig_herd_barn", {"off", "on"}, false, kAbbeyMayor,
     "the pig herd also adds 1 per city for barns (R8)"},
    {Option::kShrineSets, "shrine_sets", {"ckr", "csc", "spielbox"}, true, kCultPlaces,
     "which shrine tile sets are shuffled in (S5)"},
});
inline constexpr int kNumOptions = static_cast<int>(kOptionSpecs.size());
static_assert([] {
  for (int i = 0; i < kNumOptions; ++i)
    if (static_cast<int>(kOptionSpecs[i].option) != i) return false;
  return true;
}(), "kOptionSpecs: one row per Option, in the enum's order");
inline constexpr const std::array<OptionSpec, kNumOptions>& option_specs() { return kOptionSpecs; }

// Option values as the engine reads them: a switch is on or off, the others are enums whose values are
// the indices into OptionSpec::values (tests/core/rules_test.cpp checks the enums against the table).
// Reading one is a load and a compare, never a string compare.
enum class SmallCity : uint8_t { kNormal, kTwoPoints };
enum class CountMove : uint8_t { kFree, kClockwise, kFollow };
enum class CountFinalQuarters : uint8_t { kAny, kMarket };
enum class ShrineHouseRule : uint8_t { kOff, kWinnerTakesBoth };
// For each option, the index of "on" among its values (a switch), or kNotASwitch.
inline constexpr uint8_t kNotASwitch = 0xFF;
inline constexpr std::array<uint8_t, kNumOptions> kOnValue = [] {
  std::array<uint8_t, kNumOptions> on{};
  for (int i = 0; i < kNumOptions; ++i) {
    on[i] = kNotASwitch;
    for (size_t v = 0; v < kOptionSpecs[i].values.size(); ++v)
      if (std::string_view(kOptionSpecs[i].values[v]) == "on") on[i] = static_cast<uint8_t>(v);
  }
  return on;
}();

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
