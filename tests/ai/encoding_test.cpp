// The board encoding: at every decision of random games of every rule set and player count, the legal
// actions and the ids of the mask map one to one; turning the board turns observations and ids alike; the
// planes say what the state says; a board that outgrows the window is reported, never cropped silently.
#include "meeple/ai/encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <vector>

#include "meeple/random.h"

namespace meeple {
namespace {

Rules rules_for(int players, int combination) {
  Rules r;
  r.players = static_cast<uint8_t>(players);
  r.expansions = static_cast<uint8_t>(combination);  // the five expansion bits, every subset
  return r;
}

struct Buffers {
  explicit Buffers(const Encoding& e)
      : planes(static_cast<size_t>(e.plane_size())), scratch(planes.size()), flat(static_cast<size_t>(e.flat_size())),
        mask(static_cast<size_t>(Encoding::num_action_ids())) {}
  std::vector<uint8_t> planes, scratch;
  std::vector<float> flat;
  std::vector<uint8_t> mask;
};

// Legal actions and mask ids, both ways: each legal action has one id, set in the mask, naming it back;
// each id of the mask names one legal action; no two legal actions share an id.
void check_ids(const State& s, const Encoding& e, Buffers& b, int turns) {
  ActionList legal;
  s.legal_actions(legal);
  ASSERT_EQ(e.legal_mask(s, b.mask.data(), turns), 0) << "a legal action outside the window";
  std::map<int, Action> by_id;
  for (const Action a : legal) {
    const int id = Encoding::id_of(s, a, turns);
    ASSERT_GE(id, 0) << a.to_string();
    ASSERT_LT(id, Encoding::num_action_ids());
    ASSERT_TRUE(b.mask[static_cast<size_t>(id)]) << a.to_string() << " has id " << id << ", not in the mask";
    ASSERT_TRUE(by_id.emplace(id, a).second) << a.to_string() << " and " << by_id[id].to_string() << " share id " << id;
    ASSERT_EQ(Encoding::action_of(s, id, turns), a) << "id " << id << " of " << a.to_string() << " names "
                                                     << Encoding::action_of(s, id, turns).to_string();
  }
  const int set = static_cast<int>(std::count(b.mask.begin(), b.mask.end(), 1));
  ASSERT_EQ(set, legal.size) << "the mask has ids no legal action has";
}

void check_observation(const State& s, const Encoding& e, Buffers& b, int seat) {
  ASSERT_TRUE(e.observe(s, seat, b.planes.data(), b.flat.data()));
  const auto plane = [&](int p) { return b.planes.data() + static_cast<size_t>(p) * kWindowCells; };
  const auto plane_sum = [&](int p) { return std::accumulate(plane(p), plane(p) + kWindowCells, 0); };
  const Window w = Window::of(s);
  int land = 0, abbeys = 0;
  for (int i = 0; i < s.num_tiles(); ++i) {
    const PlacedTile& pt = s.tile(i);
    const TileType& t = TileCatalog::get()[pt.type];
    (t.has(kFlagAbbey) ? abbeys : land) += 1;
    const int c = w.cell(pt.x, pt.y);
    ASSERT_GE(c, 0);
    for (int edge = 0; edge < 4; ++edge) {
      const EdgeKind kind = static_cast<EdgeKind>((t.rot[pt.rotation].edge_word >> (4 * edge)) & 15);
      ASSERT_EQ(plane(Encoding::kCityEdge + edge)[c], kind == EdgeKind::kCity) << t.id << " edge " << edge;
      ASSERT_EQ(plane(Encoding::kRoadEdge + edge)[c], kind == EdgeKind::kRoad) << t.id << " edge " << edge;
      ASSERT_EQ(plane(Encoding::kRiverEdge + edge)[c], kind == EdgeKind::kRiver) << t.id << " edge " << edge;
    }
  }
  ASSERT_EQ(plane_sum(Encoding::kTile), land);
  ASSERT_EQ(plane_sum(Encoding::kAbbeyTile), abbeys);
  ASSERT_EQ(plane_sum(Encoding::kFrontier), s.frontier_size());
  ASSERT_EQ(plane_sum(Encoding::kLastPlaced), s.last_tile() >= 0 ? 1 : 0);
  const Encoding::FlatLayout& f = e.flat_layout();
  int figures = 0;
  for (int p = 0; p < s.num_players(); ++p) {
    const int k = (p - seat + s.num_players()) % s.num_players();
    int followers = 0;
    for (int slot = 0; slot < kFollowersPerPlayer; ++slot) followers += s.figure_node(p, slot) >= 0;
    ASSERT_EQ(plane_sum(Encoding::kBoardPlanes + k * Encoding::kSeatPlanes + Encoding::kFollowers), followers);
    figures += followers;
    ASSERT_EQ(b.flat[static_cast<size_t>(f.scores + k)], s.score(p));
    ASSERT_EQ(b.flat[static_cast<size_t>(f.followers + k)], s.followers_in_supply(p));
    ASSERT_EQ(b.flat[static_cast<size_t>(f.acting + k)], s.current_player() == p ? 1.0f : 0.0f);
  }
  float remaining = 0;
  for (int t = 0; t < TileCatalog::get().size(); ++t) remaining += b.flat[static_cast<size_t>(f.remaining + t)];
  ASSERT_EQ(remaining, s.tiles_left());
  ASSERT_EQ(b.flat[static_cast<size_t>(f.phase + static_cast<int>(s.phase()))], 1.0f);
  ASSERT_EQ(b.flat[static_cast<size_t>(f.outside_window)], 0.0f);
  // Where the tile in hand fits: one cell per legal placement's cell, in each rotation with its layout.
  if (s.phase() == Phase::kPlace) {
    ActionList legal;
    s.legal_actions(legal);
    int fits = 0;
    for (const Action a : legal)
      for (int r = 0; r < 4; ++r) fits += TileCatalog::get()[s.drawn_tile()].rot[r].canonical == a.rotation();
    int painted = 0;
    for (int r = 0; r < 4; ++r) painted += plane_sum(Encoding::kFits + r);
    ASSERT_EQ(painted, fits);
  }
}

// Turning the board: observe(k) equals rotate(observe(0)), and the ids of the mask turn with rotate_id.
void check_turns(const State& s, const Encoding& e, Buffers& b, int seat) {
  std::vector<uint8_t> planes0(b.planes.size()), mask0(b.mask.size());
  std::vector<float> flat0(b.flat.size());
  e.observe(s, seat, planes0.data(), flat0.data(), 0);
  e.legal_mask(s, mask0.data(), 0);
  for (int k = 1; k < 4; ++k) {
    SCOPED_TRACE("turns " + std::to_string(k));
    std::vector<uint8_t> turned = planes0;
    std::vector<float> turned_flat = flat0;
    e.rotate_planes(turned.data(), b.scratch.data(), k);
    e.rotate_flat(turned_flat.data(), k);
    e.observe(s, seat, b.planes.data(), b.flat.data(), k);
    ASSERT_TRUE(turned == b.planes) << "the planes of the turned board are not the turned planes";
    ASSERT_TRUE(turned_flat == b.flat);
    e.legal_mask(s, b.mask.data(), k);
    for (int id = 0; id < Encoding::num_action_ids(); ++id) {
      if (!mask0[static_cast<size_t>(id)]) continue;
      const int to = Encoding::rotate_id(id, k, s.drawn_tile());
      ASSERT_TRUE(b.mask[static_cast<size_t>(to)]) << "id " << id << " turned to " << to;
      ASSERT_EQ(Encoding::action_of(s, to, k), Encoding::action_of(s, id, 0));
    }
    ASSERT_EQ(std::count(b.mask.begin(), b.mask.end(), 1), std::count(mask0.begin(), mask0.end(), 1));
  }
}

class EncodingSim : public ::testing::TestWithParam<int> {};

// Every expansion subset with 2 to 6 players, a few games each: 32 x 5 x 3 = 480 games, every decision.
TEST_P(EncodingSim, IdsAreOneToOneAndObservationsMatchTheState) {
  const int combination = GetParam();
  for (int players = 2; players <= kMaxPlayers; ++players) {
    const Encoding e(players);
    Buffers b(e);
    for (uint64_t g = 0; g < 3; ++g) {
      const uint64_t seed = 7001 + 101 * static_cast<uint64_t>(combination) + 13 * static_cast<uint64_t>(players) + g;
      SCOPED_TRACE("players " + std::to_string(players) + ", seed " + std::to_string(seed));
      Dealer dealer(seed);
      Rng rng(seed);
      State s(rules_for(players, combination));
      for (int ply = 0; !s.is_terminal(); ++ply) {
        if (s.is_chance()) {
          s.apply(dealer.deal(s));
          continue;
        }
        check_ids(s, e, b, 0);
        check_observation(s, e, b, static_cast<int>(rng.below(static_cast<uint32_t>(players))));
        if (ply % 7 == 0) check_turns(s, e, b, s.current_player());  // every seventh: a turn costs 3 observations
        if (::testing::Test::HasFatalFailure()) return;
        s.apply(s.sample_legal_action(rng));
      }
      check_observation(s, e, b, 0);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryExpansionSet, EncodingSim, ::testing::Range(0, 32));

TEST(Encoding, IdsThatNameNothingAreRefused) {
  State s(rules_for(2, kCount | kAbbeyMayor));
  EXPECT_EQ(Encoding::action_of(s, -1), Action::none());
  EXPECT_EQ(Encoding::action_of(s, Encoding::num_action_ids()), Action::none());
  EXPECT_EQ(Encoding::action_of(s, action_id::kWagon + kMaxNodes - 1), Action::none()) << "a node not on the board";
  EXPECT_EQ(Encoding::id_of(s, Action::draw(3)), -1);
  EXPECT_EQ(Encoding::id_of(s, Action::wagon(kMaxNodes - 1)), -1);
  EXPECT_THROW(Encoding(1), std::invalid_argument);
  const Encoding e(2);
  Buffers b(e);
  EXPECT_THROW(e.observe(s, 2, b.planes.data(), b.flat.data()), std::invalid_argument);
  EXPECT_THROW(Encoding(3).observe(s, 0, b.planes.data(), b.flat.data()), std::invalid_argument);
}

// A game stretched east (every placement on the easternmost legal cell) outgrows the window: observe says
// so, the flat field is set, and the legal placements beyond it are counted, not given wrong ids.
TEST(Encoding, ABoardOutgrowingTheWindowIsReported) {
  const Encoding e(2);
  Buffers b(e);
  Dealer dealer(5);
  Rng rng(5);
  State s(rules_for(2, 0));
  ActionList list;
  bool reported = false;
  while (!s.is_terminal() && !reported) {
    if (s.is_chance()) {
      s.apply(dealer.deal(s));
      continue;
    }
    const bool fits = e.observe(s, 0, b.planes.data(), b.flat.data());
    const Window w = Window::of(s);
    ASSERT_EQ(fits, w.fits);
    ASSERT_EQ(b.flat[static_cast<size_t>(e.flat_layout().outside_window)], fits ? 0.0f : 1.0f);
    s.legal_actions(list);
    int outside = 0;
    for (const Action a : list) outside += Encoding::id_of(s, a) < 0;
    ASSERT_EQ(e.legal_mask(s, b.mask.data()), outside);
    if (fits) {
      ASSERT_EQ(outside, 0);
    }
    reported = !fits;
    Action pick = list[0];
    for (const Action a : list) if (a.kind() == Action::kPlace && a.x() > pick.x()) pick = a;
    s.apply(s.phase() == Phase::kPlace ? pick : s.sample_legal_action(rng));
  }
  EXPECT_TRUE(reported) << "the stretched game never left the window, so this tested nothing";
}

TEST(Encoding, ChannelTablesNameEveryPlaneAndField) {
  for (int players = 2; players <= kMaxPlayers; ++players) {
    const Encoding e(players);
    const auto planes = e.plane_channels();
    const auto flat = e.flat_fields();
    ASSERT_EQ(static_cast<int>(planes.size()), e.num_planes());
    ASSERT_EQ(static_cast<int>(flat.size()), e.flat_size());
    std::vector<std::string> names;
    for (const auto& c : planes) names.push_back(c.name);
    for (const auto& c : flat) names.push_back(c.name);
    for (const auto& n : names) ASSERT_FALSE(n.empty()) << "an unnamed plane or field";
    std::sort(names.begin(), names.end());
    ASSERT_TRUE(std::adjacent_find(names.begin(), names.end()) == names.end()) << "two channels share a name";
  }
}

}  // namespace
}  // namespace meeple
