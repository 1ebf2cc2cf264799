// The turn (docs/rules.md section 8), written once: its steps in order, and one table row per phase from
// which everything the engine says about a phase comes (its name, who acts, how its actions are listed,
// checked and applied, what a pass does, why an action is refused, how a record writes a pass).
//
// A turn, step by step. A step that waits for a decision sets the phase and returns; the decision's row
// below applies it and calls the next step. Expansions hook in where their rules say (their files hold
// the hooks' own rules):
//   start_turn       Abbey & Mayor: the abbey instead of a draw (kTurnStart, abbey_mayor.cpp, A1)
//   start_draw       kDraw, a chance node; when no tile is left, end_of_tiles
//   draw             kPlace; a tile that fits nowhere is discarded and start_draw again (B4)
//   place            kDeploy when a figure can go on the tile (moves.cpp), else after_deploy
//   after_deploy     the completed features are collected; the Count: a redeploy lap first (kRedeploy,
//                    count.cpp, C6)
//   score_turn       scoring (scoring.cpp: features, cloisters and shrines with their challenges
//                    (cult_places.cpp), barns; King & Robber (king_robber.cpp)); Abbey & Mayor: wagons
//                    move (kWagonMove, abbey_mayor.cpp, W2)
//   after_wagons     the Count: the Count deploy (kCountDeploy, count.cpp, C3)
//   end_turn         the next seat's start_turn; in the abbey round, that round goes on
//   end_of_tiles     Abbey & Mayor: the abbey round (kAbbeyRound, A4); the Count: the final redeploy
//                    (kFinalRedeploy, C9); then finish_game: final scoring (B11) and kGameOver.
#include <iterator>
#include <stdexcept>
#include <string>

#include "engine.h"

namespace meeple {

// What the engine knows of a phase. Adding a phase is adding its row (and its rules, in its own file).
struct State::PhaseRow {
  enum Actor : uint8_t { kNature, kTurnPlayer, kActing, kNobody };
  Phase phase;
  const char* name;
  Actor actor;                                 // who decides: chance, the turn's player or flow_.acting
  Action::Kind kind;                           // the phase's action besides the pass (kNone: none)
  void (State::*act)(Action);                  // applies that action
  void (State::*pass)();                       // applies a pass; nullptr: the phase has no pass
  void (State::*list)(ActionList&) const;      // appends the phase's actions but the pass, in action order
  bool (State::*legal)(Action) const;          // whether an action is legal; nullptr: when it is listed
  std::string (State::*why)(Action) const;     // why an action of the phase's kinds is refused
  const char* expected;                        // the phase's actions, for "expected ..., got ..."
  const char* pass_record_key;                 // a record's key for a pass; "": not written; nullptr: no pass
};

const State::PhaseRow& State::phase_row(Phase p) {
  using R = PhaseRow;
  static constexpr PhaseRow kRows[] = {
      {Phase::kTurnStart, "turn start (abbey or draw)", R::kTurnPlayer, Action::kAbbey, &State::apply_abbey,
       &State::draw_instead_of_abbey, &State::generate_abbeys, nullptr, &State::why_not_abbey,
       "an abbey placement or a draw", ""},  // the draw that follows stands for the choice in a record
      {Phase::kDraw, "draw", R::kNature, Action::kDraw, &State::apply_draw, nullptr, nullptr, &State::is_legal_draw,
       &State::why_not_draw, "a tile draw", nullptr},
      {Phase::kPlace, "place", R::kTurnPlayer, Action::kPlace, &State::apply_place, nullptr, &State::generate_placements,
       &State::is_legal_placement, &State::why_not_placement, "the placement of the tile in hand", nullptr},
      {Phase::kDeploy, "deploy", R::kTurnPlayer, Action::kDeploy, &State::apply_deploy, &State::after_deploy,
       &State::generate_deploys, nullptr, &State::why_not_deploy, "a deploy or a pass", "deploy"},
      {Phase::kWagonMove, "wagon move", R::kActing, Action::kWagon, &State::apply_wagon_move, &State::keep_wagon,
       &State::list_wagon_moves, nullptr, &State::why_not_wagon_move, "a wagon move or taking the wagon back",
       "wagon"},
      {Phase::kAbbeyRound, "abbey round", R::kActing, Action::kAbbey, &State::apply_abbey,
       &State::decline_abbey_round, &State::generate_abbeys, nullptr, &State::why_not_abbey,
       "an abbey placement or a pass", "abbey"},
      {Phase::kRedeploy, "redeploy", R::kActing, Action::kRedeploy, &State::apply_lap_redeploy, &State::end_lap_turn,
       &State::list_lap_redeploys, nullptr, &State::why_not_redeploy, "a redeploy or a pass", "redeploy"},
      {Phase::kCountDeploy, "count deploy", R::kActing, Action::kCountDeploy, &State::apply_count_deploy,
       &State::end_turn, &State::generate_count_deploys, nullptr, &State::why_not_count_deploy,
       "a Count deploy or a pass", "count_deploy"},
      {Phase::kFinalRedeploy, "final redeploy", R::kActing, Action::kRedeploy, &State::apply_final_redeploy,
       &State::drop_out_of_final_redeploy, &State::list_final_redeploys, nullptr, &State::why_not_redeploy,
       "a redeploy or a pass", "redeploy"},
      {Phase::kGameOver, "game over", R::kNobody, Action::kNone, nullptr, nullptr, nullptr, nullptr,
       &State::why_game_over, "nothing", nullptr},
  };
  static_assert(std::size(kRows) == static_cast<size_t>(Phase::kGameOver) + 1, "a row for every phase");
  static_assert(kRows[static_cast<int>(Phase::kDraw)].act == &State::apply_draw &&
                    kRows[static_cast<int>(Phase::kPlace)].act == &State::apply_place &&
                    kRows[static_cast<int>(Phase::kDeploy)].act == &State::apply_deploy &&
                    kRows[static_cast<int>(Phase::kDeploy)].pass == &State::after_deploy,
                "State::apply calls these rows' functions directly");
  static_assert([] {
    for (size_t i = 0; i < std::size(kRows); ++i)
      if (static_cast<size_t>(kRows[i].phase) != i) return false;
    return true;
  }(), "rows in the order of enum Phase");
  return kRows[static_cast<int>(p)];
}

const char* to_string(Phase p) { return State::phase_row(p).name; }
const char* pass_record_key(Phase p) { return State::phase_row(p).pass_record_key; }
Action::Kind action_kind(Phase p) { return State::phase_row(p).kind; }

// ---- Who acts, what is legal, why not ------------------------------------------------------------------

int State::current_player() const {
  switch (phase_row(flow_.phase).actor) {
    case PhaseRow::kNature: return kChance;
    case PhaseRow::kTurnPlayer: return flow_.turn_player;
    case PhaseRow::kActing: return flow_.acting;
    case PhaseRow::kNobody: break;
  }
  return kTerminal;
}

void State::legal_actions(ActionList& out) const {
  const PhaseRow& row = phase_row(flow_.phase);
  out.size = 0;
  if (row.pass) out.push(Action::pass());
  if (row.list) (this->*row.list)(out);
}

bool State::is_legal(Action a) const {
  const PhaseRow& row = phase_row(flow_.phase);
  if (a.kind() != row.kind && !(a.kind() == Action::kPass && row.pass)) return false;
  if (row.legal) return (this->*row.legal)(a);
  ActionList list;
  legal_actions(list);
  return list.contains(a);
}

std::string State::why_illegal(Action a) const {
  const PhaseRow& row = phase_row(flow_.phase);
  if (row.kind != Action::kNone && a.kind() != row.kind && !(a.kind() == Action::kPass && row.pass))
    return std::string("expected ") + row.expected + ", got " + a.to_string();
  return (this->*row.why)(a);
}

std::string State::why_game_over(Action) const { return "the game is over"; }

// ---- Applying actions --------------------------------------------------------------------------------

void State::apply(Action a) {
  // Every turn's draw, placement and deploy are called directly, so that the compiler can inline them:
  // through the rows' pointers, a random game ran 3-5% slower (bench/compare.py). They are the rows' own
  // functions (checked where the table is).
  switch (flow_.phase) {
    case Phase::kDraw: return apply_draw(a);
    case Phase::kPlace: return apply_place(a);
    case Phase::kDeploy: return a.kind() == Action::kPass ? after_deploy() : apply_deploy(a);
    default: break;
  }
  const PhaseRow& row = phase_row(flow_.phase);
  if (a.kind() != Action::kPass) {
    if (row.act) (this->*row.act)(a);  // (nothing to apply once the game is over)
  } else if (row.pass) {
    (this->*row.pass)();
  }
}

std::string State::try_apply(Action a) {
  if (!is_legal(a)) return why_illegal(a);
  apply(a);
  return {};
}

void State::force_draw(int tile) {
  if (flow_.phase != Phase::kDraw) throw std::invalid_argument("force_draw: not at a chance node");
  const std::string err = try_apply(Action::draw(tile));
  if (!err.empty()) throw std::invalid_argument("force_draw: " + err);
}

// ---- The steps of a turn -----------------------------------------------------------------------------

void State::start_turn() {
  if (tiles_left() > 0 && abbey_mayor() && has_abbey(flow_.turn_player) && can_place_abbey()) {
    flow_.drawn = -1;
    flow_.phase = Phase::kTurnStart;
    return;
  }
  start_draw();
}

void State::start_draw() {
  flow_.drawn = -1;
  if (tiles_left() > 0) {
    flow_.phase = Phase::kDraw;
    return;
  }
  end_of_tiles();
}

bool State::is_legal_draw(Action a) const {
  return a.tile() < cat().size() && tally_.remaining[a.tile()] > 0 && draw_pile(a.tile()) == drawable_pile();
}

std::string State::why_not_draw(Action a) const {
  if (a.tile() >= cat().size()) return "no tile type " + std::to_string(a.tile());
  const std::string& id = cat()[a.tile()].id;
  if (tally_.remaining[a.tile()] == 0) return "tile " + id + " cannot be drawn: no copy of it is left";
  return "tile " + id + " cannot be drawn now: the river tiles are drawn first, the fork first of all and the lake last (R2)";
}

void State::apply_draw(Action a) {
  const int t = a.tile();
  --tally_.remaining[t];
  --tally_.pile_left[kPiles.pile[t]];
  flow_.drawn = static_cast<int16_t>(t);
  flow_.phase = Phase::kPlace;
  if (!has_placement()) {  // B4: fits nowhere; removed, and the same player draws again
    ++flow_.discarded;
    start_draw();
  }
}

void State::apply_place(Action a) {
  place_tile(flow_.drawn, a.rotation(), a.cell());
  flow_.last_placer = flow_.turn_player;
  flow_.drawn = -1;
  placed();
}

// After a tile (or an abbey, A2) is placed: a figure may go on it.
void State::placed() {
  flow_.last_tile = static_cast<int16_t>(board_.num_tiles - 1);
  abbey_mayor_.barn_placed = false;
  if (can_deploy()) {
    flow_.phase = Phase::kDeploy;
  } else {
    after_deploy();
  }
}

void State::apply_deploy(Action a) {
  const int p = flow_.turn_player;
  const PlacedTile& pt = board_.tiles[flow_.last_tile];
  if (a.figure() == Figure::kBarn) {
    tally_.figures[p][kBarnSlot] = static_cast<uint16_t>(pt.node_base + corner_field(flow_.last_tile, a.segment()));
    abbey_mayor_.barn_placed = true;
  } else {
    place_figure(p, a.figure(), pt.node_base + a.segment());
  }
  after_deploy();
}

void State::after_deploy() {
  collect_completed();
  if (count_in_play() && completed_.num_features > 0) {  // C6: a redeploy lap before the scoring
    start_lap();
    return;
  }
  score_turn();
}

void State::score_turn() {
  flow_.scored_mask = 0;
  abbey_mayor_.wagons_to_move = 0;
  flow_.turn_scoring = true;
  score_completed();
  flow_.turn_scoring = false;
  const uint8_t me = static_cast<uint8_t>(1 << flow_.turn_player);
  // C3: others scored, the placer did not (decided now, offered after the wagons have moved).
  count_.deploy_due = count_in_play() && flow_.scored_mask && !(flow_.scored_mask & me);
  flow_.acting = flow_.turn_player;
  continue_wagons();
}

void State::after_wagons() {
  if (count_.deploy_due && offer_count_deploy()) return;
  end_turn();
}

void State::end_turn() {
  if (abbey_mayor_.in_abbey_round) {  // the abbey round goes on with the next player
    flow_.acting = next_seat(flow_.turn_player);
    --abbey_mayor_.round_left;
    continue_abbey_round();
    return;
  }
  flow_.turn_player = next_seat(flow_.turn_player);
  start_turn();
}

void State::end_of_tiles() {
  if (start_abbey_round()) return;
  if (count_in_play()) {
    start_final_redeploy();
    return;
  }
  finish_game();
}

void State::finish_game() {
  final_scoring();
  flow_.phase = Phase::kGameOver;
}

}  // namespace meeple
