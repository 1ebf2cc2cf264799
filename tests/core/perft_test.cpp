// Move generation: frozen perft counts, and the fast frontier generator compared with a slow, obviously
// correct one at every placement of many random games.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "meeple/ai/player.h"
#include "meeple/perft.h"
#include "meeple/random.h"
#include "../support/naive_generator.h"

namespace meeple {
namespace {

using testing::naive_placements;

TEST(MoveGeneration, FastGeneratorEqualsNaiveOneInRandomGames) {
  int placements_checked = 0, abbey_checks = 0;
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kKingRobber}, uint8_t{kCultPlaces | kKingRobber},
                              uint8_t{kCount | kRiver2 | kCultPlaces}, uint8_t{kAbbeyMayor | kCultPlaces}}) {
    for (int g = 0; g < 60; ++g) {
      Rules rules;
      rules.players = static_cast<uint8_t>(2 + g % 5);
      rules.expansions = expansions;
      Dealer dealer(static_cast<uint64_t>(g) + 17);
      RandomPlayer bot(static_cast<uint64_t>(g) + 99);
      State s(rules);
      while (!s.is_terminal()) {
        if (s.is_chance()) {
          const Action draw = dealer.deal(s);
          // Check the draw itself: a tile the naive generator cannot place must be discarded.
          const auto naive = naive_placements(s, draw.tile());
          State next = s;
          next.apply(draw);
          ASSERT_EQ(naive.empty(), next.is_chance() && next.discarded() == s.discarded() + 1);
          s = next;
          continue;
        }
        if (s.phase() == Phase::kTurnStart || s.phase() == Phase::kAbbeyRound) {
          // Abbey squares (A1): every empty cell with four neighbours, and S2 with cult places.
          const TileType& abbey = TileCatalog::get()[TileCatalog::get().find("AM.A")];
          std::set<std::pair<int, int>> naive, fast;
          for (int i = 0; i < s.num_tiles(); ++i)
            for (auto [dx, dy] : {std::pair{0, -1}, {1, 0}, {0, 1}, {-1, 0}}) {
              const int x = s.tile(i).x + dx, y = s.tile(i).y + dy;
              if (s.tile_at(x, y) >= 0 || s.tile_at(x, y - 1) < 0 || s.tile_at(x + 1, y) < 0 || s.tile_at(x, y + 1) < 0 ||
                  s.tile_at(x - 1, y) < 0)
                continue;
              if (s.rules().has(kCultPlaces) && !testing::naive_shrine_rule_ok(s, abbey, x, y)) continue;
              naive.emplace(x, y);
            }
          ActionList list;
          s.legal_actions(list);
          for (Action a : list)
            if (a.kind() == Action::kAbbey) fast.emplace(a.x(), a.y());
          ASSERT_EQ(fast, naive);
          ++abbey_checks;
        }
        if (s.phase() == Phase::kPlace) {
          ActionList fast;
          s.legal_actions(fast);
          std::set<std::tuple<int, int, int>> fast_set, naive_canonical;
          for (Action a : fast) fast_set.emplace(a.x(), a.y(), a.rotation());
          const TileType& tt = TileCatalog::get()[s.drawn_tile()];
          for (auto [x, y, r] : naive_placements(s, s.drawn_tile())) {
            naive_canonical.emplace(x, y, tt.rot[r].canonical);
            ASSERT_TRUE(s.is_legal(Action::place(x, y, r))) << "a symmetric rotation must be accepted too";
          }
          ASSERT_EQ(fast_set, naive_canonical) << "tile " << tt.id;
          ++placements_checked;
        }
        s.apply(bot.choose(s));
      }
    }
  }
  EXPECT_GT(placements_checked, 20000);
  EXPECT_GT(abbey_checks, 100);
}

// Counts frozen from this engine after the cross-check above; a change flags a change of behaviour.
TEST(Perft, FrozenCountsBaseGame) {
  Rules rules;
  const State root(rules);
  const auto order = seeded_draw_order(root, 1);
  EXPECT_EQ(perft(root, order, 7), (std::vector<uint64_t>{3, 12, 68, 320, 1448, 4989, 22527}));
}

TEST(Perft, FrozenCountsRiverKingRobber) {
  Rules rules;
  rules.expansions = kRiver2 | kKingRobber;
  rules.players = 3;
  const State root(rules);
  const auto order = seeded_draw_order(root, 7);
  ASSERT_EQ(TileCatalog::get()[order[0]].id, "RI2.III");  // the fork first
  EXPECT_EQ(perft(root, order, 8), (std::vector<uint64_t>{3, 12, 24, 126, 420, 1844, 4416, 14440}));
}

TEST(Perft, DrawOrderRespectsPiles) {
  Rules rules;
  rules.expansions = kRiver2;
  const State root(rules);
  const auto order = seeded_draw_order(root, 3);
  ASSERT_EQ(static_cast<int>(order.size()), root.tiles_left());
  EXPECT_EQ(TileCatalog::get()[order[0]].id, "RI2.III");
  EXPECT_EQ(TileCatalog::get()[order[10]].id, "RI2.lakeV");
  for (int i = 1; i < 10; ++i) EXPECT_EQ(State::draw_pile(order[i]), 2);
  for (size_t i = 11; i < order.size(); ++i) EXPECT_EQ(State::draw_pile(order[i]), 0);
}

}  // namespace
}  // namespace meeple
