// Move generation: frozen perft counts, and the fast frontier generator compared with a slow, obviously
// correct one at every placement of many random games.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "meeple/ai/player.h"
#include "meeple/perft.h"
#include "meeple/random.h"

namespace meeple {
namespace {

uint16_t edge_kind(const PlacedTile& t, int edge) {
  return (TileCatalog::get()[t.type].rot[t.rotation].edge_word >> (4 * edge)) & 0xF;
}

// Every empty cell next to any tile, every rotation, every edge compared with its neighbour; the river
// rules checked directly from the definitions of R3-R5.
std::set<std::tuple<int, int, int>> naive_placements(const State& s, int tile) {
  constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  const TileType& tt = TileCatalog::get()[tile];
  const uint16_t river = static_cast<uint16_t>(EdgeKind::kRiver), any = static_cast<uint16_t>(EdgeKind::kAbbey);
  std::set<std::tuple<int, int, int>> out;
  for (int i = 0; i < s.num_tiles(); ++i) {
    for (int d = 0; d < 4; ++d) {
      const int x = s.tile(i).x + dx[d], y = s.tile(i).y + dy[d];
      if (s.tile_at(x, y) >= 0) continue;
      for (int r = 0; r < 4; ++r) {
        bool ok = true;
        int mouths = 0, in = -1;
        for (int e = 0; e < 4 && ok; ++e) {
          const int j = s.tile_at(x + dx[e], y + dy[e]);
          if (j < 0) continue;
          const uint16_t mine = (tt.rot[r].edge_word >> (4 * e)) & 0xF, theirs = edge_kind(s.tile(j), (e + 2) % 4);
          ok = mine == theirs || mine == any || theirs == any;
          if (theirs == river) ++mouths, in = e;
        }
        if (!ok) continue;
        if (tt.river) {
          if (mouths != 1) continue;  // R3: continue the river; R5: never join two branches
          // R4: a curve may not turn the way the previous tile of its branch turned.
          std::vector<int> outs;
          for (int e = 0; e < 4; ++e)
            if (e != in && ((tt.rot[r].edge_word >> (4 * e)) & 0xF) == river) outs.push_back(e);
          if (outs.size() == 1) {
            const int flow = (in + 2) % 4;  // direction the river flows into this tile
            const int turn = (outs[0] - flow + 4) % 4;
            const PlacedTile& prev = s.tile(s.tile_at(x + dx[in], y + dy[in]));
            const int prev_turn = prev.river_in == 4 ? 0 : (flow - (prev.river_in + 2) % 4 + 4) % 4;
            if (turn != 0 && turn == prev_turn) continue;
          }
        }
        out.emplace(x, y, r);
      }
    }
  }
  return out;
}

TEST(MoveGeneration, FastGeneratorEqualsNaiveOneInRandomGames) {
  int placements_checked = 0;
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kKingRobber}}) {
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
  EXPECT_GT(placements_checked, 8000);
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
