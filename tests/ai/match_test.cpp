// Match statistics shared by `meeple match` and the Python tournaments: the schedule of seats and tile
// orders, wins with ties shared, and the Wilson interval.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "meeple/ai/match.h"

namespace meeple {
namespace {

TEST(Schedule, GroupsTakeTurnsAndRotateTheirBotsOverOneTileOrder) {
  const std::vector<Seating> plan = schedule(3, 8, 2, 10);
  const std::vector<Seating> expected = {{{0, 1}, 10}, {{1, 0}, 10}, {{0, 2}, 11}, {{2, 0}, 11},
                                         {{1, 2}, 12}, {{2, 1}, 12}, {{0, 1}, 13}, {{1, 0}, 13}};
  EXPECT_EQ(plan, expected);
}

TEST(Schedule, EveryTileOrderIsPlayedFromEverySeatByEveryBotOfItsGroup) {
  const int bots = 5, players = 3;
  const std::vector<Seating> plan = schedule(bots, 10 * players, players, 1);  // the 10 groups of 3 out of 5
  std::map<uint64_t, std::vector<Seating>> by_seed;
  for (const Seating& s : plan) by_seed[s.seed].push_back(s);
  ASSERT_EQ(by_seed.size(), 10u);
  std::set<std::set<int>> groups;
  for (const auto& [seed, games] : by_seed) {
    ASSERT_EQ(games.size(), static_cast<size_t>(players));
    const std::set<int> group(games[0].seats.begin(), games[0].seats.end());
    EXPECT_EQ(group.size(), static_cast<size_t>(players));
    groups.insert(group);
    for (int p = 0; p < players; ++p) {
      std::set<int> at_seat;
      for (const Seating& s : games) at_seat.insert(s.seats[p]);
      EXPECT_EQ(at_seat, group) << "seed " << seed << " seat " << p;
    }
  }
  EXPECT_EQ(groups.size(), 10u);
  // A longer match repeats the same games: game g does not depend on the number of games.
  const std::vector<Seating> longer = schedule(bots, 100, players, 1);
  EXPECT_TRUE(std::equal(plan.begin(), plan.end(), longer.begin()));
}

TEST(Schedule, RefusesMatchesItCannotSeat) {
  EXPECT_THROW(schedule(1, 4, 2, 1), std::invalid_argument);
  EXPECT_THROW(schedule(3, 4, 1, 1), std::invalid_argument);
  EXPECT_THROW(schedule(8, 4, kMaxPlayers + 1, 1), std::invalid_argument);
  try {
    schedule(2, 4, 3, 1);
    FAIL() << "3 seats for 2 bots";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("repeat a bot"), std::string::npos) << e.what();
  }
}

TEST(WinUnits, TiedLeadersShareTheWinExactly) {
  EXPECT_EQ(win_units({30, 20}, 2), (std::array<int64_t, kMaxPlayers>{kWinUnits, 0}));
  EXPECT_EQ(win_units({7, 9, 9, 9}, 4), (std::array<int64_t, kMaxPlayers>{0, 20, 20, 20}));
  EXPECT_EQ(win_units({5, 5, 5, 5, 5, 5}, 6), (std::array<int64_t, kMaxPlayers>{10, 10, 10, 10, 10, 10}));
  EXPECT_EQ(win_units({0, 0, 3, 0, 3}, 5), (std::array<int64_t, kMaxPlayers>{0, 0, 30, 0, 30}));
}

TEST(Wilson, MatchesTheClosedFormAndStaysInsideZeroOne) {
  // 5 of 10 at 95%: 0.5 -+ 0.2634 (hand computed from the formula).
  const Interval half = wilson(5, 10);
  EXPECT_NEAR(half.lo, 0.2366, 1e-4);
  EXPECT_NEAR(half.hi, 0.7634, 1e-4);
  const Interval none = wilson(0, 20);
  EXPECT_NEAR(none.lo, 0.0, 1e-12);
  EXPECT_NEAR(none.hi, 0.1611, 1e-4);
  const Interval all = wilson(20, 20);
  EXPECT_NEAR(all.lo, 0.8389, 1e-4);
  EXPECT_NEAR(all.hi, 1.0, 1e-12);
  const Interval unknown = wilson(0, 0);
  EXPECT_EQ(unknown.lo, 0.0);
  EXPECT_EQ(unknown.hi, 1.0);
  EXPECT_LT(wilson(50, 100).hi - wilson(50, 100).lo, half.hi - half.lo);  // more games, narrower
}

}  // namespace
// Rows in the order given whatever game finishes first; ties shared; margins over the best other seat.
TEST(Standings, SharedWinsMarginsAndOrder) {
  Standings st({"b", "a", "b"});
  st.add({"a", "b", "c"}, {10, 10, 4});  // a and b tie: half a win each; c: margin -6
  st.add({"c", "a", "b"}, {12, 3, 9});   // c wins by 3
  ASSERT_EQ(st.games(), 2);
  const auto rows = st.rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].bot, "b");
  EXPECT_EQ(rows[1].bot, "a");
  EXPECT_EQ(rows[2].bot, "c");
  EXPECT_DOUBLE_EQ(rows[0].wins, 0.5);
  EXPECT_DOUBLE_EQ(rows[1].wins, 0.5);
  EXPECT_DOUBLE_EQ(rows[2].wins, 1.0);
  EXPECT_DOUBLE_EQ(rows[0].mean_score, 9.5);
  EXPECT_DOUBLE_EQ(rows[0].mean_margin, (0 + (9 - 12)) / 2.0);
  EXPECT_DOUBLE_EQ(rows[2].mean_margin, (-6 + 3) / 2.0);
  EXPECT_DOUBLE_EQ(rows[2].win_rate(), 0.5);
  EXPECT_NEAR(rows[2].win_rate_interval.lo, wilson(1, 2).lo, 1e-12);
  const std::string table = st.table();
  EXPECT_NE(table.find("bot"), std::string::npos);
  ASSERT_NE(table.find("\na "), std::string::npos) << table;
  EXPECT_LT(table.find("\nb "), table.find("\na "));
  EXPECT_THROW(st.add({"a"}, {1, 2}), std::invalid_argument);
  EXPECT_EQ(st.games(), 2);  // a refused game leaves the standings as they were
}

}  // namespace meeple
