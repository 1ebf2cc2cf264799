// The game API. Read this header as the specification of a Carcassonne game state.
//
// A State is one position of one game: the board, the features on it, every figure, the scores, the
// public counts of tiles still to come, and whose decision it is. It is trivially copyable and a few KiB
// (see kStateBytes): search copies it freely, so nothing in it points elsewhere and nothing allocates.
// It does NOT contain the order of the tiles still to be drawn: that is hidden information, and it lives
// with whoever deals the tiles (a Dealer, a record being replayed, a search's own sampler). A copy of a
// State handed to a bot therefore cannot reveal future draws.
//
// A game is a sequence of nodes. At a chance node (current_player() == kChance) the next tile is drawn:
// chance_outcomes() lists the tile types with their probabilities (remaining copies / remaining tiles of
// the pile being drawn from) and the dealer applies Action::draw(tile). At a decision node the player
// current_player() chooses one of legal_actions(). The player to act may differ from the player whose
// turn it is (turn_player()), so expansions can add decisions taken by other players.
//
// The phases of a turn (docs/rules.md section 8), with the actions they take:
//   kDraw    chance: Action::draw(tile). A tile that fits nowhere is removed from the game and the same
//            player draws again (B4); with the River, forced draws (the fork) are chance nodes with one
//            outcome.
//   kPlace   Action::place(x, y, rotation): the drawn tile on a frontier cell.
//   kDeploy  Action::deploy(figure, segment) on an unoccupied feature of the tile just placed, or
//            Action::pass(). Skipped when passing is the only choice (no figure in supply, or nothing
//            free on the tile): records never contain forced decisions.
//   kRedeploy  (the Count) when features were completed: one lap from the player left of the placer to
//            the placer; each may move followers from the matching quarter onto those features with
//            Action::redeploy, one action at a time, then Action::pass() (C6).
//   Scoring of completed features, challenges, King and Robber updates happen automatically.
//   kCountDeploy (the Count) when others scored this turn and the placer did not: Action::count_deploy
//            or Action::pass() (C3, C4).
//   kFinalRedeploy (the Count) after the last tile: round-robin, one Action::redeploy or a pass (which
//            drops that player out) each, until everybody has passed (C9).
//   kGameOver after the last tile: final scoring (B11) has been applied and scores are final.
//   With Abbey & Mayor a turn may start with kTurnStart (abbey or draw), figures are followers, the mayor,
//   the wagon (which may move after its feature scores: kWagonMove) and the barn (deployed on a corner),
//   and after the last tile comes the abbey round (kAbbeyRound) before the Count's final redeploy.
// In the Count's and the wagons' phases current_player() is the player deciding, not turn_player().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "meeple/action.h"
#include "meeple/rules.h"
#include "meeple/tiles.h"

namespace meeple {

namespace engine { class NodeSet; }  // core/src/engine.h

// Capacities. They bound every real game: every set together, all three shrine sets included, is 128 land
// tiles (the Count removes the start tile) with 450 feature segments, plus six abbeys; a custom deck that
// would exceed them is refused when the game is created.
inline constexpr int kMaxPlayers = 6;
inline constexpr int kMaxLandTiles = 128;                // land tiles, start block included: a straight line
                                                         // of them stays within int8 coordinates and 8-bit keys
inline constexpr int kMaxTiles = kMaxLandTiles + kMaxPlayers;  // and the abbeys
inline constexpr int kMaxNodes = 576;                    // feature segments on the board
inline constexpr int kMaxFrontier = 2 * kMaxTiles + 4;   // empty cells next to the board
inline constexpr int kMaxTileTypes = 80;
inline constexpr int kFollowersPerPlayer = 7;
inline constexpr int kFiguresPerPlayer = 10;             // 7 followers, then mayor, wagon, barn slots
inline constexpr int kMayorSlot = 7, kWagonSlot = 8, kBarnSlot = 9;
inline constexpr int kCellSlots = 1024;                  // table of placed and frontier cells: 32 x 32, see cell_slot
// Longest legal-action list: every frontier cell in every rotation, or every deploy.
inline constexpr int kMaxActions = 4 * kMaxFrontier;

inline constexpr int kChance = -1;
inline constexpr int kTerminal = -2;

enum class Phase : uint8_t {
  kTurnStart,      // Abbey & Mayor, A1: place the abbey (Action::abbey) or draw (Action::pass())
  kDraw, kPlace, kDeploy,
  kWagonMove,      // Abbey & Mayor, W2: move a wagon from a scored feature (Action::wagon) or take it back
  kAbbeyRound,     // Abbey & Mayor, A4: after the last tile, place the abbey or decline (Action::pass())
  kRedeploy,       // Count, C6: a player moves followers from a quarter onto features about to score
  kCountDeploy,    // Count, C3/C4: the placing player may put a follower into a quarter
  kFinalRedeploy,  // Count, C9: round-robin moves from the quarters before final scoring
  kGameOver,
};
const char* to_string(Phase p);
// The key a game record writes for a pass in this phase ("deploy", "redeploy", ...); "" when a record
// writes no pass there (the draw that follows stands for it); nullptr when the phase has no pass.
const char* pass_record_key(Phase p);
// The kind of action the phase takes besides the pass (kDraw at a chance node, kNone once the game is over).
Action::Kind action_kind(Phase p);

enum ScoreCategory : uint8_t { kCityPoints, kRoadPoints, kCloisterPoints, kFieldPoints, kBonusPoints };
inline constexpr int kNumCategories = 5;
const char* category_name(int category);  // "city", "road", "cloister", "field", "bonus"

// A fixed-capacity list of actions filled by legal_actions(): lives on the caller's stack.
struct ActionList {
  std::array<Action, kMaxActions> items;
  int size = 0;
  const Action* begin() const { return items.data(); }
  const Action* end() const { return items.data() + size; }
  const Action& operator[](int i) const { return items[i]; }
  void push(Action a) { items[size++] = a; }
  bool contains(Action a) const;
};

struct ChanceOutcome {
  int tile;
  int copies;  // probability = copies / total
};
struct ChanceOutcomes {
  std::array<ChanceOutcome, kMaxTileTypes> items;
  int size = 0;
  int total = 0;
  double probability(int i) const { return static_cast<double>(items[i].copies) / total; }
};

// A tile on the board.
struct PlacedTile {
  uint8_t type;
  uint8_t rotation;    // quarter turns clockwise
  int8_t x, y;         // never more than 127 from the origin (kMaxTiles)
  uint16_t node_base;  // feature node of segment s is node_base + s
  uint8_t around;      // placed tiles among the 8 surrounding squares
  uint8_t river_in;    // river tiles: board edge the river enters by (4: a source)
  uint8_t rival;       // cult places: the building whose follower this one's is challenging, or kNoRival
  bool operator==(const PlacedTile&) const = default;  // field by field: padding bytes are indeterminate
};
inline constexpr uint8_t kNoRival = 0xFF;

// What a feature is and how it stands, as computed for scoring and for bots.
struct FeatureInfo {
  SegmentKind kind;
  int tiles;              // distinct tiles (a tile counts once even if the feature crosses it twice)
  int open_edges;         // city and road edges not yet closed
  int pennants;
  bool complete;
  std::array<int, kMaxPlayers> followers;  // strength per player
};

// One entry of the account of final scoring (B11): what paid whom how much. Filled by final scoring
// itself (State::final_account), so the account is the scoring, not a second reckoning of it.
struct ScoredFeature {
  enum What : uint8_t { kCity, kRoad, kCloister, kShrine, kFarm, kBarn, kKing, kRobber };
  What what;
  ScoreCategory category;  // where the points went (a barn, the King, the Robber: bonus)
  // The feature's tiles, each once, the first the tile of a figure on it (a barn's: the barn's): where to
  // point at it. Empty for the King and the Robber.
  std::vector<std::array<int, 2>> cells;
  int pennants = 0;   // a city's
  // A farm or barn: the completed cities it supplies; the King: completed cities; the Robber: completed
  // roads (the City of Carcassonne counts as a completed city, C8).
  int completed = 0;
  uint8_t paid = 0;   // seats paid (bit p): the majority, the barn's owner, the King's or Robber's holder
  std::array<int, kMaxPlayers> points{};  // per seat (a majority may be paid nothing: a farm without cities)
};
const char* to_string(ScoredFeature::What w);  // "city", "road", "cloister", "shrine", "farm", "barn", "king", "robber"

struct FinalAccount {
  std::array<std::array<int, kNumCategories>, kMaxPlayers> before{};  // scores per seat and category before final scoring
  std::vector<ScoredFeature> features;  // in the order scored; their points added to `before` give the final scores
};

// Aligned to a cache line: every copy then moves whole lines between addresses that differ by a multiple
// of 64. glibc copies a State with `rep movsb`, which on this project's AMD benchmark machine ran 35 times
// slower (6-7 us rather than 0.2 us) when the destination lay 1 to 31 bytes past the source modulo 4 KiB:
// a chance of stack and heap layout that made whole benchmark runs slow.
class alignas(64) State {
 public:
  // The initial position of a game: start tile (or spring, or the Count's City) placed, first player to
  // draw, with the rules' tile sets; or with a custom deck: copies per tile type, replacing the drawable
  // land tiles (a record's `deck`). Throws std::invalid_argument for rules or a deck the engine refuses.
  explicit State(const Rules& rules);
  State(const Rules& rules, std::span<const uint8_t> deck_counts);

  const Rules& rules() const { return rules_; }
  int num_players() const { return rules_.players; }

  // --- Who acts ---------------------------------------------------------------------------------------
  Phase phase() const { return flow_.phase; }
  bool is_terminal() const { return flow_.phase == Phase::kGameOver; }
  bool is_chance() const { return flow_.phase == Phase::kDraw; }
  // kChance, kTerminal, or the seat (0-based) that decides now.
  int current_player() const;
  // Whose turn it is (the player who draws and places).
  int turn_player() const { return flow_.turn_player; }

  // --- Chance -----------------------------------------------------------------------------------------
  // The tiles that can be drawn now with their copies; probabilities are copies / total. Empty unless
  // is_chance(). Ordered by tile index.
  void chance_outcomes(ChanceOutcomes& out) const;
  // Tiles still to come (drawable now or later), per type: public information.
  int remaining(int tile) const { return tally_.remaining[tile]; }
  int tiles_left() const { return tally_.pile_left[0] + tally_.pile_left[1] + tally_.pile_left[2] + tally_.pile_left[3]; }
  // Tiles in the pile drawn from now (the total of chance_outcomes()).
  int drawable_now() const { return tally_.pile_left[drawable_pile()]; }
  // The tile that uniform position `r` (0 <= r < drawable_now()) picks among the drawable copies, in
  // chance_outcomes() order: how a dealer draws without building the list.
  int sample_draw_tile(uint64_t r) const;
  // Piles are drawn one after the other in kPileOrder: with the River II the fork (1), the river tiles
  // (2), the lake (3); then the normal tiles (0).
  static int draw_pile(int tile);
  static std::span<const uint8_t> pile_members(int pile);  // its tile types, ascending
  int drawable_pile() const {  // the pile drawn from now: the first in kPileOrder with tiles left
    return tally_.pile_left[1] ? 1 : tally_.pile_left[2] ? 2 : tally_.pile_left[3] ? 3 : 0;
  }
  static constexpr int kPileOrder[4] = {1, 2, 3, 0};

  // --- Decisions --------------------------------------------------------------------------------------
  // The legal actions at a decision node, in ascending Action order (pass first, then placements by cell
  // key then rotation, then deploys by figure then segment). Placements that differ only by a rotation
  // giving the same layout (a symmetric tile) are listed once, with the smallest rotation; apply() takes
  // either. Empty at chance and terminal nodes. Allocation-free.
  void legal_actions(ActionList& out) const;
  // One legal action drawn uniformly at random (exactly the distribution of picking from legal_actions()),
  // found by rejection sampling over frontier cells and rotations: several times faster for playouts.
  template <typename Rng>
  Action sample_legal_action(Rng& rng) const;
  // Applies a legal action (a draw at chance nodes). Undefined for an illegal one: use try_apply.
  void apply(Action a);
  // Applies `a` if it is legal here and returns an empty string; otherwise leaves the state unchanged and
  // returns a message saying what was wrong and what was expected.
  std::string try_apply(Action a);
  bool is_legal(Action a) const;
  // Why `a` is not legal here (what was wrong, what the rules expect): the message of try_apply.
  std::string why_illegal(Action a) const;

  // --- Scores -----------------------------------------------------------------------------------------
  int score(int player) const;
  int score(int player, int category) const { return tally_.scores[player][category]; }
  // Points each player would get if the game ended now (final scoring of the current board), computed
  // without changing or copying the state. Equals score() once terminal.
  std::array<int, kMaxPlayers> final_scores_if_ended_now() const;
  // The account of the final scoring that applying `last` here would run (the scores it starts from, then
  // each feature, barn and bonus it pays), or nothing when `last` does not end the game. Throws
  // std::invalid_argument with try_apply's message when `last` is illegal here.
  std::optional<FinalAccount> final_account(Action last) const;
  // Seats with the highest score (ties share the win, B13); only meaningful when terminal.
  std::array<bool, kMaxPlayers> winners() const;

  // --- The board --------------------------------------------------------------------------------------
  int num_tiles() const { return board_.num_tiles; }
  const PlacedTile& tile(int i) const { return board_.tiles[i]; }
  int tile_at(int x, int y) const { return find_cell(cell_key(x, y)); }  // index or -1
  // The smallest and largest coordinates of the placed tiles (abbeys included).
  struct Extent {
    int min_x, max_x, min_y, max_y;
  };
  Extent extent() const { return {board_.min_x, board_.max_x, board_.min_y, board_.max_y}; }
  int last_tile() const { return flow_.last_tile; }  // index of the tile placed this turn, or -1
  int drawn_tile() const { return flow_.drawn; }     // tile type in hand during kPlace, else -1
  int discarded() const { return flow_.discarded; }  // tiles that fit nowhere so far
  int frontier_size() const { return board_.frontier_size; }
  // The i-th empty cell next to the board (in the order cells joined the frontier, not sorted).
  CellKey frontier_cell(int i) const { return static_cast<CellKey>(board_.frontier[i] >> 16); }
  // What a tile needs on each edge to go on the i-th frontier cell: EdgeKind bits per edge as in
  // TileType::Rotated::edge_word, 0 for an edge with no neighbour. A rotation fits the edges when
  // (edge_word & requirement) == requirement (the River's and shrines' extra rules aside).
  uint16_t frontier_requirement(int i) const { return static_cast<uint16_t>(board_.frontier[i]); }
  int frontier_index(CellKey k) const;  // position of k in the frontier, or -1
  // Feature node of a segment of a placed tile, and information about the feature it belongs to.
  int node(int tile_index, int segment) const { return board_.tiles[tile_index].node_base + segment; }
  int node_tile(int node) const { return features_.node_tile[node]; }  // the placed tile a node is on
  int feature_root(int node) const { return find(node); }     // the node naming the whole feature
  FeatureInfo feature(int node) const;
  // Calls f(member) for every segment node of the feature `node` belongs to, `node` first.
  template <typename F>
  void for_each_member(int node, F&& f) const {
    int m = node;
    do {
      f(m);
      m = features_.next_member[m];
    } while (m != node);
  }
  // Same feature?
  bool connected(int node_a, int node_b) const { return find(node_a) == find(node_b); }

  // --- Figures ----------------------------------------------------------------------------------------
  int followers_in_supply(int player) const;  // the 7 ordinary followers
  // Whether a figure (follower: any of the 7) is in supply; abbey still in hand.
  bool in_supply(int player, Figure f) const;
  bool has_abbey(int player) const { return abbey_mayor_.abbeys & (1 << player); }
  // Feature node a figure stands on, or -1 when in supply. slot < kFiguresPerPlayer.
  int figure_node(int player, int slot) const {
    return on_board(tally_.figures[player][slot]) ? tally_.figures[player][slot] : -1;
  }
  // Calls f(player, slot, node) for every figure on the board, seat by seat, slot by slot (the 7
  // followers, then kMayorSlot, kWagonSlot, kBarnSlot); figures in supply or in a quarter of the Count are
  // not on the board. Inline, so a walk costs what a hand-written loop does.
  template <typename F>
  void for_each_figure(F&& f) const {
    for (int p = 0; p < rules_.players; ++p)
      for (int slot = 0; slot < kFiguresPerPlayer; ++slot) {
        const uint16_t where = tally_.figures[p][slot];
        if (on_board(where)) f(p, slot, static_cast<int>(where));
      }
  }
  // Cult places (S3): the tile whose building is in a challenge with this tile's building, or -1.
  int rival(int tile_index) const { return board_.tiles[tile_index].rival == kNoRival ? -1 : board_.tiles[tile_index].rival; }
  // The Count: its quarter, and a player's followers in a quarter.
  int count_quarter() const { return count_.quarter; }
  int followers_in_quarter(int player, int quarter) const;  // ordinary followers
  bool figure_in_quarter(int player, Figure f, int quarter) const;  // follower: any of the 7
  int king() const { return king_robber_.king; }      // seat holding the King, or -1
  int robber() const { return king_robber_.robber; }  // seat holding the Robber Baron, or -1

  // --- Checks for tests ---------------------------------------------------------------------------------
  // Recomputes every incremental structure (features, aggregates, frontier, figure counts) from the
  // placed tiles alone and returns a description of the first difference, or an empty string.
  std::string check_consistency() const;
  // For a state read from bytes (a pickle): every index within its table, every walk finite and what
  // the phase reads present, so that check_consistency (which assumes as much) and play can then read it.
  // The first problem, or an empty string.
  std::string check_bounds() const;
  // The state's bytes (for pickles of this build), and back: from_bytes throws std::invalid_argument
  // naming the problem for bytes of another size or that make no valid state (check_bounds, then
  // check_consistency).
  std::string to_bytes() const;
  static State from_bytes(std::string_view bytes);
  // Equality of everything that makes the position (used to prove that copies behave like originals,
  // that a refused action changed nothing, and by tree reuse): defaulted over the groups of fields below.
  bool operator==(const State& other) const = default;

  // Deals tiles in tests and tools that build a position by hand: draws `tile` if legal, else throws
  // std::invalid_argument.
  void force_draw(int tile);

 private:
  friend struct StateProbe;  // tests/core/state_equality_test.cpp: changes one field to see that == notices
  static constexpr uint16_t kInSupply = 0xFFFF;
  static constexpr uint16_t kInQuarter = 0xFFF0;  // + quarter: a figure in the City of Carcassonne
  static bool on_board(uint16_t where) { return where < kInQuarter; }
  static constexpr uint16_t kEmptySlot = 0xFFFF;    // cell table: no cell
  static constexpr uint16_t kFrontierFlag = 0x8000;  // cell table: frontier cell, low bits its position

  void setup(std::span<const uint8_t> deck_counts);
  // The seat to the left of `seat` (play goes clockwise): who acts after it.
  uint8_t next_seat(int seat) const { return static_cast<uint8_t>(seat + 1 == rules_.players ? 0 : seat + 1); }
  void place_tile(int type, int rotation, CellKey cell);  // setup and kPlace
  // Placements (moves.cpp). Masks of rotations, bit r for rotation r: of those in `mask` (whose edges fit
  // the frontier entry), the ones the River's and the shrines' rules allow too; each frontier cell's
  // rotations that fit, written for whole blocks of 16 cells (entries past frontier_size are garbage).
  uint32_t special_fitting(const TileType& t, uint32_t mask, uint32_t frontier_entry) const;
  void fitting_masks(const TileType& t, bool special, std::array<uint8_t, kMaxFrontier>& out) const;
  void generate_placements(ActionList& out) const;
  bool has_placement() const;
  template <typename Emit>
  bool for_each_deploy(Emit&& emit) const;  // stops when emit returns true
  void generate_deploys(ActionList& out) const;
  bool can_deploy() const;
  // Placement rules beyond matching edges: the river's (R3-R5) and the shrines' (S2).
  bool needs_special_check(const TileType& t) const { return t.river || (t.cloister >= 0 && rules_.has(kCultPlaces)); }
  bool special_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const;
  bool river_placement_ok(const TileType& t, int rotation, CellKey cell, uint16_t req) const;  // river.cpp
  // Cult places (core/src/cult_places.cpp).
  bool building_placement_ok(const TileType& t, CellKey cell) const;
  int building_kind(int tile_index) const;
  void maybe_challenge(int tile_index, int player);
  void end_challenge(PlacedTile& winner);
  // King & Robber (core/src/king_robber.cpp).
  void city_completed(int size);
  void road_completed(int size);
  void place_figure(int player, Figure f, int node);
  int slot_in_supply(int player, Figure f) const;  // -1 if none
  int strength_on(int root, int player) const;      // B9 with the mayor's pennant strength (M1)
  // A feature's figures (followers, mayors, wagons), from its root: 4 bits of strength per player.
  uint32_t followers_at(int root) const { return features_.strengths[features_.strength_entry[root]]; }
  bool occupied(int root) const { return features_.strength_entry[root] != 0; }
  void add_figure_at(int root, int player);  // one more of the player's figures on the feature
  void clear_figures_at(int root);           // the feature's figures have gone
  // The turn (core/src/turn.cpp): the table of phases, and the steps of a turn in order.
  struct PhaseRow;
  static const PhaseRow& phase_row(Phase p);
  friend const char* to_string(Phase p);
  friend const char* pass_record_key(Phase p);
  friend Action::Kind action_kind(Phase p);
  void start_turn();
  void start_draw();
  bool is_legal_draw(Action a) const;
  std::string why_not_draw(Action a) const;
  void apply_draw(Action a);
  void apply_place(Action a);
  void placed();  // a tile or an abbey was placed: kDeploy or after_deploy
  void apply_deploy(Action a);
  void after_deploy();  // collects completed features, then the redeploy lap or scoring
  void score_turn();
  void after_wagons();
  void end_turn();
  void end_of_tiles();
  void finish_game();
  std::string why_game_over(Action a) const;
  // Placements and deploys refused (moves.cpp).
  bool is_legal_placement(Action a) const;
  std::string why_not_placement(Action a) const;
  std::string why_not_deploy(Action a) const;
  // Abbey & Mayor (core/src/abbey_mayor.cpp): the abbey (kTurnStart, kAbbeyRound), barns, wagon moves.
  bool abbey_mayor() const { return rules_.has(kAbbeyMayor); }
  void generate_abbeys(ActionList& out) const;
  bool can_place_abbey() const;  // an empty square takes the abbey (A1, S2)
  void apply_abbey(Action a);
  void draw_instead_of_abbey();
  std::string why_not_abbey(Action a) const;
  bool start_abbey_round();  // after the last tile, when the rules have one (A4)
  void continue_abbey_round();
  void decline_abbey_round();
  bool barn_corner_ok(int corner) const;
  int corner_field(int tile_index, int corner) const;  // field segment filling that corner, or -1
  bool has_barn(int root) const;
  void generate_wagon_moves(ActionList& out, int player) const;
  void list_wagon_moves(ActionList& out) const { generate_wagon_moves(out, flow_.acting); }
  void continue_wagons();
  void apply_wagon_move(Action a);
  void keep_wagon();
  std::string why_not_wagon_move(Action a) const;
  void wagon_done(int player);
  // The Count's phases (core/src/count.cpp): the redeploy lap, the Count deploy, the final redeploy.
  bool count_in_play() const { return rules_.has(kCount); }
  void collect_completed();
  void start_lap();
  void continue_lap();
  void list_lap_redeploys(ActionList& out) const { generate_redeploys(out, flow_.acting, false); }
  void apply_lap_redeploy(Action a);
  void end_lap_turn();
  bool offer_count_deploy();  // after the wagons, when due (C3): whether the Count deploy is offered
  void generate_count_deploys(ActionList& out) const;
  void apply_count_deploy(Action a);
  std::string why_not_count_deploy(Action a) const;
  void start_final_redeploy();
  void continue_final_redeploy();
  void list_final_redeploys(ActionList& out) const { generate_redeploys(out, flow_.acting, true); }
  void apply_final_redeploy(Action a);
  void drop_out_of_final_redeploy();
  std::string why_not_redeploy(Action a) const;
  void generate_redeploys(ActionList& out, int player, bool final_round) const;
  void move_from_quarter(int player, Figure f, int quarter, int root);
  bool quarter_feeds(int quarter, SegmentKind kind) const;
  void score_completed();
  void score_buildings();
  void score_farms_with_barns();
  void return_figures(int root, bool wagons_may_move);
  using Scores = std::array<std::array<int16_t, kNumCategories>, kMaxPlayers>;
  // Majority (B9): `points` in `category` to each player with the most strength on the feature; returns
  // the mask of those players.
  uint8_t award(int root, int points, int category, Scores& to) const;
  // Majority scoring of a feature (B9), then its figures go back to supply unless told otherwise.
  void score_feature(int root, int points, int category, bool return_figures = true);
  // Final scoring's points added to `to`; the roots scored go to `scored` when given, and with kAccount each
  // payment to `account` (a separate instantiation: without one, final scoring costs what it always did).
  template <bool kAccount>
  void add_final_points(Scores& to, engine::NodeSet* scored = nullptr, FinalAccount* account = nullptr) const;
  void add_king_robber_points(Scores& to, FinalAccount* account) const;
  std::vector<std::array<int, 2>> feature_cells(int node) const;  // the feature's tiles, node's first
  // An entry of the account: what paid, where its cells start (-1: none), whom, how much, its completed count.
  void note_payment(FinalAccount& account, ScoredFeature::What what, int node, uint8_t paid, int points, int completed) const;
  void final_scoring();
  int farm_cities(int root, bool& pig) const;

  int find(int node) const;
  int unite(int a, int b, SegmentKind kind);  // joins two cities or two roads; returns the new root
  void unite_fields(int a, int b);
  int shared_tiles(int ra, int rb, SegmentKind kind) const;
  void larger_first(int& ra, int& rb) const;
  void merge_into(int ra, int rb, int shared);
  int cell_slot(CellKey k) const;  // the table slot holding k, or the empty slot where it would go
  int cell_slot_from(unsigned home, CellKey k) const;  // the same, k's home slot already known
  static unsigned home_slot(CellKey k) { return (k & 31u) | ((k >> 3) & (31u << 5)); }  // where k goes first
  // The home slot of the cell (dx, dy) away from the cell whose home slot is `home` (each wraps at 32).
  static unsigned home_slot_beside(unsigned home, int dx, int dy) {
    return ((home + dx) & 31u) | ((home + (dy << 5)) & (31u << 5));
  }
  static constexpr int kNarrowSpan = 29;  // tiles at most this far apart both ways: cells span at most 32
  // Whether placed tiles with this extent make a wide board: wider than kNarrowSpan, or with cells next
  // to them beyond the coordinates a key holds (keys would wrap, so positions would not order them).
  static bool is_wide(int min_x, int max_x, int min_y, int max_y) {
    return max_x - min_x > kNarrowSpan || max_y - min_y > kNarrowSpan || min_x <= kMinCoordinate ||
           max_x >= kMaxCoordinate || min_y <= kMinCoordinate || max_y >= kMaxCoordinate;
  }
  CellKey cell_in_slot(uint16_t value) const;  // the cell a used slot's value names
  int find_cell(CellKey k) const;  // placed tile index, or -1
  void frontier_set(int slot, CellKey k, int edge, uint16_t edge_kind_bits);
  void occupy_cell(CellKey k, int index);  // a tile is placed there: leaves the frontier

  // The fields, grouped by concern. Each group compares as a whole (defaulted ==, so a field added to a
  // group is compared without further ado), and State's own == is defaulted over the groups. Only the
  // board and the features define ==: they compare the used part of their tables, and features by what
  // the union-find means rather than its pointers.
  Rules rules_;

  // Whose decision, in which phase of which turn.
  struct Flow {
    Phase phase = Phase::kDraw;
    uint8_t turn_player = 0;
    uint8_t acting = 0;          // who decides in the Count's phases and wagon moves
    uint8_t last_placer = 0;
    uint8_t scored_mask = 0;     // players who scored points this turn (C3)
    int16_t drawn = -1;          // tile type in hand
    int16_t last_tile = -1;      // index of the tile placed this turn
    uint16_t discarded = 0;      // tiles that fit nowhere so far
    bool turn_scoring = false;   // scoring during a turn (wagons may move afterwards), not final scoring
    bool operator==(const Flow&) const = default;
  } flow_;

  // Scores, figures and the tiles still to come.
  struct Tally {
    std::array<std::array<int16_t, kNumCategories>, kMaxPlayers> scores{};
    std::array<std::array<uint16_t, kFiguresPerPlayer>, kMaxPlayers> figures{};
    std::array<uint8_t, kMaxTileTypes> remaining{};
    std::array<uint16_t, 4> pile_left{};  // tiles left per pile (see draw_pile)
    bool operator==(const Tally&) const = default;
  } tally_;

  // What the last placement completed, before it is scored (unused entries are zero).
  struct Completed {
    uint16_t closed_segments = 0;  // segments of the tile just placed whose city or road it closed
    uint8_t num_features = 0;
    std::array<uint16_t, 16> features{};  // roots
    uint8_t num_cloisters = 0;
    std::array<uint8_t, 9> cloisters{};   // tiles whose cloister is complete
    bool operator==(const Completed&) const = default;
  } completed_;

  // King & Robber Baron.
  struct KingRobber {
    int8_t king = -1, robber = -1;  // seats holding them
    uint8_t king_size = 0, robber_size = 0;
    uint8_t completed_cities = 0, completed_roads = 0;
    bool operator==(const KingRobber&) const = default;
  } king_robber_;

  // The Count of Carcassonne.
  struct Count {
    uint8_t quarter = kCastle;  // where the Count stands
    uint8_t lap_left = 0;       // players still to decide in a redeploy lap
    uint8_t out_mask = 0;       // final redeploy: players who passed
    bool deploy_due = false;
    bool operator==(const Count&) const = default;
  } count_;

  // Abbey & Mayor.
  struct AbbeyMayor {
    uint8_t abbeys = 0;          // players still holding their abbey
    uint8_t wagons_to_move = 0;  // players whose wagon's feature scored this turn (W2)
    uint8_t round_left = 0;      // abbey round: players still to decide
    bool in_abbey_round = false;
    bool barn_placed = false;    // a barn was deployed this turn (F2)
    std::array<uint16_t, kMaxPlayers> wagon_from{};  // the scored feature each moving wagon leaves
    bool operator==(const AbbeyMayor&) const = default;
  } abbey_mayor_;

  // The board: placed tiles and the empty cells next to them.
  struct Board {
    uint16_t num_tiles = 0;
    // The placed tiles' extent. While the cells (placed and frontier, one more each way) span at most
    // 32 both ways, each has its own home slot in the cell table and a lookup is one load.
    int8_t min_x = 0, max_x = 0, min_y = 0, max_y = 0;
    bool wide = false;  // the extent is larger: lookups probe on from the home slot
    std::array<PlacedTile, kMaxTiles> tiles;
    // Cells, placed and frontier, in one open-addressing table (cells are never removed), by position
    // on a 32 x 32 torus (home_slot), then linear probing: the value is the tile index, or
    // kFrontierFlag | position in frontier, or kEmptySlot. The key is not stored: the tile or frontier
    // entry named holds it (cell_in_slot), and only a wide board needs it.
    std::array<uint16_t, kCellSlots> cells;
    // Frontier: empty cells next to the board, unordered: (key << 16) | what each edge must be, 4 bits
    // of EdgeKind per edge, 0 if no neighbour (never an abbey: its four sides all touch tiles). Updates are
    // O(1) through the cell table; keeping it sorted cost a quarter of a random playout, so the few cells
    // that take a tile are sorted only when a full legal list is asked for (playouts sample instead).
    uint16_t frontier_size = 0;
    std::array<uint32_t, kMaxFrontier> frontier;
    bool operator==(const Board& o) const;  // the placed tiles, the cell table, the frontier in use
  } board_;

  // Features: a union-find over segment nodes with aggregates kept at the roots, and a circular list of
  // each feature's members (merged in O(1)) for the rare walks over a whole feature.
  struct Features {
    // Room past kMaxNodes for a placement to write kMaxSegments nodes whatever its segment count (a
    // tile of the Count's City has none, so its first node may be kMaxNodes itself).
    static constexpr int kSlots = kMaxNodes + kMaxSegments;
    uint16_t num_nodes = 0;
    mutable std::array<uint16_t, kSlots> parent;  // path halving in find() is not a semantic change
    std::array<uint16_t, kSlots> next_member;
    std::array<uint8_t, kSlots> node_tile;
    std::array<uint16_t, kSlots> open;         // root: open city/road edges
    std::array<uint8_t, kSlots> tile_count;    // root: distinct tiles
    std::array<uint8_t, kSlots> pennants;      // root
    // Figures on features: a root names its entry in a small table of strengths (4 bits per player), 0
    // if none. Each occupied feature holds a figure, so there are never more entries in use than
    // figures that count on features (the slots before the barn's: a barn adds to no strength); a
    // table per node would take four times the bytes.
    static constexpr int kEntries = kMaxPlayers * kBarnSlot + 1;  // and entry 0: no figure, all zero
    static_assert(kEntries < 64, "the free entries are bits of one word");
    static constexpr uint64_t kAllEntries = ((uint64_t{1} << kEntries) - 1) & ~uint64_t{1};  // 1 to kEntries - 1
    std::array<uint8_t, kSlots> strength_entry;  // root: its entry in `strengths`, 0 if unoccupied
    std::array<uint32_t, kEntries> strengths;
    uint64_t free_entries = 0;  // bit e: entry e unused (bit 0 never set: entry 0 is not handed out)
    // Root of a city or road: 1 if it has a segment on a tile with another segment of its kind. Two
    // features can share a tile only if both have such a segment: only then does a union look for one.
    std::array<uint8_t, kSlots> repeated;
    int root(int node) const;  // without path halving
    // The same features (each node's root) with the same aggregates at the roots; the order of the
    // member lists, which depends on the order of merges, is not compared.
    bool operator==(const Features& o) const;
  } features_;
};

template <typename Rng>
Action State::sample_legal_action(Rng& rng) const {
  if (flow_.phase == Phase::kPlace) {
    // Uniform over (cell, distinct rotation) pairs, accepted when legal: uniform over legal placements.
    const TileType& t = TileCatalog::get()[flow_.drawn];
    for (int attempt = 0; attempt < 64; ++attempt) {
      // One 64-bit draw picks both, each half scaled to its range (Lemire): the cell and the rotation.
      const uint64_t r = rng.next();
      const int i = static_cast<int>(((r >> 32) * board_.frontier_size) >> 32);
      const int k = static_cast<int>(((r & 0xFFFFFFFFu) * t.distinct_rotations.count) >> 32);
      const uint16_t req = static_cast<uint16_t>(board_.frontier[i]);
      const CellKey cell = static_cast<CellKey>(board_.frontier[i] >> 16);
      if ((t.distinct_rotations.edge_word[k] & req) != req) continue;
      if (needs_special_check(t) && !special_placement_ok(t, t.distinct_rotations.rotation[k], cell, req)) continue;
      return Action::place(cell, t.distinct_rotations.rotation[k]);
    }
  }
  ActionList list;  // rare: few legal placements, or another phase
  legal_actions(list);
  return list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size)))];
}

// The lookups every move makes, inline.
inline int State::find(int x) const {
  // Two steps up without a branch (a root is its own parent): union by size keeps most nodes that close
  // to their root, and a loop's exit after a varying number of steps mispredicts.
  const int up = features_.parent[features_.parent[x]];
  if (__builtin_expect(features_.parent[up] == up, 1)) return up;
  while (features_.parent[x] != x) {
    features_.parent[x] = features_.parent[features_.parent[x]];
    x = features_.parent[x];
  }
  return x;
}

// A cell's home slot is its position on a 32 x 32 torus (the low 5 bits of x and of y): on a board whose
// cells span at most 32 both ways no two of its cells share one, so for a cell on or next to the board
// the home slot is the answer. A wider board probes on linearly, comparing the cells the slots name.
// Lookups of any cell (find_cell, frontier_index) compare what they find with the cell asked for: one
// 32 cells away from a cell of a narrow board has the same home slot.
inline int State::cell_slot(CellKey k) const { return cell_slot_from(home_slot(k), k); }

inline int State::cell_slot_from(unsigned slot, CellKey k) const {
  if (__builtin_expect(!board_.wide, 1)) return static_cast<int>(slot);
  while (board_.cells[slot] != kEmptySlot && cell_in_slot(board_.cells[slot]) != k) slot = (slot + 1) & (kCellSlots - 1);
  return static_cast<int>(slot);
}

inline CellKey State::cell_in_slot(uint16_t value) const {
  if (value & kFrontierFlag) return static_cast<CellKey>(board_.frontier[value & ~kFrontierFlag] >> 16);
  return cell_key(board_.tiles[value].x, board_.tiles[value].y);
}

inline int State::slot_in_supply(int player, Figure f) const {
  const auto& figures = tally_.figures[player];
  switch (f) {
    case Figure::kFollower: {  // the first free slot, from a mask (an early-exit loop mispredicts)
      unsigned free = 0;
      for (int slot = 0; slot < kFollowersPerPlayer; ++slot) free |= static_cast<unsigned>(figures[slot] == kInSupply) << slot;
      return free ? __builtin_ctz(free) : -1;
    }
    case Figure::kMayor: return abbey_mayor() && figures[kMayorSlot] == kInSupply ? kMayorSlot : -1;
    case Figure::kWagon: return abbey_mayor() && figures[kWagonSlot] == kInSupply ? kWagonSlot : -1;
    case Figure::kBarn: return abbey_mayor() && figures[kBarnSlot] == kInSupply ? kBarnSlot : -1;
  }
  return -1;
}

inline bool State::in_supply(int player, Figure f) const { return slot_in_supply(player, f) >= 0; }

inline int State::find_cell(CellKey k) const {
  const uint16_t v = board_.cells[cell_slot(k)];
  return v < kFrontierFlag && cell_in_slot(v) == k ? v : -1;
}

inline constexpr size_t kStateBytes = sizeof(State);
static_assert(std::is_trivially_copyable_v<State>, "search copies states with memcpy");
static_assert(kStateBytes <= 16 * 1024, "a State must stay cheap to copy");

}  // namespace meeple
