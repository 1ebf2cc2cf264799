// State equality: defaulted over groups of fields, so that no field can be left out of it (the
// hand-written == it replaced missed every Abbey & Mayor field). Each test changes one field of one group
// in a copy of a mid-game position with every expansion and expects == to notice; changes == must not see
// (the union-find's path halving, unused table entries) leave copies equal.
#include <gtest/gtest.h>

#include <cstring>

#include "scenario.h"

namespace meeple {

struct StateProbe {
  State& s;
  auto& flow() { return s.flow_; }
  auto& tally() { return s.tally_; }
  auto& completed() { return s.completed_; }
  auto& king_robber() { return s.king_robber_; }
  auto& count() { return s.count_; }
  auto& abbey_mayor() { return s.abbey_mayor_; }
  auto& board() { return s.board_; }
  auto& features() { return s.features_; }
  Rules& rules() { return s.rules_; }
};

namespace {

State mid_game() {
  return testing::random_position(testing::rules_with(3, kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor), 5, 90);
}

// A copy of mid_game() changed by `change` differs from it.
template <typename Change>
void expect_seen(const char* what, Change&& change) {
  const State s = mid_game();
  State t = s;
  ASSERT_TRUE(t == s);
  StateProbe probe{t};
  change(probe);
  EXPECT_FALSE(t == s) << what << " changed but == did not see it";
}

TEST(StateEquality, SeesEveryGroupOfFields) {
  expect_seen("rules", [](StateProbe p) { p.rules().players = 4; });
  expect_seen("phase", [](StateProbe p) { p.flow().phase = Phase::kGameOver; });
  expect_seen("discarded", [](StateProbe p) { ++p.flow().discarded; });
  expect_seen("turn scoring", [](StateProbe p) { p.flow().turn_scoring = !p.flow().turn_scoring; });
  expect_seen("a score", [](StateProbe p) { ++p.tally().scores[1][kRoadPoints]; });
  expect_seen("a figure", [](StateProbe p) { p.tally().figures[2][0] ^= 1; });
  expect_seen("tiles to come", [](StateProbe p) { ++p.tally().remaining[3]; });
  expect_seen("a completed cloister", [](StateProbe p) { p.completed().cloisters[0] ^= 1; });
  expect_seen("the King", [](StateProbe p) { p.king_robber().king_size++; });
  expect_seen("the Count", [](StateProbe p) { p.count().quarter = static_cast<uint8_t>((p.count().quarter + 1) % kNumQuarters); });
  expect_seen("a Count deploy due", [](StateProbe p) { p.count().deploy_due = !p.count().deploy_due; });
  expect_seen("an abbey held", [](StateProbe p) { p.abbey_mayor().abbeys ^= 2; });
  expect_seen("wagons to move", [](StateProbe p) { p.abbey_mayor().wagons_to_move ^= 1; });
  expect_seen("the abbey round", [](StateProbe p) { p.abbey_mayor().in_abbey_round = !p.abbey_mayor().in_abbey_round; });
  expect_seen("a barn placed", [](StateProbe p) { p.abbey_mayor().barn_placed = !p.abbey_mayor().barn_placed; });
  expect_seen("a wagon's feature", [](StateProbe p) { ++p.abbey_mayor().wagon_from[1]; });
  expect_seen("a placed tile", [](StateProbe p) { p.board().tiles[3].rotation ^= 1; });
  expect_seen("a frontier cell", [](StateProbe p) { p.board().frontier[0] ^= 1; });
  expect_seen("the board's extent", [](StateProbe p) { --p.board().min_x; });
  expect_seen("the board's width", [](StateProbe p) { p.board().wide = !p.board().wide; });
  expect_seen("segments closed", [](StateProbe p) { p.completed().closed_segments ^= 1; });
  expect_seen("a feature's open edges", [](StateProbe p) {
    for (int n = 0;; ++n)
      if (p.features().root(n) == n) return void(++p.features().open[n]);
  });
  expect_seen("a feature's followers", [](StateProbe p) {  // (a position without figures changes nothing: fails)
    auto& f = p.features();
    for (int n = 0; n < f.num_nodes; ++n)
      if (f.root(n) == n && f.strength_entry[n]) return void(f.strengths[f.strength_entry[n]] ^= 1);
  });
}

TEST(StateEquality, IgnoresWhatDoesNotChangeThePosition) {
  const State s = mid_game();
  State t = s;
  StateProbe probe{t};
  // Unused entries past the board's tiles and frontier.
  probe.board().tiles[probe.board().num_tiles].rotation ^= 1;
  probe.board().frontier[probe.board().frontier_size] ^= 1;
  // The union-find compressed: the same features.
  for (int n = 0; n < probe.features().num_nodes; ++n) probe.features().parent[n] = static_cast<uint16_t>(probe.features().root(n));
  // An occupied feature's strengths moved to a free entry of the table: the same figures.
  auto& f = probe.features();
  int occupied = 0;
  while (occupied < f.num_nodes && !f.strength_entry[occupied]) ++occupied;
  ASSERT_LT(occupied, f.num_nodes);
  const int from = f.strength_entry[occupied], to = __builtin_ctzll(f.free_entries);
  f.strengths[to] = f.strengths[from];
  f.strengths[from] = 0;
  f.free_entries = (f.free_entries & ~(uint64_t{1} << to)) | (uint64_t{1} << from);
  f.strength_entry[occupied] = static_cast<uint8_t>(to);
  EXPECT_TRUE(t == s);
  EXPECT_EQ(t.check_consistency(), "");
}

// A deploy decision (the features the placement closed not yet scored) whose tile has a city or road
// segment still open.
State deploy_with_open_segment(int& open_segment) {
  for (uint64_t seed = 1;; ++seed) {
    Dealer dealer(seed);
    Rng rng(seed);
    State s(testing::rules_with(2));
    for (int i = 0; i < 60 && !s.is_terminal(); ++i) s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
    while (!s.is_terminal() && s.phase() != Phase::kDeploy) s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
    if (s.is_terminal()) continue;
    const PlacedTile& pt = s.tile(s.last_tile());
    const TileType& tt = TileCatalog::get()[pt.type];
    for (int seg = 0; seg < tt.num_segments; ++seg) {
      const FeatureInfo f = s.feature(s.node(s.last_tile(), seg));
      if ((f.kind == SegmentKind::kCity || f.kind == SegmentKind::kRoad) && f.open_edges > 0) {
        open_segment = seg;
        return s;
      }
    }
  }
}

// Bytes that would make scoring look up nodes of other tiles, score an open feature or read an invalid
// bool are refused with what is wrong.
TEST(StateBytes, RefusesMisrecordedBoardsAndClosings) {
  int open_segment = -1;
  const State s = deploy_with_open_segment(open_segment);
  ASSERT_EQ(State::from_bytes(s.to_bytes()), s);
  auto refusal = [&](auto&& change) {
    State t = s;
    StateProbe probe{t};
    change(probe);
    try {
      State::from_bytes(t.to_bytes());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal([](StateProbe p) { p.completed().closed_segments = 1 << 15; }), "closed segments the last tile placed does not have");
  EXPECT_EQ(refusal([&](StateProbe p) { p.completed().closed_segments |= static_cast<uint16_t>(1 << open_segment); }),
            "the features the last placement closed are misrecorded");
  EXPECT_EQ(refusal([](StateProbe p) {
              const uint8_t two = 2;
              std::memcpy(&p.board().wide, &two, 1);
            }),
            "a flag that is neither true nor false");
  EXPECT_EQ(refusal([](StateProbe p) { p.board().wide = true; }), "the board's width is misjudged");
  EXPECT_EQ(refusal([](StateProbe p) { ++p.board().max_y; }), "the board's extent is wrong");
}

// The table of figure strengths read from bytes: every entry named by one root and holding that feature's
// figures, nothing else (a feature wrongly marked occupied would refuse deploys; with no free entry left,
// the next figure would have no entry to take).
TEST(StateBytes, RefusesAMisrecordedTableOfFigureStrengths) {
  State s = mid_game();
  ASSERT_EQ(State::from_bytes(s.to_bytes()), s);
  StateProbe sp{s};
  const auto& f = sp.features();
  int occupied = -1, unoccupied = -1, inner = -1;  // roots with and without figures, a node that is no root
  for (int n = 0; n < f.num_nodes; ++n) {
    if (f.root(n) != n) inner = n;
    else if (f.strength_entry[n]) occupied = n;
    else unoccupied = n;
  }
  ASSERT_GE(occupied, 0);
  ASSERT_GE(unoccupied, 0);
  ASSERT_GE(inner, 0);
  const int free_entry = __builtin_ctzll(f.free_entries);
  auto refusal = [&](auto&& change) {
    State t = s;
    StateProbe probe{t};
    change(probe.features());
    try {
      State::from_bytes(t.to_bytes());
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto take = [&](auto& features, int node) {  // node names the free entry, taken from the free ones
    features.strength_entry[node] = static_cast<uint8_t>(free_entry);
    features.free_entries &= ~(uint64_t{1} << free_entry);
    features.strengths[free_entry] = 1;
  };
  EXPECT_EQ(refusal([&](auto& features) { features.strength_entry[unoccupied] = static_cast<uint8_t>(features.kEntries); }),
            "node " + std::to_string(unoccupied) + " points off the board or past the table of figure strengths");
  EXPECT_EQ(refusal([&](auto& features) { take(features, inner); }),
            "node " + std::to_string(inner) + ": an entry of figure strengths on a node that is no root");
  auto wrong_strengths = [](const std::string& why) { return why.ends_with(": wrong figure strengths"); };
  const std::string extra_figure = refusal([&](auto& features) { take(features, unoccupied); });
  EXPECT_PRED1(wrong_strengths, extra_figure);
  EXPECT_EQ(refusal([&](auto& features) { features.strength_entry[unoccupied] = features.strength_entry[occupied]; }),
            "node " + std::to_string(std::max(occupied, unoccupied)) + ": an entry of figure strengths another feature names too");
  EXPECT_EQ(refusal([&](auto& features) { features.strengths[features.strength_entry[occupied]] = 0; }),
            "node " + std::to_string(occupied) + ": an entry of figure strengths without figures");
  // Bits past the sixth player's: no figure, yet the feature would count as occupied.
  const std::string high_bits = refusal([&](auto& features) { features.strengths[features.strength_entry[occupied]] |= 1u << 28; });
  EXPECT_PRED1(wrong_strengths, high_bits);
  EXPECT_EQ(refusal([&](auto& features) { features.free_entries ^= uint64_t{1} << free_entry; }),
            "the free entries of figure strengths are not the unused ones");
  EXPECT_EQ(refusal([&](auto& features) { features.free_entries |= uint64_t{1} << features.strength_entry[occupied]; }),
            "the free entries of figure strengths are not the unused ones");
  EXPECT_EQ(refusal([&](auto& features) { features.strengths[free_entry] = 1; }), "an unused entry of figure strengths holds figures");
}

// A redeploy lap (C6) puts figures on the features completed this turn, named by their roots as collected
// before the lap: a pickle naming one by another of its nodes is refused.
TEST(StateBytes, RefusesARedeployLapNamingAFeatureByANodeThatIsNoRoot) {
  const Rules rules = testing::rules_with(2, kCount);
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Dealer dealer(seed);
    Rng rng(seed);
    State s(rules);
    while (!s.is_terminal() && s.phase() != Phase::kRedeploy) s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
    if (s.phase() != Phase::kRedeploy) continue;
    StateProbe probe{s};
    for (int i = 0; i < probe.completed().num_features; ++i) {
      const int root = probe.completed().features[i];
      const int member = probe.features().next_member[root];
      if (member == root) continue;  // a feature of one node has no other name
      ASSERT_EQ(State::from_bytes(s.to_bytes()), s);
      probe.completed().features[i] = static_cast<uint16_t>(member);
      try {
        State::from_bytes(s.to_bytes());
        FAIL() << "accepted";
      } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "a completed feature named by a node that is no root");
      }
      return;
    }
  }
  FAIL() << "no redeploy lap over a feature of two nodes or more in 200 games";
}

// A cell 32 away from a cell of a narrow board shares its slot in the cell table, and is still empty.
TEST(StateBytes, CellsOffTheBoardAreEmptyWhateverTheirSlot) {
  testing::Scenario sc(testing::rules_with(2), {{"BA.RFr", 2}});
  const State& s = sc.state;
  for (const auto& [x, y] : {std::pair{32, 0}, std::pair{-32, 0}, std::pair{0, 32}, std::pair{-32, 64}}) {
    EXPECT_EQ(s.tile_at(x, y), -1) << x << "," << y;
  }
  EXPECT_GE(s.frontier_index(cell_key(1, 0)), 0);
  EXPECT_EQ(s.frontier_index(cell_key(33, 0)), -1);
  sc.draw("BA.RFr");
  EXPECT_EQ(sc.state.why_illegal(Action::place(cell_key(32, 0), 0)), "cell (32,0) does not touch the board (B3)");
  EXPECT_EQ(sc.state.why_illegal(Action::place(cell_key(33, 0), 0)), "cell (33,0) does not touch the board (B3)");
}

}  // namespace
}  // namespace meeple

namespace meeple {
namespace {

// A new game starts as a copy of the thread's last initial position when the rules are the same: with
// other rules, even one option apart, it must be set up afresh. Each is compared with a setup that
// bypasses that copy (the deck constructor with no deck).
TEST(StateEquality, NewGamesEqualFreshSetupsWhateverRulesCameBefore) {
  std::vector<Rules> sequence;
  for (const uint8_t expansions : {uint8_t{0}, uint8_t{kCount}, uint8_t{kRiver2 | kAbbeyMayor}, uint8_t{kCultPlaces}}) {
    for (const int players : {2, 5}) {
      Rules r = testing::rules_with(players, expansions);
      sequence.push_back(r);
      r.set_option("shrine_sets", "ckr+csc");
      sequence.push_back(r);
    }
  }
  for (int round = 0; round < 2; ++round) {
    for (const Rules& rules : sequence) {
      const State cached(rules);
      const State fresh(rules, std::span<const uint8_t>{});
      ASSERT_TRUE(cached == fresh) << rules.to_string();
      ASSERT_EQ(cached.tiles_left(), fresh.tiles_left()) << rules.to_string();
    }
  }
}

}  // namespace
}  // namespace meeple
