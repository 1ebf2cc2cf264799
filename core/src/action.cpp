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

const char* corner_name(int corner) {
  static constexpr const char* names[4] = {"NE", "SE", "SW", "NW"};
  return corner >= 0 && corner < 4 ? names[corner] : "?";
}

int parse_corner(const std::string& name) {
  for (int k = 0; k < 4; ++k)
    if (name == corner_name(k)) return k;
  return -1;
}

const char* quarter_name(int quarter) {
  static constexpr const char* names[kNumQuarters] = {"castle", "market", "blacksmith", "cathedral"};
  return quarter >= 0 && quarter < kNumQuarters ? names[quarter] : "?";
}

int parse_quarter(const std::string& name) {
  for (int q = 0; q < kNumQuarters; ++q)
    if (name == quarter_name(q)) return q;
  return -1;
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
    case kCountDeploy:
      return "count_deploy(" + std::string(meeple::to_string(figure())) + "," + quarter_name(quarter()) + ",count to " +
             (count_to() == kCountStays ? "stay" : quarter_name(count_to())) + ")";
    case kAbbey: return "abbey(" + std::to_string(x()) + "," + std::to_string(y()) + ")";
    case kWagon: return "wagon(to node " + std::to_string(node()) + ")";
    case kRedeploy:
      return "redeploy(" + std::string(meeple::to_string(moved_figure())) + " from " + quarter_name(quarter()) + " to node " +
             std::to_string(node()) + ")";
  }
  return "action(" + std::to_string(bits()) + ")";
}

}  // namespace meeple
