// Actions: one 32-bit value for every kind of move, ordered so that sorting by value is the canonical
// order of legal actions (kind first, then position or figure).
#pragma once

#include <cstdint>
#include <string>

namespace meeple {

enum class Figure : uint8_t { kFollower = 0, kMayor = 1, kWagon = 2, kBarn = 3 };
const char* to_string(Figure f);

// Corners of a tile for barns, clockwise: corner k lies between half-edges 2k+1 and 2k+2.
enum Corner : uint8_t { kNE = 0, kSE = 1, kSW = 2, kNW = 3 };
const char* corner_name(int corner);
int parse_corner(const std::string& name);  // -1 if unknown

// The Count of Carcassonne's quarters, in the seed's clockwise order (C1, C4), and the features each
// sends followers to: castle cities, market farms, blacksmith roads, cathedral cloisters and shrines.
enum Quarter : uint8_t { kCastle = 0, kMarket = 1, kBlacksmith = 2, kCathedral = 3 };
inline constexpr int kNumQuarters = 4;
inline constexpr int kCountStays = 4;  // count_to of a Count deploy that leaves the Count where it is
const char* quarter_name(int quarter);
int parse_quarter(const std::string& name);  // -1 if unknown

// Board cells are keyed by 16 bits: (y + 128) mod 256 in the high byte, (x + 128) mod 256 in the low
// byte. A game never spans 256 cells in either direction (at most 128 tiles), so keys are unique, and
// the key order (row by row, west to east) is the order in which placements are listed.
using CellKey = uint16_t;
// The coordinates a cell key holds (a game of at most 128 tiles stays within them).
inline constexpr int kMinCoordinate = -128, kMaxCoordinate = 127;
inline constexpr CellKey cell_key(int x, int y) {
  return static_cast<CellKey>((((y + 128) & 0xFF) << 8) | ((x + 128) & 0xFF));
}
inline constexpr int key_x(CellKey k) { return static_cast<int>(k & 0xFF) - 128; }
inline constexpr int key_y(CellKey k) { return static_cast<int>(k >> 8) - 128; }
// Neighbour across edge e (N E S W); y grows south.
inline constexpr CellKey neighbour(CellKey k, int edge) {
  constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  return cell_key(key_x(k) + dx[edge], key_y(k) + dy[edge]);
}

class Action {
 public:
  enum Kind : uint8_t {
    kNone = 0,
    kPass = 1,    // decline the current decision (deploy nothing)
    kDraw = 2,    // chance: this tile type is drawn
    kPlace = 3,   // place the drawn tile on a cell, rotated
    kDeploy = 4,  // put a figure on a segment of the tile just placed
    kCountDeploy = 5,  // Count: a figure from supply into a quarter, and where the Count goes (C3, C4)
    kRedeploy = 6,     // Count: a figure from a quarter onto a feature, named by its root node (C6, C9)
    kAbbey = 7,        // place one's abbey on a cell instead of drawing (A1), or in the end round (A4)
    kWagon = 8,        // move one's wagon onto a feature, named by its root node, after scoring (W2)
  };

  // Trivial so that action lists on the stack cost nothing to create; the value is unspecified until
  // assigned (use Action::none() for "no action").
  Action() = default;
  static constexpr Action none() { return Action(kNone, 0); }
  static constexpr Action pass() { return Action(kPass, 0); }
  static constexpr Action draw(int tile) { return Action(kDraw, static_cast<uint32_t>(tile)); }
  static constexpr Action place(CellKey cell, int rotation) {
    return Action(kPlace, (static_cast<uint32_t>(cell) << 2) | static_cast<uint32_t>(rotation & 3));
  }
  static constexpr Action place(int x, int y, int rotation) { return place(cell_key(x, y), rotation); }
  static constexpr Action deploy(Figure f, int segment) {
    return Action(kDeploy, (static_cast<uint32_t>(f) << 8) | static_cast<uint32_t>(segment));
  }

  static constexpr Action abbey(CellKey cell) { return Action(kAbbey, static_cast<uint32_t>(cell) << 2); }
  static constexpr Action wagon(int node) { return Action(kWagon, static_cast<uint32_t>(node)); }
  static constexpr Action count_deploy(Figure f, int quarter, int count_to) {
    return Action(kCountDeploy, (static_cast<uint32_t>(f) << 8) | (static_cast<uint32_t>(quarter) << 4) |
                                    static_cast<uint32_t>(count_to));
  }
  static constexpr Action redeploy(int quarter, Figure f, int node) {
    return Action(kRedeploy, (static_cast<uint32_t>(quarter) << 20) | (static_cast<uint32_t>(f) << 16) |
                                 static_cast<uint32_t>(node));
  }

  constexpr Kind kind() const { return static_cast<Kind>(bits_ >> 24); }
  constexpr int tile() const { return static_cast<int>(bits_ & 0xFF); }
  constexpr CellKey cell() const { return static_cast<CellKey>((bits_ >> 2) & 0xFFFF); }
  constexpr int x() const { return key_x(cell()); }
  constexpr int y() const { return key_y(cell()); }
  constexpr int rotation() const { return static_cast<int>(bits_ & 3); }
  constexpr Figure figure() const { return static_cast<Figure>((bits_ >> 8) & 0xFF); }
  constexpr int segment() const { return static_cast<int>(bits_ & 0xFF); }  // a barn's: its corner
  // Count deploy: the quarter entered and the Count's new quarter (kCountStays: it does not move).
  constexpr int quarter() const { return kind() == kRedeploy ? static_cast<int>((bits_ >> 20) & 3) : static_cast<int>((bits_ >> 4) & 0xF); }
  constexpr int count_to() const { return static_cast<int>(bits_ & 0xF); }
  // Redeploy: the figure moved and the feature (root node) it goes to.
  constexpr Figure moved_figure() const { return static_cast<Figure>((bits_ >> 16) & 0xF); }
  constexpr int node() const { return static_cast<int>(bits_ & 0xFFFF); }  // redeploy and wagon

  constexpr uint32_t bits() const { return bits_; }
  static constexpr Action from_bits(uint32_t b) { return Action(static_cast<Kind>(b >> 24), b & 0xFFFFFF); }
  constexpr bool operator==(const Action&) const = default;
  constexpr auto operator<=>(const Action&) const = default;

  std::string to_string() const;  // for messages: "place(2,-1,90)", "deploy(follower,seg 1)", ...

 private:
  constexpr Action(Kind k, uint32_t payload) : bits_((static_cast<uint32_t>(k) << 24) | payload) {}
  uint32_t bits_;
};

}  // namespace meeple
