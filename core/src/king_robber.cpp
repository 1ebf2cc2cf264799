// King & Robber Baron (docs/rules.md section 4): the King goes to whoever completes a city larger than any
// before (K1), the Robber Baron likewise for roads (K2); at the end they score a point per completed city
// or road (K3). Completed cities and roads are counted in every game: the Count's City needs them too.
#include "engine.h"

namespace meeple {

void State::city_completed(int size) {
  ++king_robber_.completed_cities;
  if (rules_.has(kKingRobber) && size > king_robber_.king_size) {  // K1
    king_robber_.king = static_cast<int8_t>(flow_.turn_player);
    king_robber_.king_size = static_cast<uint8_t>(size);
  }
}

void State::road_completed(int size) {
  ++king_robber_.completed_roads;
  if (rules_.has(kKingRobber) && size > king_robber_.robber_size) {  // K2
    king_robber_.robber = static_cast<int8_t>(flow_.turn_player);
    king_robber_.robber_size = static_cast<uint8_t>(size);
  }
}

// K3, with the Count the City of Carcassonne one more completed city (C8); each payment to `account`
// when one is given.
void State::add_king_robber_points(Scores& to, FinalAccount* account) const {
  if (king_robber_.king >= 0) {
    const int cities = king_robber_.completed_cities + (count_in_play() ? 1 : 0);
    to[king_robber_.king][kBonusPoints] = static_cast<int16_t>(to[king_robber_.king][kBonusPoints] + cities);
    if (account) note_payment(*account, ScoredFeature::kKing, -1, static_cast<uint8_t>(1 << king_robber_.king), cities, cities);
  }
  if (king_robber_.robber >= 0) {
    const int roads = king_robber_.completed_roads;
    to[king_robber_.robber][kBonusPoints] = static_cast<int16_t>(to[king_robber_.robber][kBonusPoints] + roads);
    if (account) note_payment(*account, ScoredFeature::kRobber, -1, static_cast<uint8_t>(1 << king_robber_.robber), roads, roads);
  }
}

}  // namespace meeple
