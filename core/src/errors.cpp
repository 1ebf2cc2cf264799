// The messages of refused actions: what was wrong and what the rules expect instead.
#include "engine.h"

#include <string>

namespace meeple {

// What is wrong with an action that is not legal here, and what would be: the message try_apply returns.
std::string State::why_illegal(Action a) const {
  const TileCatalog& c = cat();
  switch (flow_.phase) {
    case Phase::kDraw: {
      if (a.kind() != Action::kDraw) return "expected a tile draw, got " + a.to_string();
      if (a.tile() >= c.size()) return "no tile type " + std::to_string(a.tile());
      const std::string id = c[a.tile()].id;
      if (tally_.remaining[a.tile()] == 0) return "tile " + id + " cannot be drawn: no copy of it is left";
      return "tile " + id + " cannot be drawn now: the river tiles are drawn first, the fork first of all and the lake last (R2)";
    }
    case Phase::kPlace:
      if (a.kind() != Action::kPlace) return "expected the placement of " + c[flow_.drawn].id + ", got " + a.to_string();
      if (find_cell(a.cell()) >= 0) return "cell (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") already holds a tile";
      if (frontier_index(a.cell()) < 0)
        return "cell (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") does not touch the board (B3)";
      if (c[flow_.drawn].river)
        return c[flow_.drawn].id + " at (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") rotated " +
               std::to_string(90 * a.rotation()) +
               " does not continue the river legally: its edges must match, it must extend exactly one open river end, and no curve may turn the same way as the one before it (B3, R3-R5)";
      return c[flow_.drawn].id + " at (" + std::to_string(a.x()) + "," + std::to_string(a.y()) + ") rotated " +
             std::to_string(90 * a.rotation()) + " does not match its neighbours' edges (B3)";
    case Phase::kTurnStart:
    case Phase::kAbbeyRound:
      if (a.kind() != Action::kPass && a.kind() != Action::kAbbey) return "expected an abbey placement or a draw, got " + a.to_string();
      return "the abbey goes on an empty square with tiles on all four sides (A1), next to at most one shrine (S2)";
    case Phase::kWagonMove:
      if (a.kind() != Action::kPass && a.kind() != Action::kWagon) return "expected a wagon move or taking the wagon back, got " + a.to_string();
      return "the wagon may only move to an incomplete, unoccupied feature adjacent to the one just scored (W2, W3)";
    case Phase::kDeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kDeploy) return "expected a deploy or a pass, got " + a.to_string();
      if (a.figure() != Figure::kFollower && !abbey_mayor()) return std::string("no ") + to_string(a.figure()) + " in these rules";
      if (!in_supply(flow_.turn_player, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
      if (a.figure() == Figure::kBarn)
        return "a barn goes on a corner of the tile just placed where four tiles meet with fields in all four corners, on a farm without a barn (F1)";
      if (a.figure() == Figure::kMayor) return "the mayor goes only into an unoccupied city (M1)";
      if (a.figure() == Figure::kWagon) return "the wagon goes only onto an unoccupied road, city, cloister, shrine or abbey (W1)";
      if (a.segment() >= c[board_.tiles[flow_.last_tile].type].num_segments) return "the tile just placed has no such segment";
      if (c[board_.tiles[flow_.last_tile].type].has(kFlagVolcano)) return "no follower may be deployed on the volcano (R7)";
      if (c[board_.tiles[flow_.last_tile].type].segments[a.segment()].kind == SegmentKind::kRiver) return "no follower may go on a river (B5)";
      return "that feature is already occupied (B5)";
    case Phase::kRedeploy:
    case Phase::kFinalRedeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kRedeploy) return "expected a redeploy or a pass, got " + a.to_string();
      if (a.quarter() == count_.quarter) return "followers in the Count's quarter cannot leave it (C5)";
      if (followers_in_quarter(flow_.acting, a.quarter()) == 0)
        return std::string("no follower of seat ") + std::to_string(flow_.acting) + " in the " + quarter_name(a.quarter());
      if (flow_.phase == Phase::kRedeploy)
        return std::string("from the ") + quarter_name(a.quarter()) +
               " a follower may only go onto a matching feature completed this turn (C6; the market only at farm scorings, C7)";
      return std::string("from the ") + quarter_name(a.quarter()) + " a follower may only go onto an incomplete matching feature (C9)";
    case Phase::kCountDeploy:
      if (a.kind() != Action::kPass && a.kind() != Action::kCountDeploy) return "expected a Count deploy or a pass, got " + a.to_string();
      if (!in_supply(flow_.acting, a.figure())) return std::string("no ") + to_string(a.figure()) + " left in supply";
      if (a.quarter() == count_.quarter && rules_.on(Option::kCountBlocksEntry)) return "the Count's quarter cannot be entered (count_blocks_entry)";
      return "not a legal Count deploy here (C3, C4)";
    case Phase::kGameOver: return "the game is over";
  }
  return "illegal action";
}

}  // namespace meeple
