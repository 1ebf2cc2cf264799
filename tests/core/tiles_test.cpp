// Tile data: set sizes as printed, rotation of edges and segments, symmetric tiles, the tiles a feature may
// cross twice, and the validator that refuses inconsistent definitions.
#include <gtest/gtest.h>

#include <stdexcept>

#include "meeple/tiles.h"

namespace meeple {
namespace {

TEST(Tiles, SetsHaveTheirPrintedSizes) {
  const TileCatalog& c = TileCatalog::get();
  const std::pair<const char*, int> sizes[] = {{"base", 72},       {"river2", 12},      {"count", 12},
                                               {"king_robber", 5}, {"shrines_ckr", 5},  {"shrines_csc", 6},
                                               {"shrines_spielbox", 5}, {"abbey_mayor", 12}};
  for (auto [name, n] : sizes) {
    ASSERT_NE(c.set(name), nullptr) << name;
    EXPECT_EQ(c.set(name)->total(), n) << name;
  }
  EXPECT_EQ(c.set("base")->counts.size(), 24u);
  EXPECT_GE(c.find("AM.A"), 0);
  EXPECT_TRUE(c[c.find("AM.A")].has(kFlagAbbey));
}

TEST(Tiles, RotationMovesEdgesClockwise) {
  const TileCatalog& c = TileCatalog::get();
  const TileType& t = c[c.find("BA.RCr")];  // city N, road W-E, field S
  EXPECT_EQ((t.rot[0].edge_word >> 0) & 0xF, static_cast<int>(EdgeKind::kCity));
  EXPECT_EQ((t.rot[1].edge_word >> 4) & 0xF, static_cast<int>(EdgeKind::kCity));  // N -> E
  EXPECT_EQ((t.rot[2].edge_word >> 8) & 0xF, static_cast<int>(EdgeKind::kCity));  // N -> S
  EXPECT_EQ(t.rot[1].edge_segment[kEast], t.rot[0].edge_segment[kNorth]);
  // The field on EL (north half of E) moves to SL (east half of S) after a quarter turn.
  EXPECT_EQ(t.rot[1].half_segment[kSL], t.rot[0].half_segment[kEL]);
  EXPECT_EQ(kFacingHalf(kEL), kWR);
  EXPECT_EQ(kFacingHalf(kSL), kNR);
}

TEST(Tiles, SymmetricTilesShareCanonicalRotations) {
  const TileCatalog& c = TileCatalog::get();
  const TileType& cloister = c[c.find("BA.L")];
  for (int r = 0; r < 4; ++r) EXPECT_EQ(cloister.rot[r].canonical, 0);
  const TileType& city_bridge = c[c.find("BA.CFc")];  // F C F C: a half turn is the same tile
  EXPECT_EQ(city_bridge.rot[2].canonical, 0);
  EXPECT_EQ(city_bridge.rot[1].canonical, 1);
  const TileType& curve = c[c.find("BA.Rr")];
  for (int r = 0; r < 4; ++r) EXPECT_EQ(curve.rot[r].canonical, r);
}

// The distinct rotations list each layout once, then edge word 0, which fits no frontier cell: fit
// counts test all four words without asking how many there are.
TEST(Tiles, DistinctRotationsListEachLayoutOnceThenZeros) {
  const TileCatalog& c = TileCatalog::get();
  for (int t = 0; t < c.size(); ++t) {
    const auto& d = c[t].distinct_rotations;
    ASSERT_GE(d.count, 1) << c[t].id;
    for (int k = 0; k < 4; ++k) {
      if (k < d.count) {
        EXPECT_EQ(d.edge_word[k], c[t].rot[d.rotation[k]].edge_word) << c[t].id;
        EXPECT_EQ(c[t].rot[d.rotation[k]].canonical, d.rotation[k]) << c[t].id;
      } else {
        EXPECT_EQ(d.edge_word[k], 0) << c[t].id << " rotation slot " << k;
      }
    }
  }
}

TEST(Tiles, ByRotationHoldsEachDistinctRotationsWordInItsLane) {
  const TileCatalog& c = TileCatalog::get();
  for (int t = 0; t < c.size(); ++t) {
    const auto& d = c[t].distinct_rotations;
    for (int r = 0; r < 4; ++r) {
      const auto lane = static_cast<uint16_t>(d.by_rotation >> (16 * r));
      EXPECT_EQ(lane, c[t].rot[r].canonical == r ? c[t].rot[r].edge_word : 0) << c[t].id << " rotation " << r;
    }
  }
}

TEST(Tiles, InitialNodeValuesFollowTheSegments) {
  const TileCatalog& c = TileCatalog::get();
  for (int t = 0; t < c.size(); ++t) {
    const TileType& tt = c[t];
    for (int s = 0; s < kMaxSegments; ++s) {
      const bool real = s < tt.num_segments;
      const SegmentKind kind = tt.segments[s].kind;
      const bool linear = real && (kind == SegmentKind::kCity || kind == SegmentKind::kRoad);
      EXPECT_EQ(tt.initial_open[s], linear ? tt.segments[s].edge_count : 0) << tt.id << " segment " << s;
      EXPECT_EQ(tt.initial_pennants[s], real ? tt.segments[s].pennants : 0) << tt.id << " segment " << s;
      int same_kind = 0;
      for (int o = 0; o < tt.num_segments; ++o) same_kind += tt.segments[o].kind == kind;
      EXPECT_EQ(tt.initial_repeated[s], linear && same_kind > 1) << tt.id << " segment " << s;
    }
  }
  // The two cities of BA.CC may end up in one city; the lone road of BA.RFr cannot meet itself.
  EXPECT_EQ(c[c.find("BA.CC")].initial_repeated[0] + c[c.find("BA.CC")].initial_repeated[1], 2);
  const TileType& straight = c[c.find("BA.RFr")];
  int roads = 0;
  for (int s = 0; s < straight.num_segments; ++s)
    if (straight.segments[s].kind == SegmentKind::kRoad) {
      ++roads;
      EXPECT_EQ(straight.initial_repeated[s], 0) << "segment " << s;
    }
  EXPECT_EQ(roads, 1);
}

TEST(Tiles, RepeatedKindsMarkTilesAFeatureCanCrossTwice) {
  const TileCatalog& c = TileCatalog::get();
  EXPECT_TRUE(c[c.find("BA.CC")].repeated_kinds & (1 << static_cast<int>(SegmentKind::kCity)));
  EXPECT_TRUE(c[c.find("BA.RRR")].repeated_kinds & (1 << static_cast<int>(SegmentKind::kRoad)));
  EXPECT_FALSE(c[c.find("BA.RFr")].repeated_kinds & (1 << static_cast<int>(SegmentKind::kRoad)));
}

void expect_rejected(const std::string& text, const std::string& needle) {
  try {
    TileCatalog::parse(text);
    FAIL() << "accepted: " << text;
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(Tiles, ValidationRejectsInconsistentDefinitions) {
  expect_rejected("tile X FFFF : field NL NR EL ER SL SR WL", "field edge without fields on both halves");
  expect_rejected("tile X CFFF : field all8", "must belong to exactly one segment");
  expect_rejected("tile X FFRF : road S >jct | field all8 | field NL", "belongs to two fields");
  expect_rejected("tile X FFRF : road S | field all8", "needs an end");
  expect_rejected("tile X CFFF : city N | field EL ER SL SR WL WR NL >c1", "city edge with field halves");
  expect_rejected("tile X FFFF : field all8\nset s total=2 pennants=0 : X=1", "has 1 tiles, expected 2");
  expect_rejected("tile X FFFF : field all8 >c1", "reference to a city");
  expect_rejected("tile X FFQF : field all8", "unknown edge letter");
}

}  // namespace
}  // namespace meeple
