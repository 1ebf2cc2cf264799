// The Count of Carcassonne (RULES.md section 3): quarters, the redeploy lap before scoring (C6), the
// Count deploy after it (C3, C4) and the final redeploy (C9). The setup and the City's part in farm and
// King scoring live with the rest of the rules in state.cpp.
#include <algorithm>

#include "meeple/state.h"

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
  for (int slot = 0; slot < kFollowersPerPlayer; ++slot) n += figures_[player][slot] == kInQuarter + quarter;
  return n;
}

bool State::figure_in_quarter(int player, Figure f, int quarter) const {
  switch (f) {
    case Figure::kFollower: return followers_in_quarter(player, quarter) > 0;
    case Figure::kMayor: return figures_[player][kMayorSlot] == kInQuarter + quarter;
    case Figure::kWagon: return figures_[player][kWagonSlot] == kInQuarter + quarter;
    case Figure::kBarn: return false;
  }
  return false;
}

// The features the last tile completed, by root, ascending: cities and roads, then buildings.
void State::collect_completed() {
  const TileCatalog& c = TileCatalog::get();
  const PlacedTile& pt = tiles_[last_tile_];
  const TileType& tt = c[pt.type];
  num_pending_ = 0;
  auto add = [this](int root) {
    if (std::find(pending_.begin(), pending_.begin() + num_pending_, root) == pending_.begin() + num_pending_)
      pending_[num_pending_++] = static_cast<uint16_t>(root);
  };
  for (int s = 0; s < tt.num_segments; ++s) {
    const SegmentKind kind = tt.segments[s].kind;
    if (kind != SegmentKind::kCity && kind != SegmentKind::kRoad) continue;
    const int root = find(pt.node_base + s);
    if (open_[root] == 0) add(root);
  }
  if (tt.has(kFlagAbbey)) {  // A2: the cities and roads the abbey's sides closed
    for (int e = 0; e < 4; ++e) {
      const PlacedTile& nt = tiles_[find_cell(neighbour(cell_key(pt.x, pt.y), e))];
      const uint8_t seg = c[nt.type].rot[nt.rotation].edge_segment[kOpposite(e)];
      if (seg == kNoSegment) continue;
      const SegmentKind kind = c[nt.type].segments[seg].kind;
      if ((kind == SegmentKind::kCity || kind == SegmentKind::kRoad) && open_[find(nt.node_base + seg)] == 0)
        add(find(nt.node_base + seg));
    }
  }
  for (int i = 0; i < num_completed_cloisters_; ++i) {
    const PlacedTile& b = tiles_[completed_cloisters_[i]];
    add(b.node_base + c[b.type].cloister);
  }
  // Barn scorings (F2, F4) are farm scorings, so the market may redeploy onto them (C7).
  if (abbey_mayor()) {
    if (barn_placed_) add(find(figures_[turn_player_][kBarnSlot]));
    for (int s = 0; s < tt.num_segments; ++s) {
      if (tt.segments[s].kind != SegmentKind::kField) continue;
      const int root = find(pt.node_base + s);
      if (followers_[root] && has_barn(root)) add(root);
    }
  }
  std::sort(pending_.begin(), pending_.begin() + num_pending_);
}

// Redeploys of `player`, in action order. During a turn (C6) onto the features about to be scored
// (occupied ones only with count_redeploy_empty off), never from the market (C7: no farm is scored in a
// turn); at the end (C9) onto any incomplete matching feature, from the market only with
// count_final_quarters=market. Never from the Count's quarter (C5).
void State::generate_redeploys(ActionList& out, int player, bool final_round) const {
  const TileCatalog& c = TileCatalog::get();
  const bool market_only = final_round && rules_.option(Option::kCountFinalQuarters) == 1;
  auto kind_of = [&](int node) {
    const PlacedTile& pt = tiles_[node_tile_[node]];
    return c[pt.type].segments[node - pt.node_base].kind;
  };
  for (int q = 0; q < kNumQuarters; ++q) {
    if (q == count_ || (market_only && q != kMarket)) continue;
    for (const Figure f : {Figure::kFollower, Figure::kMayor, Figure::kWagon}) {
      if (!figure_in_quarter(player, f, q)) continue;
      if (!final_round) {
        for (int i = 0; i < num_pending_; ++i) {
          const int root = pending_[i];
          if (!quarter_feeds(q, kind_of(root))) continue;
          if (!followers_[root] && !rules_.on(Option::kCountRedeployEmpty)) continue;
          out.push(Action::redeploy(q, f, root));
        }
        continue;
      }
      for (int n = 0; n < num_nodes_; ++n) {
        if (parent_[n] != n) continue;
        const SegmentKind kind = kind_of(n);
        if (!quarter_feeds(q, kind)) continue;
        const bool complete = (kind == SegmentKind::kCity || kind == SegmentKind::kRoad)
                                  ? open_[n] == 0
                                  : (kind != SegmentKind::kField && tiles_[node_tile_[n]].around == 8);
        if (!complete) out.push(Action::redeploy(q, f, n));
      }
    }
  }
}

void State::move_from_quarter(int player, Figure f, int quarter, int root) {
  const int first = f == Figure::kFollower ? 0 : f == Figure::kMayor ? kMayorSlot : kWagonSlot;
  const int last = f == Figure::kFollower ? kFollowersPerPlayer : first + 1;
  for (int slot = first; slot < last; ++slot) {
    if (figures_[player][slot] == kInQuarter + quarter) {
      figures_[player][slot] = static_cast<uint16_t>(root);
      break;
    }
  }
  followers_[root] += 1u << (4 * player);
  // C7: at the end, a follower moved onto a farm with a barn is scored at once, 1 per city, and returns.
  if (phase_ == Phase::kFinalRedeploy && has_barn(root)) {
    bool pig = false;
    const int cities = farm_cities(root, pig);
    score_feature(root, cities * ((pig && rules_.on(Option::kPigHerd)) ? 2 : 1), kFieldPoints);
  }
}

void State::continue_lap() {
  ActionList options;
  while (lap_left_ > 0) {
    options.size = 0;
    generate_redeploys(options, acting_, false);
    if (options.size > 0) {
      phase_ = Phase::kRedeploy;
      return;
    }
    acting_ = static_cast<uint8_t>((acting_ + 1) % rules_.players);  // nothing to move: skipped
    --lap_left_;
  }
  score_and_continue();
}

void State::continue_final_redeploy() {
  ActionList options;
  for (int tries = 0; tries < rules_.players; ++tries) {
    if (!(out_mask_ & (1 << acting_))) {
      options.size = 0;
      generate_redeploys(options, acting_, true);
      if (options.size > 0) {
        phase_ = Phase::kFinalRedeploy;
        return;
      }
      out_mask_ = static_cast<uint8_t>(out_mask_ | (1 << acting_));  // nothing to move, ever again
    }
    acting_ = static_cast<uint8_t>((acting_ + 1) % rules_.players);
  }
  finish_game();
}

// C3/C4: into any quarter (not the Count's with count_blocks_entry); with count_move free the Count may
// go to any other quarter or stay, otherwise it moves by the rule and the action carries kCountStays.
void State::generate_count_deploys(ActionList& out) const {
  const bool free_move = rules_.option(Option::kCountMove) == 0;
  for (const Figure f : {Figure::kFollower, Figure::kMayor, Figure::kWagon}) {
    if (!in_supply(acting_, f)) continue;
    for (int q = 0; q < kNumQuarters; ++q) {
      if (q == count_ && rules_.on(Option::kCountBlocksEntry)) continue;
      if (f == Figure::kMayor && q != kCastle) continue;  // CKR fn 19: the mayor to the castle,
      if (f == Figure::kWagon && q == kMarket) continue;  // the wagon to castle, blacksmith or cathedral
      if (!free_move) {
        out.push(Action::count_deploy(f, q, kCountStays));
        continue;
      }
      for (int to = 0; to <= kCountStays; ++to)
        if (to != count_) out.push(Action::count_deploy(f, q, to));
    }
  }
}

void State::count_deploy(Action a) {
  figures_[acting_][slot_in_supply(acting_, a.figure())] = static_cast<uint16_t>(kInQuarter + a.quarter());
  switch (rules_.option(Option::kCountMove)) {
    case 0:
      if (a.count_to() != kCountStays) count_ = static_cast<uint8_t>(a.count_to());
      break;
    case 1: count_ = static_cast<uint8_t>((count_ + 1) % kNumQuarters); break;
    case 2: count_ = static_cast<uint8_t>(a.quarter()); break;
  }
}

}  // namespace meeple
