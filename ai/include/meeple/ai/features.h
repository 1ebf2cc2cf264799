// Evaluator features: what a position promises each player, as a fixed vector of numbers per player.
//
// The extractor writes into a caller-owned buffer (one row per player, kNumFeatures columns) and
// allocates nothing, so search can call it at every leaf. Evaluators (evaluator.h) turn rows into an
// estimate of each player's final score; training (issue 7) fits their weights to self-play outcomes.
//
// Completion odds. An open city or road needs every empty cell on its open edges filled. A cell where f of
// the L remaining tiles fit (any rotation, by edges) is taken to be filled with probability
// 1 - (1 - f/L)^(L/players): at least one fitting tile among the draws of one player. A feature's odds are
// the product over its distinct cells, so a cell no remaining tile fits (a blocked city) gives 0. A
// cloister's odds take the same product over its empty neighbours; a diagonal neighbour that is not yet on
// the frontier counts as a cell half the tiles fit.
#pragma once

#include <array>
#include <span>

#include "meeple/state.h"

namespace meeple {

enum FeatureIndex : int {
  kFeatBias,                // 1
  kFeatScore,               // points scored so far
  kFeatBoardPoints,         // what final scoring would add if the game ended now (incomplete features,
                            // farms, King and Robber, ...): score + board_points = the greedy value
  kFeatCityCompletion,      // open cities the player leads (or shares): (tiles + pennants) x completion odds
  kFeatCloisterCompletion,  // open cloisters/shrines the player leads: missing neighbours x completion odds
  kFeatSupplyLeft,          // followers in supply x fraction of the tiles still to come
  kFeatReturningLeft,       // own figures on open features x their completion odds x fraction left
  kFeatStuck,               // own figures on open features with completion odds under 5%
  kFeatFarmersLeft,         // own figures on fields x fraction left (farms grow)
  kFeatSharedLeads,         // open features whose lead the player shares with someone
  kFeatOpenLeads,           // open cities, roads and cloisters the player leads
  kFeatKing,                // holds the King (largest completed city)
  kFeatRobber,              // holds the Robber Baron (longest completed road)
  kFeatSpecialLeft,         // mayor, wagon and barn in supply plus abbey in hand, x fraction left
  kFeatQuarterFollowers,    // followers in the Count's quarters
  kFeatTilesLeft,           // fraction of the tiles still to come
  kNumFeatures,
};

// Names as used in weight files, in FeatureIndex order.
inline constexpr std::array<const char*, kNumFeatures> kFeatureNames = {
    "bias", "score", "board_points", "city_completion", "cloister_completion", "supply_left",
    "returning_left", "stuck", "farmers_left", "shared_leads", "open_leads", "king", "robber",
    "special_left", "quarter_followers", "tiles_left",
};

// One row per player, kNumFeatures floats each.
inline constexpr int kFeatureBufferSize = kMaxPlayers * kNumFeatures;

// Writes num_players() rows into `out` (at least num_players() * kNumFeatures floats).
void extract_features(const State& state, std::span<float> out);

// How many of the remaining tiles (copies) fit the i-th frontier cell by its edges, in some rotation:
// what an open cell offers its features, and what blocking it would cost.
int fitting_tiles(const State& state, int frontier_index);

}  // namespace meeple
