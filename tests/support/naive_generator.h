// A slow, obviously correct placement generator: every empty cell next to any tile, every rotation, every
// edge compared with its neighbour, and the river rules checked straight from R3-R5 and the shrines' from S2. Tests compare the fast
// frontier generator with it; the benchmark uses it as the baseline.
#pragma once

#include <set>
#include <tuple>
#include <vector>

#include "meeple/state.h"

namespace meeple::testing {

inline uint16_t edge_kind(const PlacedTile& t, int edge) {
  return (TileCatalog::get()[t.type].rot[t.rotation].edge_word >> (4 * edge)) & 0xF;
}

// 1 for a cloister (or abbey), 2 for a shrine, 0 otherwise.
inline int naive_building(const TileType& t) {
  if (t.cloister < 0) return 0;
  return t.segments[t.cloister].kind == SegmentKind::kShrine ? 2 : 1;
}

// S2, straight from its words: after placing a building of kind k at (x, y), no cloister or shrine may
// have two buildings of the other kind among its 8 neighbours.
inline bool naive_shrine_rule_ok(const State& s, const TileType& tt, int x, int y) {
  const TileCatalog& c = TileCatalog::get();
  auto kind_at = [&](int cx, int cy) {
    if (cx == x && cy == y) return naive_building(tt);
    const int j = s.tile_at(cx, cy);
    return j < 0 ? 0 : naive_building(c[s.tile(j).type]);
  };
  auto others_around = [&](int cx, int cy) {
    const int mine = kind_at(cx, cy);
    int n = 0;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        if ((dx || dy) && kind_at(cx + dx, cy + dy) && kind_at(cx + dx, cy + dy) != mine) ++n;
    return n;
  };
  if (others_around(x, y) > 1) return false;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      if ((dx || dy) && kind_at(x + dx, y + dy) && others_around(x + dx, y + dy) > 1) return false;
  return true;
}

inline std::set<std::tuple<int, int, int>> naive_placements(const State& s, int tile) {
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
        if (tt.cloister >= 0 && s.rules().has(kCultPlaces) && !naive_shrine_rule_ok(s, tt, x, y)) continue;
        out.emplace(x, y, r);
      }
    }
  }
  return out;
}

}  // namespace meeple::testing
