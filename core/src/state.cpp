// The turn flow (RULES.md section 8): construction and setup, who acts, chance draws, applying actions
// and the steps of a turn between them. Placement and features are in board.cpp, legal actions in
// moves.cpp, scoring in scoring.cpp, the messages of refused actions in errors.cpp, and each
// expansion's own phases in its file.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "engine.h"

namespace meeple {

namespace {

// Piles tiles are drawn from, in order: with the River II the fork comes first, then the river tiles,
// then the volcano lake; normal tiles follow when those are empty (R2).
enum Pile : int { kNormalPile = 0, kForkPile = 1, kRiverPile = 2, kLakePile = 3 };

struct PileTable {
  std::array<uint8_t, kMaxTileTypes> pile{};
  std::array<std::vector<uint8_t>, 4> members;  // tile types of each pile, ascending
  PileTable() {
    for (const TileType& t : cat().tiles()) {
      if (t.index >= kMaxTileTypes) throw std::logic_error("more tile types than kMaxTileTypes");
      pile[t.index] = t.has(kFlagFork) ? kForkPile
                      : t.has(kFlagLake) ? kLakePile
                      : (t.river && !t.has(kFlagSpring)) ? kRiverPile : kNormalPile;
      members[pile[t.index]].push_back(t.index);
    }
  }
};
const PileTable& pile_table() {
  static const PileTable table;
  return table;
}
// Resolved at start-up: the table is read on every draw (a function-local static checks a guard each time).
const PileTable& kPiles = pile_table();
const PileTable& piles() { return kPiles; }

}  // namespace

const char* to_string(Phase p) {
  switch (p) {
    case Phase::kDraw: return "draw";
    case Phase::kPlace: return "place";
    case Phase::kDeploy: return "deploy";
    case Phase::kRedeploy: return "redeploy";
    case Phase::kCountDeploy: return "count deploy";
    case Phase::kFinalRedeploy: return "final redeploy";
    case Phase::kTurnStart: return "turn start (abbey or draw)";
    case Phase::kWagonMove: return "wagon move";
    case Phase::kAbbeyRound: return "abbey round";
    case Phase::kGameOver: return "game over";
  }
  return "?";
}

const char* category_name(int category) {
  static constexpr const char* names[kNumCategories] = {"city", "road", "cloister", "field", "bonus"};
  return names[category];
}

bool ActionList::contains(Action a) const { return std::find(begin(), end(), a) != end(); }

// ---- Construction ---------------------------------------------------------------------------------

State::State(const Rules& rules) : rules_(rules) {
  // The first position depends on the rules alone: each thread keeps the last one it built, and a game
  // with the same rules starts as a copy of it (setting up decks and the Count's City cost up to a
  // fifth of a random game).
  thread_local std::optional<State> last;
  if (last && last->rules_ == rules) {
    *this = *last;
    return;
  }
  *this = State(rules, {});
  last = *this;
}

State::State(const Rules& rules, std::span<const uint8_t> deck_counts) : rules_(rules) {
  rules_.validate();
  // Only what is read before it is written. Tiles, frontier cells and feature nodes are used up to
  // board_.num_tiles, board_.frontier_size and features_.num_nodes, each written when it comes into use: clearing the KiBs
  // behind them cost 8% of a random game. The frontier is the exception: frontier_set reads the entry
  // past the last before it knows whether the cell is new (and discards it if so), and placement listing
  // reads whole blocks of 16 entries past the last (fitting_masks). The table of figure strengths is used
  // by entry, not up to a count: all of it starts empty and free. Setting up is rare: a new game is a copy
  // of the thread's last first position (State(const Rules&)).
  board_.cells.fill(kEmptySlot);
  board_.frontier.fill(0);
  features_.strengths.fill(0);
  features_.free_entries = Features::kAllEntries;
  for (auto& f : tally_.figures) f.fill(kInSupply);
  setup(deck_counts);
}

void State::setup(std::span<const uint8_t> deck_counts) {
  const TileCatalog& c = cat();
  auto add_set = [&](const char* name) {
    for (auto [tile, copies] : c.set(name)->counts) tally_.remaining[tile] += copies;
  };
  const int start = c.find("BA.RCr");
  if (deck_counts.empty()) {
    add_set("base");
    if (rules_.has(kKingRobber)) add_set("king_robber");
    if (rules_.has(kCultPlaces)) {  // S5: the chosen shrine sets
      const uint8_t sets = rules_.option(Option::kShrineSets);
      if (sets & 1) add_set("shrines_ckr");
      if (sets & 2) add_set("shrines_csc");
      if (sets & 4) add_set("shrines_spielbox");
    }
    if (rules_.has(kAbbeyMayor)) add_set("abbey_mayor");
  } else {
    if (deck_counts.size() > static_cast<size_t>(c.size())) throw std::invalid_argument("deck: too many tile types");
    for (size_t t = 0; t < deck_counts.size(); ++t) {
      if (deck_counts[t] && piles().pile[t] != kNormalPile)
        throw std::invalid_argument("deck: " + c[static_cast<int>(t)].id +
                                    " is not a land tile for the deck (the river, the Count's block and abbeys come from the rules)");
      if (deck_counts[t] && (c[static_cast<int>(t)].flags & (kFlagSpring | kFlagBlock | kFlagAbbey)))
        throw std::invalid_argument("deck: " + c[static_cast<int>(t)].id +
                                    " is not a land tile for the deck (the spring, the Count's block and abbeys come from the rules)");
      tally_.remaining[t] = deck_counts[t];
    }
  }
  if (rules_.has(kCount)) {
    // C1: the City of Carcassonne replaces the start tile, CO.7 at the origin; the start tile is removed.
    if (deck_counts.empty()) --tally_.remaining[start];
    for (int i = 0; i < 12; ++i)
      place_tile(c.find("CO." + std::to_string(i + 1)), 0, cell_key(i % 4 - 2, i / 4 - 1));
    count_.quarter = kCastle;
  }
  if (rules_.has(kRiver2)) {
    // R1: the spring starts the river (east of the block with the Count); the base start tile is
    // shuffled in with the normal tiles, unless the Count removed it.
    for (auto [tile, copies] : c.set("river2")->counts)
      if (!c[tile].has(kFlagSpring)) tally_.remaining[tile] += copies;
    place_tile(c.find("RI.spring"), 0, rules_.has(kCount) ? cell_key(2, -1) : cell_key(0, 0));
  } else if (!rules_.has(kCount)) {
    if (deck_counts.empty()) --tally_.remaining[start];
    place_tile(start, 0, cell_key(0, 0));
  }

  // Capacity: every remaining tile must fit in the fixed arrays, whatever the deck.
  int tiles = board_.num_tiles, nodes = features_.num_nodes;
  for (int t = 0; t < c.size(); ++t) {
    tiles += tally_.remaining[t];
    nodes += tally_.remaining[t] * c[t].num_segments;
    tally_.pile_left[piles().pile[t]] = static_cast<uint16_t>(tally_.pile_left[piles().pile[t]] + tally_.remaining[t]);
  }
  const int abbeys = rules_.has(kAbbeyMayor) ? rules_.players : 0;  // one segment each
  if (tiles > kMaxLandTiles || tiles + abbeys > kMaxTiles || nodes + abbeys > kMaxNodes)
    throw std::invalid_argument("deck too large: " + std::to_string(tiles) + " land tiles with " + std::to_string(nodes) +
                                " feature segments; the engine holds at most " + std::to_string(kMaxLandTiles) +
                                " land tiles and " + std::to_string(kMaxNodes) + " segments");
  if (rules_.has(kAbbeyMayor)) abbey_mayor_.abbeys = static_cast<uint8_t>((1 << rules_.players) - 1);
  flow_.last_tile = -1;
  flow_.turn_player = 0;
  start_turn();
}

// ---- Who acts, chance --------------------------------------------------------------------------------

int State::current_player() const {
  switch (flow_.phase) {
    case Phase::kDraw: return kChance;
    case Phase::kGameOver: return kTerminal;
    case Phase::kRedeploy:
    case Phase::kCountDeploy:
    case Phase::kFinalRedeploy:
    case Phase::kWagonMove:
    case Phase::kAbbeyRound: return flow_.acting;
    default: return flow_.turn_player;
  }
}

int State::draw_pile(int tile) { return piles().pile[tile]; }
std::span<const uint8_t> State::pile_members(int pile) { return piles().members[pile]; }

void State::chance_outcomes(ChanceOutcomes& out) const {
  out.size = 0;
  out.total = 0;
  if (flow_.phase != Phase::kDraw) return;
  for (const uint8_t t : piles().members[drawable_pile()]) {
    if (tally_.remaining[t]) {
      out.items[out.size++] = ChanceOutcome{t, tally_.remaining[t]};
      out.total += tally_.remaining[t];
    }
  }
}

int State::sample_draw_tile(uint64_t random_below_left) const {
  int r = static_cast<int>(random_below_left);
  for (const uint8_t t : piles().members[drawable_pile()]) {
    if (r < tally_.remaining[t]) return t;
    r -= tally_.remaining[t];
  }
  return -1;
}

// A new turn: with Abbey & Mayor the player may place the abbey instead of drawing (A1).
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

// After the last tile: the abbey round (A4), the Count's final redeploy (C9), final scoring (B11).
void State::end_of_tiles() {
  if (!abbey_mayor_.in_abbey_round && abbey_mayor() && abbey_mayor_.abbeys && rules_.on(Option::kAbbeyEndRound)) {
    abbey_mayor_.in_abbey_round = true;
    flow_.acting = next_seat(flow_.last_placer);
    abbey_mayor_.round_left = rules_.players;
    continue_abbey_round();
    return;
  }
  if (count_in_play()) {  // C9, starting left of the player who placed the last land tile
    flow_.acting = next_seat(flow_.last_placer);
    count_.out_mask = 0;
    continue_final_redeploy();
    return;
  }
  finish_game();
}

void State::finish_game() {
  final_scoring();
  flow_.phase = Phase::kGameOver;
}

// ---- Applying actions --------------------------------------------------------------------------------

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

void State::apply(Action a) {
  switch (a.kind()) {
    case Action::kDraw: {
      const int t = a.tile();
      --tally_.remaining[t];
      --tally_.pile_left[draw_pile(t)];
      flow_.drawn = static_cast<int16_t>(t);
      flow_.phase = Phase::kPlace;
      if (!has_placement()) {  // B4: fits nowhere; removed, and the same player draws again
        ++flow_.discarded;
        start_draw();
      }
      return;
    }
    case Action::kAbbey:
      place_abbey(a.cell());
      return;
    case Action::kWagon:
      place_figure(flow_.acting, Figure::kWagon, a.node());
      wagon_done(flow_.acting);
      continue_wagons();
      return;
    case Action::kPlace: {
      place_tile(flow_.drawn, a.rotation(), a.cell());
      flow_.last_tile = static_cast<int16_t>(board_.num_tiles - 1);
      flow_.last_placer = flow_.turn_player;
      flow_.drawn = -1;
      abbey_mayor_.barn_placed = false;
      if (can_deploy()) {
        flow_.phase = Phase::kDeploy;
      } else {
        after_deploy();
      }
      return;
    }
    case Action::kDeploy: {
      const int p = flow_.turn_player;
      const PlacedTile& pt = board_.tiles[flow_.last_tile];
      if (a.figure() == Figure::kBarn) {
        tally_.figures[p][kBarnSlot] = static_cast<uint16_t>(pt.node_base + corner_field(flow_.last_tile, a.segment()));
        abbey_mayor_.barn_placed = true;
      } else {
        place_figure(p, a.figure(), pt.node_base + a.segment());
      }
      after_deploy();
      return;
    }
    case Action::kCountDeploy:
      count_deploy(a);
      end_turn();
      return;
    case Action::kRedeploy:
      move_from_quarter(flow_.acting, a.moved_figure(), a.quarter(), a.node());
      if (flow_.phase == Phase::kRedeploy) {
        continue_lap();  // the same player may move more
      } else {
        flow_.acting = next_seat(flow_.acting);
        continue_final_redeploy();
      }
      return;
    case Action::kPass:
      switch (flow_.phase) {
        case Phase::kDeploy: after_deploy(); return;
        case Phase::kRedeploy:
          flow_.acting = next_seat(flow_.acting);
          --count_.lap_left;
          continue_lap();
          return;
        case Phase::kCountDeploy: end_turn(); return;
        case Phase::kTurnStart: flow_.phase = Phase::kDraw; return;  // draw instead of placing the abbey
        case Phase::kAbbeyRound:
          flow_.acting = next_seat(flow_.acting);
          --abbey_mayor_.round_left;
          continue_abbey_round();
          return;
        case Phase::kWagonMove:  // the wagon stays in supply
          wagon_done(flow_.acting);
          continue_wagons();
          return;
        case Phase::kFinalRedeploy:
          count_.out_mask = static_cast<uint8_t>(count_.out_mask | (1 << flow_.acting));
          flow_.acting = next_seat(flow_.acting);
          continue_final_redeploy();
          return;
        default: return;
      }
    case Action::kNone: break;
  }
}

void State::after_deploy() {
  collect_completed();
  if (count_in_play() && completed_.num_features > 0) {  // C6: a redeploy lap before the scoring
    flow_.acting = next_seat(flow_.turn_player);
    count_.lap_left = rules_.players;
    continue_lap();
    return;
  }
  score_and_continue();
}

void State::score_and_continue() {
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

// After the wagons: the Count deploy if due and possible, then the next turn.
void State::after_wagons() {
  if (count_.deploy_due) {
    count_.deploy_due = false;
    flow_.acting = flow_.turn_player;
    ActionList options;
    options.size = 0;
    generate_count_deploys(options);
    if (options.size > 0) {
      flow_.phase = Phase::kCountDeploy;
      return;
    }
  }
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

void State::place_figure(int player, Figure f, int node) {
  tally_.figures[player][slot_in_supply(player, f)] = static_cast<uint16_t>(node);
  add_figure_at(find(node), player);
  const PlacedTile& pt = board_.tiles[features_.node_tile[node]];
  if (rules_.has(kCultPlaces) && node - pt.node_base == cat()[pt.type].cloister) maybe_challenge(features_.node_tile[node], player);
}

int State::followers_in_supply(int player) const {
  int n = 0;
  for (int slot = 0; slot < kFollowersPerPlayer; ++slot) n += tally_.figures[player][slot] == kInSupply;
  return n;
}

}  // namespace meeple
