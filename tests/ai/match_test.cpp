// Match statistics shared by `meeple match` and the Python tournaments: the schedule of seats and tile
// orders, wins with ties shared, and the Wilson interval.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "meeple/ai/bots.h"
#include "meeple/ai/match.h"
#include "meeple/ai/player.h"

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


// A table with a caller's seat plays the same game as play_seated when the caller plays what the bot would
// have: the same loop, stepped.
TEST(Table, SteppedByTheCallerItPlaysTheGameOfPlaySeated) {
  Rules rules;
  rules.players = 3;
  rules.expansions = kAbbeyMayor | kCount;
  const uint64_t seed = 424242;
  auto make = [&](int p) { return make_player("greedy", seat_seed(seed, p)); };
  std::vector<std::unique_ptr<Player>> whole, stepped;
  for (int p = 0; p < 3; ++p) whole.push_back(make(p)), stepped.push_back(make(p));
  const std::vector<std::string> names = {"a", "b", "c"};
  std::string expected_record;
  const State expected = play_seated(rules, {whole[0].get(), whole[1].get(), whole[2].get()}, names, seed, &expected_record);

  // Seat 1 is the caller's; its bot is consulted by hand and told every action, as the table tells seats.
  Table table(rules, {stepped[0].get(), nullptr, stepped[2].get()}, names, seed);
  int decisions = 0, seen = 0;
  while (!table.state().is_terminal()) {
    table.advance(nullptr, {}, [&](const State&, Action a) {
      stepped[1]->observe(a);
      ++seen;
    });
    if (table.state().is_terminal()) break;
    ASSERT_EQ(table.state().current_player(), 1);
    const Action a = stepped[1]->choose(table.state());
    stepped[1]->observe(a);
    table.act(a);
    ++decisions;
  }
  EXPECT_GT(decisions, 10);
  EXPECT_GT(seen, decisions);
  EXPECT_TRUE(table.state() == expected);
  EXPECT_EQ(table.record_line(), expected_record);
}

TEST(Table, RefusesWhatIsNotTheCallersToDoAndChangesNothing) {
  Rules rules;
  auto bot = make_player("random", 1);
  Table table(rules, {nullptr, bot.get()}, {"you", "random"}, 7);
  EXPECT_THROW(table.act(Action::pass()), std::logic_error);  // a chance node: the table deals
  table.advance();
  ASSERT_EQ(table.state().current_player(), 0);
  const State before = table.state();
  try {
    table.act(Action::place(50, 50, 0));
    FAIL() << "an illegal placement was taken";
  } catch (const IllegalChoice& e) {
    EXPECT_NE(std::string(e.what()).find("you at seat 0 chose"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(B3)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(table.state() == before);
  EXPECT_THROW((void)table.record_line(), std::logic_error);  // not over yet
  EXPECT_THROW(Table(rules, {nullptr}, {"you"}, 1), std::invalid_argument);  // one seat for two players
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
