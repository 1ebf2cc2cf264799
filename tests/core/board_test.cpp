// The board's cell table: a cell's home slot is its position on a 32 x 32 torus, so boards wider than 32
// cells put several cells on one home slot and lookups probe on. A line of 71 straight roads is that
// case many times over: every tile and frontier cell must still be found, and the road is one feature.
// A feature's members (for_each_member) are exactly the nodes with its root.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "scenario.h"

namespace meeple {
namespace {

using testing::Scenario;

TEST(Board, AWideLineOfTilesKeepsEveryCellApart) {
  Scenario sc(testing::rules_with(2), {{"BA.RFr", 71}});
  for (int i = 1; i <= 35; ++i) {  // the start tile's road runs west-east: extend it both ways
    sc.turn("BA.RFr", i, 0, 0);
    sc.turn("BA.RFr", -i, 0, 0);
  }
  const State& s = sc.state;
  ASSERT_EQ(s.num_tiles(), 71);
  EXPECT_EQ(s.check_consistency(), "");
  for (int x = -35; x <= 35; ++x) {
    const int idx = s.tile_at(x, 0);
    ASSERT_GE(idx, 0) << "no tile found at (" << x << ", 0)";
    EXPECT_EQ(s.tile(idx).x, x);
    EXPECT_EQ(s.tile_at(x, 1), -1);
    EXPECT_EQ(s.tile_at(x, -1), -1);
    EXPECT_GE(s.frontier_index(cell_key(x, 1)), 0) << "(" << x << ", 1) is next to the board";
    EXPECT_GE(s.frontier_index(cell_key(x, -1)), 0) << "(" << x << ", -1) is next to the board";
  }
  EXPECT_EQ(s.tile_at(36, 0), -1);
  EXPECT_EQ(s.tile_at(-36, 0), -1);
  EXPECT_EQ(s.frontier_size(), 2 * 71 + 2);  // above and below every tile, and both ends
  EXPECT_EQ(State::from_bytes(s.to_bytes()), s);  // checked on the way in, lookups included

  // One road of 71 tiles, open at both ends.
  const FeatureInfo road = s.feature(testing::edge_node(s, 0, 0, "E"));
  EXPECT_TRUE(s.connected(testing::edge_node(s, -35, 0, "W"), testing::edge_node(s, 35, 0, "E")));
  EXPECT_EQ(road.tiles, 71);
  EXPECT_EQ(road.open_edges, 2);

  // The last straight road fits at both ends and above or below any tile (fields meet fields), except
  // above the start tile, whose north side is a city.
  Scenario next = sc;
  next.draw("BA.RFr");
  ActionList list;
  next.state.legal_actions(list);
  EXPECT_EQ(list.size, 2 * 71 + 2 - 1);
  EXPECT_FALSE(list.contains(Action::place(cell_key(0, -1), 0)));
  next.place(3, -1, 0);  // a collision-prone cell: (3 + 32, -1) and (3 - 32, -1) share its home slot
  EXPECT_EQ(next.state.tile_at(3, -1), 71);
  EXPECT_EQ(next.state.tile_at(35, -1), -1);
  EXPECT_EQ(next.state.check_consistency(), "");
}

// Random games never get wider than 30 tiles, so these are stretched: every placement goes to the
// easternmost legal cell (ties at random). Every position of them must survive the from-scratch checks.
TEST(Board, GamesStretchedEastStayConsistent) {
  for (const auto& [expansions, players] : {std::pair{0, 2}, std::pair{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor, 3}}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      Dealer dealer(seed);
      Rng rng(seed);
      State s(testing::rules_with(players, static_cast<uint8_t>(expansions)));
      ActionList list;
      int min_x = 0, max_x = 0;
      while (!s.is_terminal()) {
        if (s.is_chance()) {
          s.apply(dealer.deal(s));
        } else if (s.phase() == Phase::kPlace) {
          s.legal_actions(list);
          ASSERT_TRUE(std::is_sorted(list.begin(), list.end()));
          int east = -1000, ties = 0;
          Action pick = Action::none();
          for (const Action& a : list) {
            if (a.x() > east) east = a.x(), ties = 0;
            if (a.x() == east && rng.below(static_cast<uint32_t>(++ties)) == 0) pick = a;
          }
          min_x = std::min(min_x, pick.x()), max_x = std::max(max_x, pick.x());
          s.apply(pick);
        } else {
          s.apply(s.sample_legal_action(rng));
        }
        ASSERT_EQ(s.check_consistency(), "") << "seed " << seed << ", expansions " << expansions;
      }
      EXPECT_GT(max_x - min_x, 29) << "the game stayed narrow (State::kNarrowSpan), so it tested nothing new";
    }
  }
}

// After every placement of random games, base and with every expansion: the walk from a node (every
// third, the walks are long) visits exactly the segment nodes whose root is its feature's, each once,
// the node asked first.
TEST(Board, MembersOfAFeatureAreTheNodesWithItsRoot) {
  const TileCatalog& cat = TileCatalog::get();
  int walks = 0;
  for (const auto& [expansions, players] : {std::pair{0, 2}, std::pair{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor, 4}}) {
    for (uint64_t seed = 1; seed <= 4; ++seed) {
      Dealer dealer(seed);
      Rng rng(seed);
      State s(testing::rules_with(players, static_cast<uint8_t>(expansions)));
      while (!s.is_terminal()) {
        s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
        if (s.phase() != Phase::kDeploy) continue;  // after each placement
        std::vector<int> root_of;  // by node
        for (int t = 0; t < s.num_tiles(); ++t)
          for (int seg = 0; seg < cat[s.tile(t).type].num_segments; ++seg) {
            ASSERT_EQ(s.node(t, seg), static_cast<int>(root_of.size()));  // nodes are numbered in placement order
            root_of.push_back(s.feature_root(s.node(t, seg)));
          }
        for (int n = 0; n < static_cast<int>(root_of.size()); n += 3) {
          std::vector<int> members;
          s.for_each_member(n, [&](int m) {
            members.push_back(m);
            if (members.size() > root_of.size()) throw std::runtime_error("the walk does not come back to its start");
          });
          ASSERT_EQ(members.front(), n);
          std::vector<int> expected;
          for (int m = 0; m < static_cast<int>(root_of.size()); ++m)
            if (root_of[m] == root_of[n]) expected.push_back(m);
          std::sort(members.begin(), members.end());
          ASSERT_EQ(members, expected) << "node " << n << ", seed " << seed << ", expansions " << expansions;
          ++walks;
        }
      }
    }
  }
  EXPECT_GT(walks, 10000);
}

}  // namespace
}  // namespace meeple
