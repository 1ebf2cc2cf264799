// The Count of Carcassonne (docs/rules.md section 3): quarters, the redeploy lap before scoring (C6), the
// Count deploy after it (C3, C4) and the final redeploy (C9), with their phases' actions and messages.
// The City's setup is in state.cpp, its part in farm scoring in scoring.cpp and in the King's points in
// king_robber.cpp.
#include <algorithm>
#include <string>

#include "engine.h"

namespace meeple {

bool State::quarter_feeds(int quarter, SegmentKind kind) const {
  switch (quarter) {
    case kCastle: return kind == SegmentKind::kCity;
    case kMarket: return kind == SegmentKind::kField;
    case kBlacksmith: return kind == SegmentKind::kRoad;
    case kCathedral: return kind == SegmentKind::kCloister || kind == SegmentKind::kShrine;
  }
  return false;
}

int State::followers_in_quarter(int player, int quarter) const {
  int n = 0;
  for (int slot = 0; slot < kFollowersPerPlayer; ++slot) n += tally_.figures[player][slot] == kInQuarter + quarter;
  return n;
}

bool State::figure_in_quarter(int player, Figure f, int quarter) const {
  switch (f) {
    case Figure::kFollower: return followers_in_quarter(player, quarter) > 0;
    case Figure::kMayor: return tally_.figures[player][kMayorSlot] == kInQuarter + quarter;
    case Figure::kWagon: return tally_.figures[player][kWagonSlot] == kInQuarter + quarter;
    case Figure::kBarn: return false;
  }
  return false;
}

// The features the last tile completed, by root, ascending: cities and roads, then buildings.
void State::collect_completed() {
  const TileCatalog& c = TileCatalog::get();
  const PlacedTile& pt = board_.tiles[flow_.last_tile];
  const TileType& tt = c[pt.type];
  completed_.num_features = 0;
  completed_.features = {};  // unused entries are zero, so equal states compare equal
  auto add = [this](int root) {
    if (std::find(completed_.features.begin(), completed_.features.begin() + completed_.num_features, root) == completed_.features.begin() + completed_.num_features)
      completed_.features[completed_.num_features++] = static_cast<uint16_t>(root);
  };
  for (uint16_t closed = completed_.closed_segments; closed; closed &= static_cast<uint16_t>(closed - 1))
    add(find(pt.node_base + __builtin_ctz(closed)));
  if (tt.has(kFlagAbbey)) {  // A2: the cities and roads the abbey's sides closed
    for (int e = 0; e < 4; ++e) {
      const PlacedTile& nt = board_.tiles[find_cell(neighbour(cell_key(pt.x, pt.y), e))];
      const uint8_t seg = c[nt.type].rot[nt.rotation].edge_segment[kOpposite(e)];
      if (seg == kNoSegment) continue;
      const SegmentKind kind = c[nt.type].segments[seg].kind;
      if ((kind == SegmentKind::kCity || kind == SegmentKind::kRoad) && features_.open[find(nt.node_base + seg)] == 0)
        add(find(nt.node_base + seg));
    }
  }
  for (int i = 0; i < completed_.num_cloisters; ++i) {
    const PlacedTile& b = board_.tiles[completed_.cloisters[i]];
    add(b.node_base + c[b.type].cloister);
  }
  // Barn scorings (F2, F4) are farm scorings, so the market may redeploy onto them (C7).
  if (abbey_mayor()) {
    if (abbey_mayor_.barn_placed) add(find(tally_.figures[flow_.turn_player][kBarnSlot]));
    bool any_barn = false;  // barns come late, if at all: most turns skip the look at the fields
    for (int p = 0; p < rules_.players; ++p) any_barn |= on_board(tally_.figures[p][kBarnSlot]);
    for (int s = 0; any_barn && s < tt.num_segments; ++s) {
      if (tt.segments[s].kind != SegmentKind::kField) continue;
      const int root = find(pt.node_base + s);
      if (occupied(root) && has_barn(root)) add(root);
    }
  }
  std::sort(completed_.features.begin(), completed_.features.begin() + completed_.num_features);
}

// Redeploys of `player`, in action order. During a turn (C6) onto the features about to be scored
// (occupied ones only with count_redeploy_empty off), never from the market (C7: no farm is scored in a
// turn); at the end (C9) onto any incomplete matching feature, from the market only with
// count_final_quarters=market. Never from the Count's quarter (C5).
void State::generate_redeploys(ActionList& out, int player, bool final_round) const {
  const TileCatalog& c = TileCatalog::get();
  const bool market_only = final_round && rules_.count_final_quarters() == CountFinalQuarters::kMarket;
  auto kind_of = [&](int node) {
    const PlacedTile& pt = board_.tiles[features_.node_tile[node]];
    return c[pt.type].segments[node - pt.node_base].kind;
  };
  // The quarters holding each of the player's figures (follower, mayor, wagon), in one pass: most of the
  // time there are none, and nothing else is looked at.
  std::array<uint8_t, 3> quarters_of{};
  for (int slot = 0; slot < kBarnSlot; ++slot) {
    const int where = tally_.figures[player][slot];
    if (where >= kInQuarter && where < kInQuarter + kNumQuarters)
      quarters_of[slot < kFollowersPerPlayer ? 0 : slot == kMayorSlot ? 1 : 2] |= static_cast<uint8_t>(1 << (where - kInQuarter));
  }
  if (!(quarters_of[0] | quarters_of[1] | quarters_of[2])) return;
  constexpr Figure kMovable[3] = {Figure::kFollower, Figure::kMayor, Figure::kWagon};
  for (int q = 0; q < kNumQuarters; ++q) {
    if (q == count_.quarter || (market_only && q != kMarket)) continue;
    for (int i = 0; i < 3; ++i) {
      if (!(quarters_of[i] & (1 << q))) continue;
      const Figure f = kMovable[i];
      if (!final_round) {
        for (int k = 0; k < completed_.num_features; ++k) {
          const int root = completed_.features[k];
          if (!quarter_feeds(q, kind_of(root))) continue;
          if (!occupied(root) && !rules_.on(Option::kCountRedeployEmpty)) continue;
          out.push(Action::redeploy(q, f, root));
        }
        continue;
      }
      for (int n = 0; n < features_.num_nodes; ++n) {
        if (features_.parent[n] != n) continue;
        const SegmentKind kind = kind_of(n);
        if (!quarter_feeds(q, kind)) continue;
        const bool complete = (kind == SegmentKind::kCity || kind == SegmentKind::kRoad)
                                  ? features_.open[n] == 0
                                  : (kind != SegmentKind::kField && board_.tiles[features_.node_tile[n]].around == 8);
        if (!complete) out.push(Action::redeploy(q, f, n));
      }
    }
  }
}

void State::move_from_quarter(int player, Figure f, int quarter, int root) {
  const int first = f == Figure::kFollower ? 0 : f == Figure::kMayor ? kMayorSlot : kWagonSlot;
  const int last = f == Figure::kFollower ? kFollowersPerPlayer : first + 1;
  for (int slot = first; slot < last; ++slot) {
    if (tally_.figures[player][slot] == kInQuarter + quarter) {
      tally_.figures[player][slot] = static_cast<uint16_t>(root);
      break;
    }
  }
  add_figure_at(root, player);
  // C7: at the end, a follower moved onto a farm with a barn is scored at once, 1 per city, and returns.
  if (flow_.phase == Phase::kFinalRedeploy && has_barn(root)) {
    bool pig = false;
    const int cities = farm_cities(root, pig);
    score_feature(root, cities * ((pig && rules_.on(Option::kPigHerd)) ? 2 : 1), kFieldPoints);
  }
}

// C6: one lap from the player left of the placer, before the completed features score.
void State::start_lap() {
  flow_.acting = next_seat(flow_.turn_player);
  count_.lap_left = rules_.players;
  continue_lap();
}

void State::continue_lap() {
  ActionList options;
  while (count_.lap_left > 0) {
    options.size = 0;
    generate_redeploys(options, flow_.acting, false);
    if (options.size > 0) {
      flow_.phase = Phase::kRedeploy;
      return;
    }
    flow_.acting = next_seat(flow_.acting);  // nothing to move: skipped
    --count_.lap_left;
  }
  score_turn();
}

void State::apply_lap_redeploy(Action a) {
  move_from_quarter(flow_.acting, a.moved_figure(), a.quarter(), a.node());
  continue_lap();  // the same player may move more
}

void State::end_lap_turn() {
  flow_.acting = next_seat(flow_.acting);
  --count_.lap_left;
  continue_lap();
}

// C9: after the last tile (and the abbey round), round-robin from the left of the last tile's placer
// until everybody has passed.
void State::start_final_redeploy() {
  flow_.acting = next_seat(flow_.last_placer);
  count_.out_mask = 0;
  continue_final_redeploy();
}

void State::continue_final_redeploy() {
  ActionList options;
  for (int tries = 0; tries < rules_.players; ++tries) {
    if (!(count_.out_mask & (1 << flow_.acting))) {
      options.size = 0;
      generate_redeploys(options, flow_.acting, true);
      if (options.size > 0) {
        flow_.phase = Phase::kFinalRedeploy;
        return;
      }
      count_.out_mask = static_cast<uint8_t>(count_.out_mask | (1 << flow_.acting));  // nothing to move, ever again
    }
    flow_.acting = next_seat(flow_.acting);
  }
  finish_game();
}

void State::apply_final_redeploy(Action a) {
  move_from_quarter(flow_.acting, a.moved_figure(), a.quarter(), a.node());
  flow_.acting = next_seat(flow_.acting);
  continue_final_redeploy();
}

void State::drop_out_of_final_redeploy() {
  count_.out_mask = static_cast<uint8_t>(count_.out_mask | (1 << flow_.acting));
  flow_.acting = next_seat(flow_.acting);
  continue_final_redeploy();
}

std::string State::why_not_redeploy(Action a) const {
  if (a.quarter() == count_.quarter) return "followers in the Count's quarter cannot leave it (C5)";
  if (followers_in_quarter(flow_.acting, a.quarter()) == 0)
    return std::string("no follower of seat ") + std::to_string(flow_.acting) + " in the " + quarter_name(a.quarter());
  if (flow_.phase == Phase::kRedeploy)
    return std::string("from the ") + quarter_name(a.quarter()) +
           " a follower may only go onto a matching feature completed this turn (C6; the market only at farm scorings, C7)";
  return std::string("from the ") + quarter_name(a.quarter()) + " a follower may only go onto an incomplete matching feature (C9)";
}

// After the wagons, when others scored this turn and the placer did not (C3): the Count deploy, if the
// placer has a figure to put in a quarter.
bool State::offer_count_deploy() {
  count_.deploy_due = false;
  flow_.acting = flow_.turn_player;
  ActionList options;
  options.size = 0;
  generate_count_deploys(options);
  if (options.size == 0) return false;
  flow_.phase = Phase::kCountDeploy;
  return true;
}

// C3/C4: into any quarter (not the Count's with count_blocks_entry); with count_move free the Count may
// go to any other quarter or stay, otherwise it moves by the rule and the action carries kCountStays.
void State::generate_count_deploys(ActionList& out) const {
  const bool free_move = rules_.count_move() == CountMove::kFree;
  for (const Figure f : {Figure::kFollower, Figure::kMayor, Figure::kWagon}) {
    if (!in_supply(flow_.acting, f)) continue;
    for (int q = 0; q < kNumQuarters; ++q) {
      if (q == count_.quarter && rules_.on(Option::kCountBlocksEntry)) continue;
      if (f == Figure::kMayor && q != kCastle) continue;  // CKR fn 19: the mayor to the castle,
      if (f == Figure::kWagon && q == kMarket) continue;  // the wagon to castle, blacksmith or cathedral
      if (!free_move) {
        out.push(Action::count_deploy(f, q, kCountStays));
        continue;
      }
      for (int to = 0; to <= kCountStays; ++to)
        if (to != count_.quarter) out.push(Action::count_deploy(f, q, to));
    }
  }
}

void State::apply_count_deploy(Action a) {
  tally_.figures[flow_.acting][slot_in_supply(flow_.acting, a.figure())] = static_cast<uint16_t>(kInQuarter + a.quarter());
  switch (rules_.count_move()) {
    case CountMove::kFree:
      if (a.count_to() != kCountStays) count_.quarter = static_cast<uint8_t>(a.count_to());
      break;
    case CountMove::kClockwise: count_.quarter = static_cast<uint8_t>((count_.quarter + 1) % kNumQuarters); break;
    case CountMove::kFollow: count_.quarter = static_cast<uint8_t>(a.quarter()); break;
  }
  end_turn();
}

std::string State::why_not_count_deploy(Action a) const {
  if (!in_supply(flow_.acting, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
  if (a.quarter() == count_.quarter && rules_.on(Option::kCountBlocksEntry)) return "the Count's quarter cannot be entered (count_blocks_entry)";
  return "not a legal Count deploy here (C3, C4)";
}

}  // namespace meeple
