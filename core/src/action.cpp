#include "meeple/action.h"

#include "meeple/tiles.h"

namespace meeple {

const char* to_string(Figure f) {
  switch (f) {
    case Figure::kFollower: return "follower";
    case Figure::kMayor: return "mayor";
    case Figure::kWagon: return "wagon";
    case Figure::kBarn: return "barn";
  }
  return "?";
}

std::string Action::to_string() const {
  switch (kind()) {
    case kNone: return "none";
    case kPass: return "pass";
    case kDraw: {
      const TileCatalog& c = TileCatalog::get();
      return "draw(" + (tile() < c.size() ? c[tile()].id : std::to_string(tile())) + ")";
    }
    case kPlace:
      return "place(" + std::to_string(x()) + "," + std::to_string(y()) + "," + std::to_string(90 * rotation()) + ")";
    case kDeploy: return "deploy(" + std::string(meeple::to_string(figure())) + ",segment " + std::to_string(segment()) + ")";
  }
  return "action(" + std::to_string(bits()) + ")";
}

}  // namespace meeple
