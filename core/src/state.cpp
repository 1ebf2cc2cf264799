// Construction and setup, chance draws and figures in supply. The turn is in turn.cpp, placement and
// features in board.cpp, legal actions in moves.cpp, scoring in scoring.cpp, and each expansion's rules
// in its file.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "engine.h"

namespace meeple {


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
      if (deck_counts[t] && kPiles.pile[t] != kNormalPile)
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
    tally_.pile_left[kPiles.pile[t]] = static_cast<uint16_t>(tally_.pile_left[kPiles.pile[t]] + tally_.remaining[t]);
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

// ---- Chance --------------------------------------------------------------------------------------


void State::chance_outcomes(ChanceOutcomes& out) const {
  out.size = 0;
  out.total = 0;
  if (flow_.phase != Phase::kDraw) return;
  for (const uint8_t t : kPiles.members[drawable_pile()]) {
    if (tally_.remaining[t]) {
      out.items[out.size++] = ChanceOutcome{t, tally_.remaining[t]};
      out.total += tally_.remaining[t];
    }
  }
}

int State::sample_draw_tile(uint64_t random_below_left) const {
  int r = static_cast<int>(random_below_left);
  for (const uint8_t t : kPiles.members[drawable_pile()]) {
    if (r < tally_.remaining[t]) return t;
    r -= tally_.remaining[t];
  }
  return -1;
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
