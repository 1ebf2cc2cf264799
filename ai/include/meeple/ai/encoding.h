// The board encoding every learner reads: a position as planes over a square window of cells plus a flat
// vector, seen from one seat, and every action as an id in one fixed space aligned with those planes.
//
// Window. kWindow x kWindow cells centred on the placed tiles and the empty cells around them. Over 40,000
// random games of every expansion set with 2 and 6 players the board with its frontier spanned at most 32
// cells (median 22, 99.9th percentile 29; MCTS games are more compact: 19 of 200), and the engine's own
// cell table makes the same bound its common case (State::kNarrowSpan). A board that grows past the window
// is never cropped silently: observe() returns false and sets the flat field `outside_window`, the cells
// beyond the window are left out of the planes, and their placements have no id (id_of() returns -1,
// legal_mask() counts them in its result). Environments end such an episode as truncated.
//
// Orientation. Every function takes `turns`, the board turned that many quarter turns clockwise: the window
// of orientation 0 is turned with it, so observe(s, seat, k) is exactly rotate_planes(observe(s, seat, 0), k)
// and a legal action's id in orientation k is rotate_id() of its id in orientation 0. Reflections are no
// symmetry of the game (tiles have a handedness), so rotations are the whole group training may augment with.
//
// Nothing here allocates but the tables for documentation (plane_channels, flat_fields).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "meeple/state.h"

namespace meeple {

// Bumped whenever a channel, a flat field or an id changes meaning: network files name the version
// they were trained on, and a file of another version is refused.
inline constexpr int kEncodingVersion = 1;
inline constexpr int kWindow = 32;
inline constexpr int kWindowCells = kWindow * kWindow;

// Which cells the planes show: cell (x, y) of the board is at row y - y0, column x - x0.
struct Window {
  int x0 = 0, y0 = 0;
  int turns = 0;       // quarter turns clockwise of the board as encoded
  bool fits = true;    // the placed tiles and the empty cells next to them all lie inside
  static Window of(const State& s, int turns = 0);
  // Index (row * kWindow + column) of board cell (x, y) in this orientation, or -1 outside.
  int cell(int x, int y) const;
  // The board cell at a window index (the inverse of cell()).
  CellKey key(int cell) const;
};

// The action id space: the same for every rules and board. A placement is (window cell, rotation), an
// abbey a window cell; a deploy (figure, segment of the tile just placed; a barn's corner); the Count's
// deploy (figure, quarter, where the Count goes); a redeploy (figure, feature) and a wagon's move (feature)
// name their feature by its first segment ever placed (its smallest node: a spot on one placed tile,
// whichever way the union-find's root lies).
namespace action_id {
inline constexpr int kPass = 0;
inline constexpr int kPlace = 1;                                  // + 4 * cell + rotation
inline constexpr int kAbbey = kPlace + 4 * kWindowCells;          // + cell
inline constexpr int kDeploy = kAbbey + kWindowCells;             // + figure * kMaxSegments + segment
inline constexpr int kCountDeploy = kDeploy + 4 * kMaxSegments;   // + (figure * 4 + quarter) * 5 + count_to
inline constexpr int kRedeploy = kCountDeploy + 3 * kNumQuarters * (kNumQuarters + 1);  // + figure * kMaxNodes + node
inline constexpr int kWagon = kRedeploy + 3 * kMaxNodes;          // + node
inline constexpr int kEnd = kWagon + kMaxNodes;  // the number of ids
}  // namespace action_id

// A name and a sentence for each plane and flat field: the table in docs/environments.md is generated
// from these (python -m meeple encoding --markdown).
struct Channel {
  std::string name;
  std::string what;
};

class Encoding {
 public:
  // The layout depends on the number of players only (seat channels); every tile type of every
  // expansion has its entry, so one network can read games of any expansion set with that many players.
  explicit Encoding(int players);
  int players() const { return players_; }

  // Planes: uint8 [num_planes][kWindow][kWindow], counts and flags (see plane_channels).
  int num_planes() const { return kBoardPlanes + kSeatPlanes * players_; }
  int plane_size() const { return num_planes() * kWindowCells; }
  // Flat: float32 [flat_size] (see flat_fields).
  int flat_size() const { return flat_.size; }
  static constexpr int num_action_ids() { return action_id::kEnd; }

  // Seat `seat`'s observation (seats in every seat field are counted from it round the table), written
  // over `planes` (plane_size() bytes) and `flat` (flat_size() floats). False when the board did not fit
  // the window (see the header's comment). Throws std::invalid_argument for a seat or a state of another
  // player count.
  bool observe(const State& s, int seat, uint8_t* planes, float* flat, int turns = 0) const;

  // Writes 1 at the id of every legal action and 0 elsewhere (num_action_ids() bytes); returns the number
  // of legal actions the window left without an id (0 unless the board outgrew it). Placements that only
  // differ by a symmetric tile's rotation have the id of the one legal_actions() lists.
  int legal_mask(const State& s, uint8_t* mask, int turns = 0) const;
  // The id of an action in this state, or -1 (a draw, or a cell outside the window).
  static int id_of(const State& s, Action a, int turns = 0);
  static int id_of(const State& s, const Window& w, Action a);
  // The action an id names in this state, or Action::none() for an id that names nothing here (out of
  // range, a feature node not on the board). Legality is the caller's check (State::is_legal).
  static Action action_of(const State& s, int id, int turns = 0);

  // Symmetry on encoded arrays: the planes (in place through a scratch buffer of plane_size() bytes), the
  // flat vector (the placed tile's rotation) and action ids of a position turned `turns` quarter turns
  // clockwise. `in_hand` is the tile type in hand (State::drawn_tile(), -1 for none): a symmetric tile's
  // turned placement takes the rotation legal_actions() lists.
  void rotate_planes(uint8_t* planes, uint8_t* scratch, int turns) const;
  void rotate_flat(float* flat, int turns) const;
  static int rotate_id(int id, int turns, int in_hand);

  std::vector<Channel> plane_channels() const;
  std::vector<Channel> flat_fields() const;

  // Plane numbers. Per edge: N E S W of the board as encoded.
  enum : int {
    kTile, kAbbeyTile, kCityEdge, kRoadEdge = kCityEdge + 4, kRiverEdge = kRoadEdge + 4, kCloister = kRiverEdge + 4,
    kShrine, kPennants, kCountCity, kAround, kOpenEdges, kFeatureTiles = kOpenEdges + 4, kFrontier = kFeatureTiles + 4,
    kFits, kAbbeyFits = kFits + 4, kLastPlaced, kBoardPlanes,
  };
  // Per seat (seat k from the observer at kBoardPlanes + k * kSeatPlanes + offset).
  enum : int { kOnEdge, kOnBuilding = 4, kOnField, kFollowers, kSpecial, kSeatPlanes };

  // Flat field offsets, computed from the player count.
  struct FlatLayout {
    int in_hand, placed, placed_rotation, remaining, tiles_left, phase, acting, turn, scores, followers, specials,
        abbeys, king, robber, count_quarter, in_quarters, expansions, outside_window, size;
  };
  const FlatLayout& flat_layout() const { return flat_; }

 private:
  int players_;
  int tile_types_;
  FlatLayout flat_{};
};

}  // namespace meeple
