// Tiles as data: the geometry of every land tile and the composition of every tile set.
//
// The definitions live in core/data/tiles.txt, embedded in the library at build time and parsed and
// validated once, on first use. Everything the hot path needs (edges, segment of each edge and
// half-edge, in each rotation) is precomputed here so placing a tile is table lookups only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meeple {

// Edges N E S W in clockwise order; rotating a tile 90 degrees clockwise maps edge e to e + 1.
enum Edge : uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };
// Half-edges NL NR EL ER SL SR WL WR, clockwise; half h lies on edge h / 2. Rotation adds 2.
enum Half : uint8_t { kNL = 0, kNR, kEL, kER, kSL, kSR, kWL, kWR };

inline constexpr int kOpposite(int edge) { return (edge + 2) & 3; }
// The half-edge of a neighbour that touches half h across the shared edge (L meets R).
inline constexpr int kFacingHalf(int half) { return ((half + 4) & 7) ^ 1; }

// What an edge is, one bit each so that a frontier constraint can be a mask (see Board).
enum class EdgeKind : uint8_t { kField = 1, kRoad = 2, kCity = 4, kRiver = 8, kAbbey = 15 };

enum class SegmentKind : uint8_t { kCity, kRoad, kField, kCloister, kShrine, kRiver };
const char* to_string(SegmentKind kind);

// Where a road or river that ends on a tile ends. Informative for roads (every end closes a road) and
// used by the wagon's adjacency; kCity means "at a gate of city segment `end_city`".
enum class RoadEnd : uint8_t { kNone, kJunction, kCloister, kShrine, kHouse, kCarcassonne, kCity, kSpring, kLake };

struct Segment {
  SegmentKind kind = SegmentKind::kField;
  uint8_t edges = 0;        // bit e: touches edge e (city, road, river)
  uint8_t halves = 0;       // bit h: covers half-edge h (field)
  uint8_t edge_count = 0;   // number of edges (open ends of a lone city or road)
  uint8_t pennants = 0;     // city
  uint8_t touches = 0;      // field: bit s for each city segment s it borders
  uint8_t inner_index = 0;  // field touching no edge: 1 or 2 (the record's I1 and I2), else 0
  RoadEnd end = RoadEnd::kNone;
  uint8_t end_city = 0;     // segment index when end == kCity
  bool pig_herd = false;    // field
  bool inn = false;         // road
};

inline constexpr int kMaxSegments = 10;
inline constexpr uint8_t kNoSegment = 0xFF;

enum TileFlag : uint8_t {
  kFlagStart = 1, kFlagSpring = 2, kFlagFork = 4, kFlagLake = 8, kFlagVolcano = 16, kFlagAbbey = 32, kFlagBlock = 64,
};

// One tile type with its data precomputed for all four rotations.
struct TileType {
  std::string id;
  uint8_t index = 0;
  uint8_t flags = 0;
  uint8_t num_segments = 0;
  uint8_t repeated_kinds = 0;  // bit k: two or more segments of SegmentKind k (a tile a feature may cross twice)
  bool river = false;          // has a river segment
  int8_t cloister = -1;        // cloister or shrine segment, or -1
  std::array<Segment, kMaxSegments> segments{};
  std::array<EdgeKind, 4> edges{};  // as printed
  bool interior[4] = {};            // edge inside the Count block ('X' in the data)
  // What each segment's feature node starts with when the tile is placed (open city and road edges,
  // pennants), zero past num_segments: placing writes all kMaxSegments nodes without a loop over the
  // segments, whose count no branch predictor can guess.
  std::array<uint16_t, kMaxSegments> initial_open{};
  std::array<uint8_t, kMaxSegments> initial_pennants{};
  // Per segment: 1 for a city or road segment on a tile with another segment of its kind (a tile that two
  // features of that kind may share), else 0.
  std::array<uint8_t, kMaxSegments> initial_repeated{};

  // Per rotation r (0..3 quarter turns clockwise), in the board's frame:
  struct Rotated {
    uint16_t edge_word = 0;                      // 4 bits per edge: EdgeKind of edge e at bits 4e..4e+3
    std::array<uint8_t, 4> edge_segment{};       // city/road/river segment on board edge e, or kNoSegment
    std::array<uint8_t, 8> half_segment{};       // field segment on board half h, or kNoSegment
    uint8_t canonical = 0;                       // smallest rotation with an identical layout
  };
  std::array<Rotated, 4> rot{};
  // The rotations that give distinct layouts, ascending, with their edge words: what placement tries.
  // Entries past count are 0, and a word of 0 fits no frontier cell: loops may run over all four.
  struct DistinctRotations {
    uint8_t count = 0;
    std::array<uint8_t, 4> rotation{};
    std::array<uint16_t, 4> edge_word{};
    uint64_t by_rotation = 0;  // 16 bits per rotation r at bits 16r: its edge word if distinct, else 0
  } distinct_rotations;

  bool has(TileFlag f) const { return flags & f; }
};

// A named group of tiles with copy counts (base, river2, count, ...).
struct TileSet {
  std::string name;
  std::vector<std::pair<uint8_t, uint8_t>> counts;  // (tile index, copies)
  int total() const;
};

class TileCatalog {
 public:
  // The catalog built from the embedded data; validated on first call (throws std::logic_error naming the
  // offending line if the data is inconsistent, which is a build defect, never a user error). Inline: the
  // engine asks for it on every move.
  static const TileCatalog& get() {
    static const TileCatalog catalog = parse(embedded_data());
    return catalog;
  }
  // Parses and validates any text in the data format (used by get() and by tests of the validator).
  static TileCatalog parse(std::string_view text);
  static const char* embedded_data();  // core/data/tiles.txt

  int size() const { return static_cast<int>(tiles_.size()); }
  const TileType& operator[](int index) const { return tiles_[index]; }
  const std::vector<TileType>& tiles() const { return tiles_; }
  // Tile index by id, or -1.
  int find(std::string_view id) const;
  const TileSet* set(std::string_view name) const;
  const std::vector<TileSet>& sets() const { return sets_; }

 private:
  std::vector<TileType> tiles_;
  std::vector<TileSet> sets_;
};

// Names used by records: "N", "NL", "NE", ...
const char* edge_name(int edge);
const char* half_name(int half);
int parse_edge(std::string_view s);  // -1 if not an edge name
int parse_half(std::string_view s);  // -1 if not a half-edge name

}  // namespace meeple
