// Rules: the typed option values the engine reads agree with the names records and users write.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "meeple/rules.h"

namespace meeple {
namespace {

// A switch's "on" is where kOnValue says, and every option with "on" among its values is a switch.
TEST(Rules, SwitchesAreOnExactlyWhereTheirValueIsOn) {
  for (int i = 0; i < kNumOptions; ++i) {
    const OptionSpec& spec = option_specs()[i];
    int on_index = kNotASwitch;
    for (size_t v = 0; v < spec.values.size(); ++v)
      if (std::strcmp(spec.values[v], "on") == 0) on_index = static_cast<int>(v);
    EXPECT_EQ(kOnValue[i], on_index) << spec.name;
    if (on_index == kNotASwitch) continue;
    for (size_t v = 0; v < spec.values.size(); ++v) {
      Rules r;
      r.set_option(spec.name, spec.values[v]);
      EXPECT_EQ(r.on(static_cast<Option>(i)), std::strcmp(spec.values[v], "on") == 0) << spec.name << "=" << spec.values[v];
    }
  }
}

// Each enum value names the value at its index.
TEST(Rules, EnumOptionsReadTheValueTheyName) {
  auto with = [](const char* name, const char* value) {
    Rules r;
    r.set_option(name, value);
    return r;
  };
  EXPECT_EQ(with("small_city", "normal").small_city(), SmallCity::kNormal);
  EXPECT_EQ(with("small_city", "two_points").small_city(), SmallCity::kTwoPoints);
  EXPECT_EQ(with("count_move", "free").count_move(), CountMove::kFree);
  EXPECT_EQ(with("count_move", "clockwise").count_move(), CountMove::kClockwise);
  EXPECT_EQ(with("count_move", "follow").count_move(), CountMove::kFollow);
  EXPECT_EQ(with("count_final_quarters", "any").count_final_quarters(), CountFinalQuarters::kAny);
  EXPECT_EQ(with("count_final_quarters", "market").count_final_quarters(), CountFinalQuarters::kMarket);
  EXPECT_EQ(with("shrine_house_rule", "off").shrine_house_rule(), ShrineHouseRule::kOff);
  EXPECT_EQ(with("shrine_house_rule", "winner_takes_both").shrine_house_rule(), ShrineHouseRule::kWinnerTakesBoth);
  // Defaults are the first value listed.
  const Rules defaults;
  EXPECT_EQ(defaults.small_city(), SmallCity::kNormal);
  EXPECT_EQ(defaults.count_move(), CountMove::kFree);
  EXPECT_EQ(defaults.count_final_quarters(), CountFinalQuarters::kAny);
  EXPECT_EQ(defaults.shrine_house_rule(), ShrineHouseRule::kOff);
  EXPECT_TRUE(defaults.on(Option::kPigHerd));
  EXPECT_FALSE(defaults.on(Option::kPigHerdBarn));
}

}  // namespace
}  // namespace meeple
