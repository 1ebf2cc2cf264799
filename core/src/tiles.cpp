#include "meeple/tiles.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace meeple {

extern const char* const kEmbeddedTileData;  // generated from core/data/tiles.txt

namespace {

constexpr const char* kEdgeNames[4] = {"N", "E", "S", "W"};
constexpr const char* kHalfNames[8] = {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"};

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

[[noreturn]] void fail(int line, const std::string& what) {
  throw std::logic_error("tile data line " + std::to_string(line) + ": " + what);
}

EdgeKind edge_kind(char c, int line) {
  switch (c) {
    case 'C': return EdgeKind::kCity;
    case 'R': return EdgeKind::kRoad;
    case 'F': case 'X': return EdgeKind::kField;
    case 'I': return EdgeKind::kRiver;
    case 'A': return EdgeKind::kAbbey;
  }
  fail(line, std::string("unknown edge letter '") + c + "'");
}

int city_ref(const std::string& w, int line) {
  if (w.size() == 3 && w[0] == '>' && w[1] == 'c' && (w[2] == '1' || w[2] == '2')) return w[2] - '1';
  fail(line, "expected a city reference like >c1, got '" + w + "'");
}

// City segment index of the k-th (0-based) city on the tile.
int nth_city(const TileType& t, int k, int line) {
  for (int s = 0; s < t.num_segments; ++s)
    if (t.segments[s].kind == SegmentKind::kCity && k-- == 0) return s;
  fail(line, "reference to a city the tile does not have (cities must come before what refers to them)");
}

Segment parse_segment(const TileType& t, const std::vector<std::string>& w, int line, int& inner_count) {
  Segment seg;
  const std::string& kind = w[0];
  if (kind == "cloister" || kind == "shrine") {
    seg.kind = kind == "cloister" ? SegmentKind::kCloister : SegmentKind::kShrine;
    if (w.size() != 1) fail(line, kind + " takes no arguments");
    return seg;
  }
  if (kind == "city" || kind == "road" || kind == "river") {
    seg.kind = kind == "city" ? SegmentKind::kCity : kind == "road" ? SegmentKind::kRoad : SegmentKind::kRiver;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string& a = w[i];
      if (int e = parse_edge(a); e >= 0) {
        if (seg.edges & (1 << e)) fail(line, "edge " + a + " listed twice");
        seg.edges |= 1 << e;
      } else if (a[0] == '+' && kind == "city") {
        seg.pennants = static_cast<uint8_t>(std::stoi(a.substr(1)));
      } else if (a == "inn" && kind == "road") {
        seg.inn = true;
      } else if (a[0] == '>') {
        std::string end = a.substr(1);
        if (end == "jct") seg.end = RoadEnd::kJunction;
        else if (end == "cloister") seg.end = RoadEnd::kCloister;
        else if (end == "shrine") seg.end = RoadEnd::kShrine;
        else if (end == "house") seg.end = RoadEnd::kHouse;
        else if (end == "carc") seg.end = RoadEnd::kCarcassonne;
        else if (end == "spring") seg.end = RoadEnd::kSpring;
        else if (end == "lake") seg.end = RoadEnd::kLake;
        else {
          seg.end = RoadEnd::kCity;
          seg.end_city = static_cast<uint8_t>(nth_city(t, city_ref(a, line), line));
        }
      } else {
        fail(line, "unexpected '" + a + "' in " + kind);
      }
    }
    if (!seg.edges) fail(line, kind + " touches no edge");
    const int n = __builtin_popcount(seg.edges);
    seg.edge_count = static_cast<uint8_t>(n);
    if (kind != "city" && n == 1 && seg.end == RoadEnd::kNone) fail(line, kind + " with one edge needs an end (>...)");
    if (kind != "city" && n > 1 && seg.end != RoadEnd::kNone) fail(line, kind + " through the tile cannot end on it");
    return seg;
  }
  if (kind == "field") {
    seg.kind = SegmentKind::kField;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string& a = w[i];
      if (int h = parse_half(a); h >= 0) {
        if (seg.halves & (1 << h)) fail(line, "half-edge " + a + " listed twice");
        seg.halves |= 1 << h;
      } else if (a == "all8") {
        seg.halves = 0xFF;
      } else if (a == "inner") {
        seg.inner_index = static_cast<uint8_t>(++inner_count);
      } else if (a == "pigherd") {
        seg.pig_herd = true;
      } else if (a[0] == '>') {
        seg.touches |= 1 << nth_city(t, city_ref(a, line), line);
      } else {
        fail(line, "unexpected '" + a + "' in field");
      }
    }
    if (!seg.halves && !seg.inner_index) fail(line, "field covers no half-edge and is not inner");
    return seg;
  }
  fail(line, "unknown segment kind '" + kind + "'");
}

void precompute_rotations(TileType& t) {
  for (int r = 0; r < 4; ++r) {
    auto& rot = t.rot[r];
    rot.edge_segment.fill(kNoSegment);
    rot.half_segment.fill(kNoSegment);
    for (int e = 0; e < 4; ++e) {
      const int board = (e + r) & 3;
      rot.edge_word |= static_cast<uint16_t>(static_cast<uint16_t>(t.edges[e]) << (4 * board));
    }
    for (int s = 0; s < t.num_segments; ++s) {
      const Segment& seg = t.segments[s];
      for (int e = 0; e < 4; ++e)
        if (seg.edges & (1 << e)) rot.edge_segment[(e + r) & 3] = static_cast<uint8_t>(s);
      for (int h = 0; h < 8; ++h)
        if (seg.halves & (1 << h)) rot.half_segment[(h + 2 * r) & 7] = static_cast<uint8_t>(s);
    }
  }
  // Two rotations are the same placement when their segments, seen in the board's frame, are the same
  // up to renumbering (BA.CFc turned half way swaps its two fields but looks identical).
  auto shapes = [&](int r) {
    auto rot_edges = [r](uint8_t edges) { return static_cast<uint8_t>(((edges << r) | (edges >> (4 - r))) & 0xF); };
    auto rot_halves = [r](uint8_t halves) {
      return static_cast<uint8_t>(((halves << (2 * r)) | (halves >> (8 - 2 * r))) & 0xFF);
    };
    std::vector<std::array<int, 8>> out;
    for (int s = 0; s < t.num_segments; ++s) {
      const Segment& seg = t.segments[s];
      int touched = 0;  // the board-frame edges of the cities a field touches
      for (int c = 0; c < t.num_segments; ++c)
        if (seg.touches & (1 << c)) touched |= 1 << rot_edges(t.segments[c].edges);
      out.push_back({static_cast<int>(seg.kind), rot_edges(seg.edges), rot_halves(seg.halves), seg.pennants,
                     static_cast<int>(seg.end), touched, seg.pig_herd * 2 + seg.inn, seg.inner_index ? 1 : 0});
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  for (int r = 0; r < 4; ++r) {
    t.rot[r].canonical = static_cast<uint8_t>(r);
    for (int q = 0; q < r; ++q) {
      if (t.rot[q].edge_word == t.rot[r].edge_word && shapes(q) == shapes(r)) {
        t.rot[r].canonical = static_cast<uint8_t>(q);
        break;
      }
    }
    if (t.rot[r].canonical == r) {
      auto& d = t.distinct_rotations;
      d.rotation[d.count] = static_cast<uint8_t>(r);
      d.edge_word[d.count++] = t.rot[r].edge_word;
      d.by_rotation |= static_cast<uint64_t>(t.rot[r].edge_word) << (16 * r);
    }
  }
}

// Every edge covered once: city/road/river edges by exactly one segment of their kind, and field halves
// beside every field, road and river edge; no halves on city edges.
void validate(const TileType& t, int line) {
  uint8_t half_cover = 0;
  for (int s = 0; s < t.num_segments; ++s) {
    const Segment& seg = t.segments[s];
    if (seg.halves & half_cover) fail(line, t.id + ": a half-edge belongs to two fields");
    half_cover |= seg.halves;
  }
  for (int e = 0; e < 4; ++e) {
    int owners = 0;
    SegmentKind owner_kind = SegmentKind::kField;
    for (int s = 0; s < t.num_segments; ++s)
      if (t.segments[s].edges & (1 << e)) ++owners, owner_kind = t.segments[s].kind;
    const uint8_t halves = static_cast<uint8_t>(3 << (2 * e));
    const EdgeKind k = t.edges[e];
    const std::string where = t.id + " edge " + kEdgeNames[e];
    if (t.interior[e] || k == EdgeKind::kAbbey) {
      if (owners) fail(line, where + ": an inside or abbey edge carries no city, road or river");
      continue;
    }
    if (k == EdgeKind::kField) {
      if (owners) fail(line, where + ": field edge claimed by a city, road or river");
      if ((half_cover & halves) != halves) fail(line, where + ": field edge without fields on both halves");
      continue;
    }
    const SegmentKind want = k == EdgeKind::kCity ? SegmentKind::kCity
                             : k == EdgeKind::kRoad ? SegmentKind::kRoad : SegmentKind::kRiver;
    if (owners != 1 || owner_kind != want) fail(line, where + ": must belong to exactly one segment of its kind");
    if (k == EdgeKind::kCity && (half_cover & halves)) fail(line, where + ": city edge with field halves");
    if (k != EdgeKind::kCity && (half_cover & halves) != halves)
      fail(line, where + ": road or river edge without fields on both sides");
  }
  int buildings = 0;
  for (int s = 0; s < t.num_segments; ++s) {
    const Segment& seg = t.segments[s];
    if (seg.kind == SegmentKind::kCloister || seg.kind == SegmentKind::kShrine) ++buildings;
    if ((seg.end == RoadEnd::kCloister || seg.end == RoadEnd::kShrine) && t.cloister < 0)
      fail(line, t.id + ": road ends at a building the tile does not have");
  }
  if (buildings > 1) fail(line, t.id + ": more than one cloister or shrine");
  if (t.has(kFlagAbbey) && t.cloister < 0) fail(line, t.id + ": an abbey is a cloister");
}

}  // namespace

const char* to_string(SegmentKind kind) {
  switch (kind) {
    case SegmentKind::kCity: return "city";
    case SegmentKind::kRoad: return "road";
    case SegmentKind::kField: return "field";
    case SegmentKind::kCloister: return "cloister";
    case SegmentKind::kShrine: return "shrine";
    case SegmentKind::kRiver: return "river";
  }
  return "?";
}

const char* edge_name(int edge) { return kEdgeNames[edge & 3]; }
const char* half_name(int half) { return kHalfNames[half & 7]; }
int parse_edge(std::string_view s) {
  for (int e = 0; e < 4; ++e)
    if (s == kEdgeNames[e]) return e;
  return -1;
}
int parse_half(std::string_view s) {
  for (int h = 0; h < 8; ++h)
    if (s == kHalfNames[h]) return h;
  return -1;
}

int TileSet::total() const {
  int n = 0;
  for (auto [tile, copies] : counts) n += copies;
  return n;
}

int TileCatalog::find(std::string_view id) const {
  for (const TileType& t : tiles_)
    if (t.id == id) return t.index;
  return -1;
}

const TileSet* TileCatalog::set(std::string_view name) const {
  for (const TileSet& s : sets_)
    if (s.name == name) return &s;
  return nullptr;
}

TileCatalog TileCatalog::parse(std::string_view text) {
  TileCatalog cat;
  int line_no = 0;
  for (const std::string& raw : split(text, '\n')) {
    ++line_no;
    std::string line = raw.substr(0, raw.find('#'));
    const auto colon = line.find(':');
    const std::vector<std::string> head = words(line.substr(0, colon));
    if (head.empty()) continue;
    if (colon == std::string::npos) fail(line_no, "missing ':'");
    const std::string body = line.substr(colon + 1);
    if (head[0] == "tile") {
      if (head.size() < 3 || head[2].size() != 4) fail(line_no, "expected: tile ID EDGES [FLAG...] : ...");
      if (cat.find(head[1]) >= 0) fail(line_no, "tile " + head[1] + " defined twice");
      TileType t;
      t.id = head[1];
      t.index = static_cast<uint8_t>(cat.tiles_.size());
      for (int e = 0; e < 4; ++e) {
        t.edges[e] = edge_kind(head[2][e], line_no);
        t.interior[e] = head[2][e] == 'X';
      }
      for (size_t i = 3; i < head.size(); ++i) {
        const std::string& f = head[i];
        if (f == "start") t.flags |= kFlagStart;
        else if (f == "spring") t.flags |= kFlagSpring;
        else if (f == "fork") t.flags |= kFlagFork;
        else if (f == "lake") t.flags |= kFlagLake;
        else if (f == "volcano") t.flags |= kFlagVolcano;
        else if (f == "abbey") t.flags |= kFlagAbbey;
        else if (f == "block") t.flags |= kFlagBlock;
        else fail(line_no, "unknown tile flag '" + f + "'");
      }
      int inner = 0;
      for (const std::string& part : split(body, '|')) {
        const std::vector<std::string> w = words(part);
        if (w.empty()) continue;
        if (t.num_segments == kMaxSegments) fail(line_no, "too many segments");
        t.segments[t.num_segments++] = parse_segment(t, w, line_no, inner);
      }
      int kind_count[6] = {};
      for (int s = 0; s < t.num_segments; ++s) {
        const Segment& seg = t.segments[s];
        const int k = static_cast<int>(seg.kind);
        if (++kind_count[k] == 2) t.repeated_kinds |= static_cast<uint8_t>(1 << k);
        if (seg.kind == SegmentKind::kRiver) t.river = true;
        if (seg.kind == SegmentKind::kCloister || seg.kind == SegmentKind::kShrine) t.cloister = static_cast<int8_t>(s);
      }
      for (int s = 0; s < t.num_segments; ++s) {  // with repeated_kinds complete
        const Segment& seg = t.segments[s];
        const bool linear = seg.kind == SegmentKind::kCity || seg.kind == SegmentKind::kRoad;
        t.initial_open[s] = linear ? seg.edge_count : 0;
        t.initial_pennants[s] = seg.pennants;
        t.initial_repeated[s] = linear && (t.repeated_kinds >> static_cast<int>(seg.kind) & 1);
      }
      validate(t, line_no);
      precompute_rotations(t);
      cat.tiles_.push_back(std::move(t));
    } else if (head[0] == "set") {
      if (head.size() != 4) fail(line_no, "expected: set NAME total=N pennants=P : ID=COUNT ...");
      TileSet set;
      set.name = head[1];
      const int total = std::stoi(head[2].substr(head[2].find('=') + 1));
      const int pennants = std::stoi(head[3].substr(head[3].find('=') + 1));
      int pennant_sum = 0;
      for (const std::string& item : words(body)) {
        const auto eq = item.find('=');
        const int tile = cat.find(item.substr(0, eq));
        if (eq == std::string::npos || tile < 0) fail(line_no, "unknown tile in set: '" + item + "'");
        const int copies = std::stoi(item.substr(eq + 1));
        set.counts.emplace_back(static_cast<uint8_t>(tile), static_cast<uint8_t>(copies));
        for (int s = 0; s < cat.tiles_[tile].num_segments; ++s) pennant_sum += copies * cat.tiles_[tile].segments[s].pennants;
      }
      if (set.total() != total)
        fail(line_no, "set " + set.name + " has " + std::to_string(set.total()) + " tiles, expected " + std::to_string(total));
      if (pennant_sum != pennants)
        fail(line_no, "set " + set.name + " has " + std::to_string(pennant_sum) + " pennants, expected " + std::to_string(pennants));
      cat.sets_.push_back(std::move(set));
    } else {
      fail(line_no, "expected 'tile' or 'set', got '" + head[0] + "'");
    }
  }
  return cat;
}

const char* TileCatalog::embedded_data() { return kEmbeddedTileData; }

}  // namespace meeple
