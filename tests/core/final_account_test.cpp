// State::final_account: the account of final scoring (B11), feature by feature, as final scoring itself
// pays it. Two positions built by hand with every number worked out from core/data/tiles.txt and docs/rules.md,
// then random games of every expansion set and player count, whose accounts must add up to the final scores.
#include <algorithm>
#include <set>
#include <string>

#include "meeple/ai/player.h"
#include "scenario.h"

namespace meeple::testing {
namespace {

using Cell = std::array<int, 2>;
using nlohmann::json;

Action deploy_action(const State& s, const std::string& at) {
  return action_from_json(s, json{{"deploy", {{"figure", "follower"}, {"at", at}}}});
}

std::set<Cell> cell_set(const ScoredFeature& e) { return {e.cells.begin(), e.cells.end()}; }

std::array<int, kMaxPlayers> points_of(std::initializer_list<int> seats) {
  std::array<int, kMaxPlayers> out{};
  std::copy(seats.begin(), seats.end(), out.begin());
  return out;
}

// The B11 position (rules_base_test): seat 0's thief on start + BA.RFr (1,0), seat 1's knight on start +
// BA.CFc+ (0,-1) (2 tiles + 1 pennant), and the last action, seat 0's monk on BA.L (0,1) with neighbours
// (0,0) and (1,0). The account: the road 2 to seat 0, the cloister 3 to seat 0, the city 3 to seat 1.
TEST(FinalAccount, IncompleteCityRoadAndCloister) {
  Scenario sc(rules_with(2), {{"BA.RFr", 1}, {"BA.CFc+", 1}, {"BA.L", 1}});
  sc.turn("BA.RFr", 1, 0, 0, "W");
  sc.turn("BA.CFc+", 0, -1, 90, "N");
  sc.draw("BA.L");
  sc.place(0, 1, 0);
  const Action last = deploy_action(sc.state, "C");
  const std::optional<FinalAccount> account = sc.state.final_account(last);
  ASSERT_TRUE(account.has_value());
  EXPECT_EQ(account->before[0], (std::array<int, kNumCategories>{}));
  EXPECT_EQ(account->before[1], (std::array<int, kNumCategories>{}));
  ASSERT_EQ(account->features.size(), 3u);
  // Seat 0's figures first (thief, then monk), then seat 1's; each feature's cells start at its figure.
  const ScoredFeature& road = account->features[0];
  EXPECT_EQ(road.what, ScoredFeature::kRoad);
  EXPECT_EQ(road.category, kRoadPoints);
  EXPECT_EQ(road.cells.front(), (Cell{1, 0}));
  EXPECT_EQ(cell_set(road), (std::set<Cell>{{0, 0}, {1, 0}}));
  EXPECT_EQ(road.paid, 0b01);
  EXPECT_EQ(road.points, points_of({2, 0}));
  const ScoredFeature& cloister = account->features[1];
  EXPECT_EQ(cloister.what, ScoredFeature::kCloister);
  EXPECT_EQ(cloister.category, kCloisterPoints);
  EXPECT_EQ(cloister.cells, (std::vector<Cell>{{0, 1}}));
  EXPECT_EQ(cloister.points, points_of({3, 0}));
  const ScoredFeature& city = account->features[2];
  EXPECT_EQ(city.what, ScoredFeature::kCity);
  EXPECT_EQ(city.category, kCityPoints);
  EXPECT_EQ(city.cells.front(), (Cell{0, -1}));
  EXPECT_EQ(cell_set(city), (std::set<Cell>{{0, -1}, {0, 0}}));
  EXPECT_EQ(city.pennants, 1);
  EXPECT_EQ(city.paid, 0b10);
  EXPECT_EQ(city.points, points_of({0, 3}));
  EXPECT_STREQ(to_string(city.what), "city");

  // Asking changed nothing; applying the action scores as the account says.
  const State before = sc.state;
  sc.apply(json{{"deploy", {{"figure", "follower"}, {"at", "C"}}}});
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {5, 3}));
  // Placing no monk ends the game as well, without the cloister.
  const std::optional<FinalAccount> without = before.final_account(Action::pass());
  ASSERT_TRUE(without.has_value());
  ASSERT_EQ(without->features.size(), 2u);
  EXPECT_EQ(without->features[0].what, ScoredFeature::kRoad);
  EXPECT_EQ(without->features[1].what, ScoredFeature::kCity);
}

// K3's board (rules_river_kr_test) with monks and farmers:
//
//  y\x  -1    0     1
//  -2               C(B)        city B: (1,-1)+(1,-2), completed by seat 1 with seat 1's farmer north of it
//  -1         C(A)  C(B)        city A: start + (0,-1), completed by seat 0's knight: 4, and the King
//   0   LR - start - LR         road 1: 3 tiles, completed by seat 1's thief: 3, and the Robber
//   1         LR                road 2: (0,1)+(0,2), completed by seat 0
//   2         LR
//
// Seat 0: a farmer on (1,-1) in the farm of every tile but (1,-2), touching cities A and B (6), monks on
// (0,1) (4 tiles around: 5) and, the last action, on (0,2) (1 around: 2); the King: 2 completed cities.
// Seat 1: a monk on (-1,0) (3 around: 4), a farmer on (1,-2) touching city B (3); the Robber: 2 roads.
// Before final scoring 4 and 3; final 4 + 6 + 5 + 2 + 2 = 19 and 3 + 4 + 3 + 2 = 12.
TEST(FinalAccount, FarmsCloistersKingAndRobber) {
  Scenario sc(rules_with(2, kKingRobber), {{"BA.C", 3}, {"BA.LR", 4}});
  sc.turn("BA.C", 0, -1, 180, "S");    // seat 0: city A scores 4, the King
  sc.turn("BA.LR", -1, 0, 270, "C");   // seat 1: monk
  sc.turn("BA.C", 1, -1, 0, "SL");     // seat 0: farmer
  sc.turn("BA.LR", 1, 0, 90, "W");     // seat 1: road 1 scores 3, the Robber
  sc.turn("BA.LR", 0, 1, 0, "C");      // seat 0: monk
  sc.turn("BA.C", 1, -2, 180, "NL");   // seat 1: farmer; city B completed, nobody in it
  sc.draw("BA.LR");
  sc.place(0, 2, 180);                 // seat 0: road 2 completed, nobody on it
  const std::optional<FinalAccount> account = sc.state.final_account(deploy_action(sc.state, "C"));
  ASSERT_TRUE(account.has_value());
  EXPECT_EQ(account->before[0], (std::array<int, kNumCategories>{4, 0, 0, 0, 0}));
  EXPECT_EQ(account->before[1], (std::array<int, kNumCategories>{0, 3, 0, 0, 0}));
  const std::vector<ScoredFeature>& f = account->features;
  ASSERT_EQ(f.size(), 7u);
  // Seat 0's figures by slot (the farmer took the knight's slot 0), seat 1's, then the King and the Robber.
  EXPECT_EQ(f[0].what, ScoredFeature::kFarm);
  EXPECT_EQ(f[0].category, kFieldPoints);
  EXPECT_EQ(f[0].cells.front(), (Cell{1, -1}));
  EXPECT_EQ(cell_set(f[0]), (std::set<Cell>{{0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {0, 1}, {0, 2}}));
  EXPECT_EQ(f[0].completed, 2);
  EXPECT_EQ(f[0].points, points_of({6, 0}));
  EXPECT_EQ(f[1].what, ScoredFeature::kCloister);
  EXPECT_EQ(f[1].cells, (std::vector<Cell>{{0, 1}}));
  EXPECT_EQ(f[1].points, points_of({5, 0}));
  EXPECT_EQ(f[2].what, ScoredFeature::kCloister);
  EXPECT_EQ(f[2].cells, (std::vector<Cell>{{0, 2}}));
  EXPECT_EQ(f[2].points, points_of({2, 0}));
  EXPECT_EQ(f[3].what, ScoredFeature::kCloister);
  EXPECT_EQ(f[3].cells, (std::vector<Cell>{{-1, 0}}));
  EXPECT_EQ(f[3].paid, 0b10);
  EXPECT_EQ(f[3].points, points_of({0, 4}));
  EXPECT_EQ(f[4].what, ScoredFeature::kFarm);
  EXPECT_EQ(f[4].cells, (std::vector<Cell>{{1, -2}}));
  EXPECT_EQ(f[4].completed, 1);
  EXPECT_EQ(f[4].points, points_of({0, 3}));
  EXPECT_EQ(f[5].what, ScoredFeature::kKing);
  EXPECT_EQ(f[5].category, kBonusPoints);
  EXPECT_TRUE(f[5].cells.empty());
  EXPECT_EQ(f[5].completed, 2);
  EXPECT_EQ(f[5].points, points_of({2, 0}));
  EXPECT_EQ(f[6].what, ScoredFeature::kRobber);
  EXPECT_EQ(f[6].category, kBonusPoints);
  EXPECT_EQ(f[6].completed, 2);
  EXPECT_EQ(f[6].points, points_of({0, 2}));

  sc.deploy("C");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_TRUE(scores_are(sc, {19, 12}));
}

// Only the action that ends the game has an account; an illegal one is refused with the rules' message.
TEST(FinalAccount, NoneBeforeTheEndAndIllegalActionsRefused) {
  Scenario sc(rules_with(2), {{"BA.C", 2}});
  EXPECT_FALSE(sc.state.final_account(Action::draw(TileCatalog::get().find("BA.C"))).has_value());
  sc.turn("BA.C", 0, -1, 180, "NL");
  sc.draw("BA.C");
  EXPECT_FALSE(sc.state.final_account(action_from_json(sc.state, json{{"place", {0, -2, 0}}})).has_value())
      << "the deploy decision comes after the placement";
  EXPECT_THROW((void)sc.state.final_account(Action::place(40, 40, 0)), std::invalid_argument);
  sc.place(0, -2, 0);
  EXPECT_THROW((void)sc.state.final_account(Action::deploy(Figure::kFollower, 9)), std::invalid_argument);
  ASSERT_TRUE(sc.state.final_account(Action::pass()).has_value());
  sc.deploy("");
  ASSERT_TRUE(sc.state.is_terminal());
  EXPECT_THROW((void)sc.state.final_account(Action::pass()), std::invalid_argument) << "the game is over";
}

// Every expansion set (the 32 combinations), 2 to 6 players, random games: the account of the last action
// adds up, seat by seat and category by category, to the final scores; each entry is what its rule pays.
class FinalAccountRandom : public ::testing::TestWithParam<std::tuple<int, int>> {};

uint8_t expansion_set(int combination) {
  uint8_t e = 0;
  const Expansion each[] = {kRiver2, kKingRobber, kCultPlaces, kCount, kAbbeyMayor};
  for (int i = 0; i < 5; ++i)
    if (combination & (1 << i)) e |= each[i];
  return e;
}

void check_entry(const ScoredFeature& e, const State& final_state, int players) {
  SCOPED_TRACE(std::string("a ") + to_string(e.what) + " entry");
  ASSERT_NE(e.paid, 0);
  ASSERT_EQ(e.paid >> players, 0) << "a seat that is not playing was paid";
  int amount = -1;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (!(e.paid >> p & 1)) {
      ASSERT_EQ(e.points[p], 0);
      continue;
    }
    ASSERT_TRUE(amount < 0 || amount == e.points[p]) << "seats sharing a majority get the same points";
    amount = e.points[p];
  }
  ASSERT_EQ(cell_set(e).size(), e.cells.size()) << "a tile listed twice";
  for (const Cell& c : e.cells) ASSERT_GE(final_state.tile_at(c[0], c[1]), 0) << "no tile at " << c[0] << "," << c[1];
  const int tiles = static_cast<int>(e.cells.size());
  if (e.what != ScoredFeature::kCity) {
    EXPECT_EQ(e.pennants, 0);
  }
  switch (e.what) {
    case ScoredFeature::kCity:
      EXPECT_EQ(e.category, kCityPoints);
      EXPECT_EQ(amount, tiles + e.pennants);
      break;
    case ScoredFeature::kRoad:
      EXPECT_EQ(e.category, kRoadPoints);
      EXPECT_EQ(amount, tiles);
      break;
    case ScoredFeature::kCloister:
    case ScoredFeature::kShrine:
      EXPECT_EQ(e.category, kCloisterPoints);
      EXPECT_EQ(tiles, 1);
      EXPECT_TRUE(amount >= 1 && amount <= 9) << amount;
      break;
    case ScoredFeature::kFarm:
      EXPECT_EQ(e.category, kFieldPoints);
      EXPECT_TRUE(amount == 3 * e.completed || amount == 4 * e.completed) << amount << " for " << e.completed << " cities";
      break;
    case ScoredFeature::kBarn:
      EXPECT_EQ(e.category, kBonusPoints);
      EXPECT_EQ(__builtin_popcount(e.paid), 1);
      EXPECT_TRUE(amount == 4 * e.completed || amount == 5 * e.completed) << amount << " for " << e.completed << " cities";
      break;
    case ScoredFeature::kKing:
    case ScoredFeature::kRobber:
      EXPECT_EQ(e.category, kBonusPoints);
      EXPECT_EQ(__builtin_popcount(e.paid), 1);
      EXPECT_TRUE(e.cells.empty());
      EXPECT_EQ(amount, e.completed);
      break;
  }
  if (e.what != ScoredFeature::kKing && e.what != ScoredFeature::kRobber) {
    EXPECT_GE(tiles, 1);
  }
}

TEST_P(FinalAccountRandom, AddsUpToTheFinalScores) {
  const auto [players, combination] = GetParam();
  const Rules rules = rules_with(players, expansion_set(combination));
  int with_bonus = 0;
  for (int g = 0; g < 20; ++g) {
    SCOPED_TRACE("game " + std::to_string(g));
    const uint64_t seed = 7777ull * static_cast<uint64_t>(combination) + 101ull * static_cast<uint64_t>(players) + static_cast<uint64_t>(g);
    Dealer dealer(seed);
    RandomPlayer bot(seed);
    State s(rules);
    for (;;) {
      const Action a = s.is_chance() ? dealer.deal(s) : bot.choose(s);
      const std::optional<FinalAccount> account = s.final_account(a);
      const State before_last = s;
      s.apply(a);
      ASSERT_EQ(account.has_value(), s.is_terminal()) << a.to_string();
      if (!account) continue;
      std::array<std::array<int, kNumCategories>, kMaxPlayers> sum = account->before;
      for (const ScoredFeature& e : account->features) {
        check_entry(e, s, players);
        if (::testing::Test::HasFatalFailure()) return;
        for (int p = 0; p < players; ++p) sum[p][e.category] += e.points[p];
        with_bonus += e.category == kBonusPoints;
      }
      for (int p = 0; p < players; ++p)
        for (int c = 0; c < kNumCategories; ++c)
          ASSERT_EQ(sum[p][c], s.score(p, c)) << "seat " << p << ", " << category_name(c) << " points";
      // A last action that leaves the board as it is (the Count's final pass, declining the abbey): final
      // scoring starts from the scores before it, and pays what "if the game ended now" said.
      if (a.kind() == Action::kPass && (before_last.phase() == Phase::kFinalRedeploy || before_last.phase() == Phase::kAbbeyRound)) {
        const auto if_ended = before_last.final_scores_if_ended_now();
        for (int p = 0; p < players; ++p) {
          EXPECT_EQ(if_ended[p], s.score(p));
          for (int c = 0; c < kNumCategories; ++c) EXPECT_EQ(account->before[p][c], before_last.score(p, c));
        }
      }
      break;
    }
  }
  if (rules.has(kKingRobber)) {
    EXPECT_GT(with_bonus, 0) << "no bonus entry in any game";
  }
}

INSTANTIATE_TEST_SUITE_P(AllSets, FinalAccountRandom, ::testing::Combine(::testing::Range(2, 7), ::testing::Range(0, 32)),
                         [](const auto& info) {
                           return std::to_string(std::get<0>(info.param)) + "p_set" + std::to_string(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace meeple::testing
