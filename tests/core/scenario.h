// Building positions by hand for rule tests: a small board, action by action, with a chosen deck.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "meeple/random.h"
#include "meeple/record.h"
#include "meeple/state.h"

namespace meeple::testing {

// Copies per tile id, as the record's rules.deck.
inline std::vector<uint8_t> deck_of(const std::map<std::string, int>& copies) {
  const TileCatalog& c = TileCatalog::get();
  std::vector<uint8_t> deck(c.size(), 0);
  for (const auto& [id, n] : copies) {
    const int t = c.find(id);
    if (t < 0) throw std::invalid_argument("no tile " + id);
    deck[t] = static_cast<uint8_t>(n);
  }
  return deck;
}

inline Rules rules_with(int players, uint8_t expansions = 0) {
  Rules r;
  r.players = static_cast<uint8_t>(players);
  r.expansions = expansions;
  return r;
}

// A decision node: `actions` actions from the start of a game (tiles dealt by Dealer(seed), decisions
// uniform with Rng(seed), as RandomPlayer(seed) plays), then the draws up to the next decision.
inline State random_position(const Rules& rules, uint64_t seed, int actions) {
  Dealer dealer(seed);
  Rng rng(seed);
  State s(rules);
  for (int i = 0; i < actions && !s.is_terminal(); ++i) s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
  while (s.is_chance()) s.apply(dealer.deal(s));
  return s;
}

// Feature node of the city, road or river on board edge `edge` ("N".."W") of the tile at (x, y).
inline int edge_node(const State& s, int x, int y, const char* edge) {
  const int idx = s.tile_at(x, y);
  if (idx < 0) throw std::invalid_argument("no tile at that cell");
  const PlacedTile& pt = s.tile(idx);
  const uint8_t seg = TileCatalog::get()[pt.type].rot[pt.rotation].edge_segment[parse_edge(edge)];
  if (seg == kNoSegment) throw std::invalid_argument("no feature on that edge");
  return s.node(idx, seg);
}

// Feature node of the field on board half-edge `half` ("NL".."WR") of the tile at (x, y).
inline int field_node(const State& s, int x, int y, const char* half) {
  const int idx = s.tile_at(x, y);
  if (idx < 0) throw std::invalid_argument("no tile at that cell");
  const PlacedTile& pt = s.tile(idx);
  const uint8_t seg = TileCatalog::get()[pt.type].rot[pt.rotation].half_segment[parse_half(half)];
  if (seg == kNoSegment) throw std::invalid_argument("no field there");
  return s.node(idx, seg);
}

// A game whose drawable tiles are exactly `deck` (the start tile, or the river, come from the rules).
// The game ends, with final scoring, when the deck is used up.
struct Scenario {
  State state;
  Scenario(const Rules& rules, const std::map<std::string, int>& deck) : state(rules, deck_of(deck)) {}

  // Draws `tile`, places it at (x, y) rotated `rot` degrees clockwise, then deploys a follower at the
  // record location `at` ("N", "SL", "C", "I1", ...) or deploys nothing when `at` is empty. Throws
  // (failing the test) with the engine's message if any step is illegal. When the deploy decision is
  // skipped by the engine (no legal deploy), `at` must be empty.
  void turn(const std::string& tile, int x, int y, int rot, const std::string& at = "") {
    draw(tile);
    place(x, y, rot);
    if (state.phase() == Phase::kDeploy && state.turn_player() == state.current_player() && state.last_tile() >= 0 &&
        state.tile(state.last_tile()).x == x && state.tile(state.last_tile()).y == y) {
      deploy(at);
    } else if (!at.empty()) {
      throw std::runtime_error("cannot deploy at " + at + ": the engine skipped the deploy decision");
    }
  }
  void draw(const std::string& tile) { apply(nlohmann::json{{"draw", tile}}); }
  void place(int x, int y, int rot) { apply(nlohmann::json{{"place", {x, y, rot}}}); }
  void deploy(const std::string& at) {
    if (at.empty()) {
      apply(nlohmann::json{{"deploy", nullptr}});
    } else {
      apply(nlohmann::json{{"deploy", {{"figure", "follower"}, {"at", at}}}});
    }
  }
  void apply(const nlohmann::json& action) {
    const Action a = action_from_json(state, action);
    const std::string err = state.try_apply(a);
    if (!err.empty()) throw std::runtime_error(action.dump() + ": " + err);
  }
  // Record-style check of legality without changing the state.
  bool legal(const nlohmann::json& action) const {
    try {
      return state.is_legal(action_from_json(state, action));
    } catch (const std::invalid_argument&) {
      return false;
    }
  }
  int score(int player) const { return state.score(player); }
  int score(int player, ScoreCategory c) const { return state.score(player, c); }
};

// Seats 0, 1, ... have these scores (totals, or one category): EXPECT_TRUE(scores_are(sc, {4, 0}, kCityPoints)).
inline ::testing::AssertionResult scores_are(const Scenario& sc, std::initializer_list<int> want, int category = -1) {
  std::string got_text, want_text;
  bool same = true;
  int p = 0;
  for (int w : want) {
    const int got = category < 0 ? sc.state.score(p) : sc.state.score(p, category);
    same = same && got == w;
    got_text += (p ? ", " : "") + std::to_string(got);
    want_text += (p ? ", " : "") + std::to_string(w);
    ++p;
  }
  if (same) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << (category < 0 ? "scores" : std::string(category_name(category)) + " points")
                                       << " of seats 0.. are {" << got_text << "}, expected {" << want_text << "}";
}

// A 2-player board with a contested farm: the start's north field (seat 0's farmer, via BA.RFr at (1,0))
// and BA.C's field north of the closed start city (seat 1's farmer) joined by BA.L at (1,-1): one farmer
// each, 3 points each; seat 0 has a second farmer in the start's south field (via BA.L at (0,1)). The deck
// must hold at least BA.RFr, BA.C and two BA.L. Seat 0 draws next.
inline void build_contested_farm(Scenario& sc) {
  sc.turn("BA.RFr", 1, 0, 0, "NL");
  sc.turn("BA.C", 0, -1, 180, "NL");
  sc.turn("BA.L", 0, 1, 0, "NL");
  sc.turn("BA.L", 1, -1, 0);
}

}  // namespace meeple::testing
