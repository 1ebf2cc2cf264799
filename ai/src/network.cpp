#include "meeple/ai/network.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "meeple/ai/features.h"
#include "meeple/checked.h"
#include "meeple/input.h"
#include "meeple/random.h"
#include "weight_files.h"

namespace meeple {
extern const char* const kShippedNetworks;  // ai/weights/net-*.json as one JSON array, embedded at build time
}  // namespace meeple

namespace meeple {
namespace {

using Eigen::Index;

constexpr int kDeployOutputs = 4 * kMaxSegments;
// Pass, then every id from kCountDeploy on.
constexpr int kOtherOutputs = 1 + action_id::kEnd - action_id::kCountDeploy;
// Candidate cells a workspace first makes room for per position: more than a 2-player base game's board
// ever has (its frontier), so the buffers rarely grow.
constexpr int kTypicalCells = 96;

// A nonzero plane value of a cell, (plane << 8) | value: what the cell layer reads of the planes.
using PlaneEntry = uint16_t;
// The cell layer adds kernel rows this many outputs at a time, kept in registers.
constexpr int kCellBlock = 32;

// log1p of every plane value (a byte), as the network reads the planes.
const std::array<float, 256>& log1p_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int v = 0; v < 256; ++v) t[static_cast<size_t>(v)] = std::log1p(static_cast<float>(v));
    return t;
  }();
  return table;
}

// A nonzero input of a patch and its row of the cell kernel: the cell layer's product is a sum of these.
struct PatchTerm {
  float x;
  const float* weights;
};

// out[0, kCellBlock) = the sum over the terms of x times weights[offset, offset + kCellBlock): the cell layer's
// inner loop, a third of its time. The build targets no particular CPU (SSE2, four floats at a time), so this
// one function is also compiled for AVX2 (eight at a time) and the loader picks the version the CPU runs
// (an ifunc: GCC with glibc). Each output is summed in the same order with the same operations in both (no
// fused multiply-add: "avx2" does not enable FMA, and ai/CMakeLists.txt compiles this file with
// -ffp-contract=off), so the two give the same bits. Not under ThreadSanitizer, whose runtime is not yet
// set up when the loader runs the ifunc's resolver (the test binary crashed before main).
static_assert(kCellBlock % 8 == 0);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__GLIBC__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default")))
#endif
void sum_terms(const PatchTerm* terms, int count, int offset, float* out) {
  // Eight floats as one value (GCC's and Clang's vector extension), so the sums stay in registers.
  typedef float Eight __attribute__((vector_size(32)));
  constexpr int kParts = kCellBlock / 8;
  Eight sum[kParts] = {};
  for (int t = 0; t < count; ++t) {
    const float x = terms[t].x;
    const float* w = terms[t].weights + offset;
    for (int i = 0; i < kParts; ++i) {
      Eight row;
      std::memcpy(&row, w + 8 * i, sizeof row);
      sum[i] += x * row;
    }
  }
  std::memcpy(out, sum, sizeof sum);
}

float signed_log1p(float f) { return f == 0 ? 0.0f : std::copysign(std::log1p(std::abs(f)), f); }

// The id's output of "other" (pass, then the ids from kCountDeploy on), or -1.
int other_output(int id) {
  if (id == action_id::kPass) return 0;
  return id >= action_id::kCountDeploy && id < action_id::kEnd ? 1 + id - action_id::kCountDeploy : -1;
}

// dst = lhs * rhs, in pieces: Eigen's matrix product takes each of its two packing buffers from the stack
// up to EIGEN_STACK_ALLOCATION_LIMIT bytes and from the heap beyond, and a search must not touch the heap
// per leaf. A packed block is at most its operand, so each piece's operands stay under the limit.
template <typename Dst, typename Lhs, typename Rhs>
void product(Dst&& dst, const Lhs& lhs, const Rhs& rhs) {
  constexpr Index kMaxFloats = EIGEN_STACK_ALLOCATION_LIMIT / static_cast<Index>(sizeof(float));
  const Index depth = std::max<Index>(1, lhs.cols());
  const Index step = std::max<Index>(1, kMaxFloats / depth);
  for (Index r = 0; r < lhs.rows(); r += step) {
    const Index rows = std::min(step, lhs.rows() - r);
    for (Index c = 0; c < rhs.cols(); c += step) {
      const Index cols = std::min(step, rhs.cols() - c);
      dst.block(r, c, rows, cols).noalias() = lhs.middleRows(r, rows) * rhs.middleCols(c, cols);
    }
  }
}

// Softmax of the legal actions' logits in place; an action without an id (NaN here) gets the smallest
// logit of the others (all equal when none has one).
void softmax_with_missing(float* x, int n) {
  float low = std::numeric_limits<float>::infinity(), high = -low;
  for (int i = 0; i < n; ++i)
    if (!std::isnan(x[i])) {
      low = std::min(low, x[i]);
      high = std::max(high, x[i]);
    }
  if (high < low) low = high = 0;  // no action has an id
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += (x[i] = std::exp((std::isnan(x[i]) ? low : x[i]) - high));
  for (int i = 0; i < n; ++i) x[i] /= sum;
}

std::string shape_text(const std::vector<Index>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

}  // namespace

// ---- Weights ----

PolicyValueNet::PolicyValueNet(std::string name, const Rules& rules, const NetworkShape& shape)
    : name_(std::move(name)), rules_(rules), shape_(shape),
      value_base_(shape.value_base.empty() ? nullptr : make_evaluator(shape.value_base)), encoding_(rules.players) {
  const Index k = shape.channels, hf = shape.flat_hidden, g = shape.global_hidden;
  const auto dense = [](Dense& d, Index inputs, Index outputs) {
    d.kernel.setZero(inputs, outputs);
    d.bias.setZero(outputs);
  };
  dense(flat_, flat_inputs(), hf);
  dense(cell_, 9 * encoding_.num_planes(), k);
  flat_to_cell_.setZero(hf, k);
  residual_.resize(static_cast<size_t>(shape.residual));
  for (Dense& r : residual_) dense(r, k, k);
  dense(place_, k, 4);
  dense(abbey_, k, 1);
  dense(deploy_, k, kDeployOutputs);
  dense(global_, 3 * k + hf, g);
  dense(other_, g, kOtherOutputs);
  dense(value_, g, encoding_.players());
}

int PolicyValueNet::flat_inputs() const {
  return encoding_.flat_size() + (shape_.hand_features ? kNumFeatures * encoding_.players() : 0);
}

// Every tensor with its file name, in the spec's order.
template <typename Self, typename Visit>
void PolicyValueNet::for_each_tensor(Self& self, Visit&& visit) {
  const auto dense = [&](const std::string& name, auto& d) {
    visit(name + "/kernel", d.kernel);
    visit(name + "/bias", d.bias);
  };
  dense("flat", self.flat_);
  dense("cell", self.cell_);
  visit(std::string("flat_to_cell/kernel"), self.flat_to_cell_);
  for (size_t i = 0; i < self.residual_.size(); ++i) dense("res" + std::to_string(i), self.residual_[i]);
  dense("place", self.place_);
  dense("abbey", self.abbey_);
  dense("deploy", self.deploy_);
  dense("global", self.global_);
  dense("other", self.other_);
  dense("value", self.value_);
}

PolicyValueNet PolicyValueNet::from_json(std::string_view text, const std::string& source) {
  const auto fail = [&](const std::string& what) { throw std::invalid_argument(excerpt(source) + ": " + what); };
  nlohmann::json j;
  try {
    j = parse_json(text);
  } catch (const std::invalid_argument& e) {
    std::string why = std::string("not JSON (a truncated file?): ") + e.what();
    if (text.find("NaN") != std::string_view::npos || text.find("Infinity") != std::string_view::npos)
      why += "; NaN and Infinity are not JSON numbers: a weight is not finite";
    fail(why);
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kNetworkFormat)
    fail(std::string("not a network weight file: expected an object with \"format\": \"") + kNetworkFormat + "\"" +
         (j.is_object() && j.contains("format") ? ", got " + excerpt_json(j["format"]) : ""));
  const auto field = [&](const char* key) -> const nlohmann::json& {
    if (!j.contains(key)) fail(std::string("needs \"") + key + "\"");
    return j[key];
  };
  const auto integer = [&](const char* key, int lo, int hi) {
    const nlohmann::json& v = field(key);
    if (!v.is_number_integer()) fail(std::string(key) + " must be an integer, got " + excerpt_json(v));
    const bool in_range = v.is_number_unsigned() ? std::cmp_greater_equal(v.get<uint64_t>(), lo) && std::cmp_less_equal(v.get<uint64_t>(), hi)
                                                 : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
    if (!in_range)
      fail(std::string(key) + " " + range_text(lo, hi) + ", got " + excerpt_json(v));
    return static_cast<int>(v.get<int64_t>());
  };
  const int version = integer("encoding", std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  if (version != kEncodingVersion)
    fail("written for encoding version " + std::to_string(version) + ", but this meeple's encoding is version " +
         std::to_string(kEncodingVersion) + " (ai/encoding.h): train the network again");
  if (j.contains("name") && !j["name"].is_string()) fail("name must be a string");
  if (!j.contains("rules")) fail("needs \"rules\", the rules it was trained on (such as \"players=2\")");
  const Fail rules_fail = fail;
  const Rules rules = *rules_from_json(j, rules_fail);
  const int players = integer("players", 2, kMaxPlayers);
  if (players != rules.players)
    fail("players is " + std::to_string(players) + " but its rules are for " + std::to_string(rules.players) + " players");
  const Encoding encoding(players);
  const int planes = integer("planes", 0, std::numeric_limits<int>::max());
  if (planes != encoding.num_planes())
    fail("planes is " + std::to_string(planes) + " but the encoding (version " + std::to_string(kEncodingVersion) + ") of " +
         std::to_string(players) + " players has " + std::to_string(encoding.num_planes()));
  const int flat = integer("flat", 0, std::numeric_limits<int>::max());
  if (flat != encoding.flat_size())
    fail("flat is " + std::to_string(flat) + " but the encoding (version " + std::to_string(kEncodingVersion) + ") of " +
         std::to_string(players) + " players has " + std::to_string(encoding.flat_size()) + " flat fields");
  NetworkShape shape;
  if (!field("hand_features").is_boolean()) fail("hand_features must be true or false, got " + excerpt_json(j["hand_features"]));
  shape.hand_features = j["hand_features"].get<bool>();
  shape.channels = integer("channels", 1, NetworkShape::kMaxWidth);
  shape.residual = integer("residual", 0, NetworkShape::kMaxResidual);
  shape.flat_hidden = integer("flat_hidden", 1, NetworkShape::kMaxWidth);
  shape.global_hidden = integer("global_hidden", 1, NetworkShape::kMaxWidth);
  const nlohmann::json& scale = field("reward_scale");
  if (!scale.is_number() || !(scale.get<double>() > 0) || !std::isfinite(scale.get<double>()))
    fail("reward_scale must be a positive number, got " + excerpt_json(scale));
  shape.reward_scale = scale.get<double>();
  if (j.contains("value_base")) {
    if (!j["value_base"].is_string() || j["value_base"].get<std::string>().empty())
      fail("value_base must be an evaluator spec such as \"trained\", got " + excerpt_json(j["value_base"]));
    shape.value_base = j["value_base"].get<std::string>();
  }
  const nlohmann::json& tensors = field("tensors");
  if (!tensors.is_object()) fail("tensors must be an object of {\"shape\": [...], \"data\": [...]} by name");

  // The value base's evaluator is made once, by the constructor, and checked against the rules here.
  const auto construct = [&]() -> PolicyValueNet {
    try {
      PolicyValueNet made(j.value("name", source), rules, shape);
      if (made.value_base_) made.value_base_->check_rules(rules);
      return made;
    } catch (const std::invalid_argument& e) {
      fail(std::string("value_base: ") + e.what());
      throw;  // not reached: fail throws
    }
  };
  PolicyValueNet net = construct();
  std::set<std::string> expected;
  for_each_tensor(net, [&](const std::string& name, const auto&) { expected.insert(name); });
  for (const auto& [key, _] : tensors.items())
    if (!expected.count(key))
      fail("unexpected tensor '" + excerpt(key) + "' (a net of " + std::to_string(shape.residual) + " residual layers has res0 to res" +
           std::to_string(shape.residual - 1) + ")");
  for_each_tensor(net, [&](const std::string& name, auto& t) {
    constexpr bool kVector = std::decay_t<decltype(t)>::ColsAtCompileTime == 1;
    const std::string at = "tensor '" + name + "'";
    if (!tensors.contains(name)) fail(at + " is missing");
    const nlohmann::json& entry = tensors[name];
    if (!entry.is_object() || !entry.contains("shape") || !entry.contains("data") || !entry["data"].is_array())
      fail(at + " must be an object {\"shape\": [...], \"data\": [...]}");
    const std::vector<Index> want = kVector ? std::vector<Index>{t.rows()} : std::vector<Index>{t.rows(), t.cols()};
    std::vector<Index> got;
    bool ok = entry["shape"].is_array();
    for (const auto& d : ok ? entry["shape"] : nlohmann::json::array()) {
      ok = ok && d.is_number_integer() && d.get<int64_t>() >= 0 && d.get<int64_t>() < (int64_t{1} << 40);
      if (ok) got.push_back(static_cast<Index>(d.get<int64_t>()));
    }
    if (!ok) fail(at + " has shape " + excerpt_json(entry["shape"]) + ", not a list of sizes; expected " + shape_text(want));
    if (got != want) fail(at + " has shape " + shape_text(got) + ", expected " + shape_text(want));
    const nlohmann::json& data = entry["data"];
    if (static_cast<Index>(data.size()) != t.size())
      fail(at + " has " + std::to_string(data.size()) + " numbers, its shape " + shape_text(want) + " needs " + std::to_string(t.size()));
    // Row-major [inputs, outputs] in the file, so element (i, o) of the kernel is data[i * outputs + o].
    const Index cols = kVector ? 1 : t.cols();
    for (Index i = 0; i < t.size(); ++i) {
      const nlohmann::json& v = data[static_cast<size_t>(i)];
      const double x = v.is_number() ? v.get<double>() : std::numeric_limits<double>::quiet_NaN();
      if (!(std::abs(x) <= std::numeric_limits<float>::max()))
        fail(at + " data[" + std::to_string(i) + "] is " + (v.is_number() ? "not a finite 32-bit float" : excerpt_json(v) + ", not a number"));
      t(i / cols, i % cols) = static_cast<float>(x);
    }
  });
  // Outputs padded to whole blocks with zero weights.
  net.cell_inputs_.setZero((shape.channels + kCellBlock - 1) / kCellBlock * kCellBlock, net.cell_.kernel.rows());
  net.cell_inputs_.topRows(shape.channels) = net.cell_.kernel.transpose();
  return net;
}

std::string PolicyValueNet::to_json() const {
  nlohmann::ordered_json j;
  j["format"] = kNetworkFormat;
  j["name"] = name_;
  j["rules"] = rules_.to_string();
  j["encoding"] = kEncodingVersion;
  j["players"] = players();
  j["planes"] = encoding_.num_planes();
  j["flat"] = encoding_.flat_size();
  j["hand_features"] = shape_.hand_features;
  j["channels"] = shape_.channels;
  j["residual"] = shape_.residual;
  j["flat_hidden"] = shape_.flat_hidden;
  j["global_hidden"] = shape_.global_hidden;
  j["reward_scale"] = shape_.reward_scale;
  if (!shape_.value_base.empty()) j["value_base"] = shape_.value_base;
  nlohmann::ordered_json tensors = nlohmann::ordered_json::object();
  for_each_tensor(*this, [&](const std::string& name, const auto& t) {
    constexpr bool kVector = std::decay_t<decltype(t)>::ColsAtCompileTime == 1;
    std::vector<float> data(static_cast<size_t>(t.size()));
    const Index cols = kVector ? 1 : t.cols();
    for (Index i = 0; i < t.size(); ++i) data[static_cast<size_t>(i)] = t(i / cols, i % cols);
    tensors[name] = {{"shape", kVector ? std::vector<Index>{t.rows()} : std::vector<Index>{t.rows(), t.cols()}}, {"data", data}};
  });
  j["tensors"] = std::move(tensors);
  return j.dump();
}

void PolicyValueNet::check_rules(const Rules& rules) const {
  if (rules.players != players())
    throw std::invalid_argument("network '" + excerpt(name_) + "' is for " + std::to_string(players()) + " players, not " +
                                std::to_string(rules.players) + "; train a network for these rules");
  if (const std::string why = rules_mismatch("network '" + excerpt(name_) + "'", rules_, rules); !why.empty())
    throw std::invalid_argument(why + "; train a network for these rules");
  if (value_base_) {
    try {
      value_base_->check_rules(rules);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("network '" + excerpt(name_) + "' value_base: " + e.what());
    }
  }
}

void PolicyValueNet::base_terms(const State& s, int observer, float* out) const {
  const PlayerValues points = leaf_points(*value_base_, s);
  const int n = players();
  for (int k = 0; k < n; ++k) out[k] = static_cast<float>(margin(points, (observer + k) % n, n) / shape_.reward_scale);
}

const std::vector<std::shared_ptr<const PolicyValueNet>>& shipped_networks() {
  static const auto nets = [] {
    auto read = read_shipped<PolicyValueNet>(kShippedNetworks, "shipped network", [](const std::string& text, const std::string& source) {
      return std::make_shared<const PolicyValueNet>(PolicyValueNet::from_json(text, source));
    });
    // mcts checks its options (net_value=, scale=) with the first before a game picks its own.
    if (read.empty()) throw std::logic_error("no shipped network was embedded (ai/CMakeLists.txt MEEPLE_NETWORK_FILES)");
    for (const auto& net : read)
      if (net->reward_scale() != read.front()->reward_scale()) throw std::logic_error("the shipped networks must share one reward scale");
    return read;
  }();
  return nets;
}

std::shared_ptr<const PolicyValueNet> shipped_network(const Rules& rules) {
  std::string shipped;
  for (const auto& net : shipped_networks()) {
    if (net->players() == rules.players && rules_mismatch("", net->trained_on(), rules).empty()) return net;
    shipped += (shipped.empty() ? "" : "; ") + net->trained_on().to_string();
  }
  throw std::invalid_argument("no shipped network is for " + rules.to_string() + " (the shipped ones are for " + shipped +
                              "): train one with python -m meeple train-net and give net=FILE.json");
}

std::shared_ptr<const PolicyValueNet> load_network(const std::string& path) {
  return std::make_shared<const PolicyValueNet>(PolicyValueNet::from_json(read_text(path, "network weights"), path));
}

std::string random_network_json(const Rules& rules, const NetworkShape& shape, uint64_t seed, const std::string& name) {
  const auto check = [](const char* what, int value, int lo, int hi) {
    if (value < lo || value > hi)
      throw std::invalid_argument(std::string("random_network_json: ") + what + " " + range_text(lo, hi) + ", got " + std::to_string(value));
  };
  check("channels", shape.channels, 1, NetworkShape::kMaxWidth);
  check("residual", shape.residual, 0, NetworkShape::kMaxResidual);
  check("flat_hidden", shape.flat_hidden, 1, NetworkShape::kMaxWidth);
  check("global_hidden", shape.global_hidden, 1, NetworkShape::kMaxWidth);
  if (!(shape.reward_scale > 0) || !std::isfinite(shape.reward_scale))
    throw std::invalid_argument("random_network_json: reward_scale must be a positive number");
  const Encoding encoding(rules.players);
  const int k = shape.channels, hf = shape.flat_hidden, g = shape.global_hidden;
  const int flat_in = encoding.flat_size() + (shape.hand_features ? kNumFeatures * rules.players : 0);
  Rng rng(seed);
  nlohmann::ordered_json tensors = nlohmann::ordered_json::object();
  // Weights of variance 1 / inputs keep activations near 1 through the layers; small biases.
  const auto dense = [&](const std::string& layer, int inputs, int outputs, bool bias = true) {
    const double scale = std::sqrt(3.0 / inputs);
    std::vector<float> w(static_cast<size_t>(inputs) * static_cast<size_t>(outputs));
    for (float& x : w) x = static_cast<float>((2 * rng.uniform() - 1) * scale);
    tensors[layer + "/kernel"] = {{"shape", {inputs, outputs}}, {"data", w}};
    if (!bias) return;
    std::vector<float> b(static_cast<size_t>(outputs));
    for (float& x : b) x = static_cast<float>((2 * rng.uniform() - 1) * 0.1);
    tensors[layer + "/bias"] = {{"shape", {outputs}}, {"data", b}};
  };
  dense("flat", flat_in, hf);
  dense("cell", 9 * encoding.num_planes(), k);
  dense("flat_to_cell", hf, k, false);
  for (int i = 0; i < shape.residual; ++i) dense("res" + std::to_string(i), k, k);
  dense("place", k, 4);
  dense("abbey", k, 1);
  dense("deploy", k, kDeployOutputs);
  dense("global", 3 * k + hf, g);
  dense("other", g, kOtherOutputs);
  dense("value", g, rules.players);
  nlohmann::ordered_json j;
  j["format"] = kNetworkFormat;
  j["name"] = name;
  j["rules"] = rules.to_string();
  j["encoding"] = kEncodingVersion;
  j["players"] = rules.players;
  j["planes"] = encoding.num_planes();
  j["flat"] = encoding.flat_size();
  j["hand_features"] = shape.hand_features;
  j["channels"] = k;
  j["residual"] = shape.residual;
  j["flat_hidden"] = hf;
  j["global_hidden"] = g;
  j["reward_scale"] = shape.reward_scale;
  if (!shape.value_base.empty()) j["value_base"] = shape.value_base;
  j["tensors"] = std::move(tensors);
  return j.dump();
}

// ---- Batched evaluation ----

struct PolicyValueNet::Workspace::Buffers {
  Buffers(const PolicyValueNet& n, int batch) : net(&n), max_batch(batch) {
    const Index k = n.shape_.channels, hf = n.shape_.flat_hidden, g = n.shape_.global_hidden;
    planes.resize(static_cast<size_t>(n.encoding_.plane_size()));
    flat.resize(static_cast<size_t>(n.encoding_.flat_size()));
    x_flat.resize(n.flat_inputs(), batch);
    f.resize(hf, batch);
    to_cell.resize(k, batch);
    global_in.resize(3 * k + hf, batch);
    global.resize(g, batch);
    values.resize(n.players(), batch);
    base.setZero(n.players(), batch);
    first.resize(static_cast<size_t>(batch) + 1);
    last.resize(static_cast<size_t>(batch));
    windows.resize(static_cast<size_t>(batch));
    column.fill(-1);
    entries.resize(static_cast<size_t>(kWindowCells) * static_cast<size_t>(n.encoding_.num_planes()));
    terms.resize(9 * static_cast<size_t>(n.encoding_.num_planes()));
    reserve_cells(batch * kTypicalCells);
  }
  // Room for n candidate cells, keeping the columns written so far.
  void reserve_cells(Index n) {
    if (n <= h.cols()) return;
    const Index capacity = std::max(n, 2 * h.cols());
    h.conservativeResize(net->shape_.channels, capacity);
    t.resize(net->shape_.channels, capacity);
    cell_of.resize(static_cast<size_t>(capacity));
  }

  const PolicyValueNet* net;
  int max_batch;
  std::vector<uint8_t> planes;
  std::vector<float> flat;
  std::array<float, kFeatureBufferSize> hand;
  // One column per position.
  Eigen::MatrixXf x_flat, f, to_cell, global_in, global, values, base;  // base: the value base's terms
  // One column per candidate cell, the positions' cells one after another.
  Eigen::MatrixXf h, t;
  // The nonzero plane values of each cell around the candidates (of the position being read): cell c's are
  // entries[c * planes ...], counts[c] of them.
  std::vector<PlaneEntry> entries;
  std::array<uint8_t, kWindowCells> counts;
  std::vector<PatchTerm> terms;  // of the patch being multiplied
  std::vector<int16_t> cell_of;  // the window cell of each column
  std::vector<int> first;        // position b's columns are first[b] to first[b + 1] - 1
  std::vector<int> last;         // the column of position b's last placed tile, or -1
  std::vector<Window> windows;
  std::array<int, kWindowCells> column;  // window cell -> column, for the position being read (else -1)
};

PolicyValueNet::Workspace::Workspace(const PolicyValueNet& net, int max_batch) {
  if (max_batch < 1 || max_batch > kMaxBatch)
    throw std::invalid_argument("a network workspace holds 1 to " + std::to_string(kMaxBatch) + " positions, not " + std::to_string(max_batch));
  b_ = std::make_unique<Buffers>(net, max_batch);
}
PolicyValueNet::Workspace::~Workspace() = default;
PolicyValueNet::Workspace::Workspace(Workspace&&) noexcept = default;
PolicyValueNet::Workspace& PolicyValueNet::Workspace::operator=(Workspace&&) noexcept = default;
int PolicyValueNet::Workspace::max_batch() const { return b_->max_batch; }

// Position b's candidate cells from the planes in the workspace, as columns from `column` on: the cells
// (cell_of), the last placed one's column (last[b]), and each cell's patch @ cell/kernel in h. A patch is
// about nine tenths zeros (41 nonzero of 450 on average in 2-player base games: empty cells, expansions not
// in play, seats with no figure there), so the product is taken over the nonzero plane values only, each
// adding its row of the kernel: a tenth of the dense product's multiply-adds, and no patch is written
// (half the time of a whole evaluation, measured). Returns the next free column.
int PolicyValueNet::read_cells(Workspace::Buffers& w, int b, int column) const {
  const uint8_t* planes = w.planes.data();
  const int num_planes = encoding_.num_planes(), k = shape_.channels;
  const uint8_t* frontier = planes + Encoding::kFrontier * kWindowCells;
  const uint8_t* last_placed = planes + Encoding::kLastPlaced * kWindowCells;
  w.last[static_cast<size_t>(b)] = -1;
  const int first = column;
  int top = kWindow, bottom = -1, left = kWindow, right = -1;
  for (int c = 0; c < kWindowCells; ++c) {
    if (c % 8 == 0) {  // eight cells at a time: most of the window is empty
      uint64_t open, placed;
      std::memcpy(&open, frontier + c, 8);
      std::memcpy(&placed, last_placed + c, 8);
      if ((open | placed) == 0) {
        c += 7;
        continue;
      }
    }
    if (!frontier[c] && !last_placed[c]) continue;
    w.reserve_cells(column + 1);
    if (last_placed[c]) w.last[static_cast<size_t>(b)] = column;
    w.cell_of[static_cast<size_t>(column++)] = static_cast<int16_t>(c);
    top = std::min(top, c / kWindow), bottom = std::max(bottom, c / kWindow);
    left = std::min(left, c % kWindow), right = std::max(right, c % kWindow);
  }
  if (column == first) return column;
  // The nonzero values of every cell next to a candidate: the candidates' bounding box, one cell wider.
  top = std::max(top - 1, 0), bottom = std::min(bottom + 1, kWindow - 1);
  left = std::max(left - 1, 0), right = std::min(right + 1, kWindow - 1);
  for (int r = top; r <= bottom; ++r) std::fill_n(w.counts.begin() + r * kWindow + left, right - left + 1, uint8_t{0});
  // Eight cells at a time: most words of a plane are zero (empty cells, planes of expansions not in play).
  PlaneEntry* entries = w.entries.data();
  const int first_word = left / 8, last_word = right / 8;
  for (int p = 0; p < num_planes; ++p)
    for (int r = top; r <= bottom; ++r) {
      const uint8_t* row = planes + p * kWindowCells + r * kWindow;
      for (int word = first_word; word <= last_word; ++word) {
        uint64_t bytes;
        std::memcpy(&bytes, row + 8 * word, 8);
        while (bytes) {  // the nonzero bytes, lowest first
          const int i = std::countr_zero(bytes) / 8;
          bytes &= ~(uint64_t{0xFF} << (8 * i));
          const int c = 8 * word + i;
          if (c < left || c > right) continue;
          const int cell = r * kWindow + c;
          entries[cell * num_planes + w.counts[static_cast<size_t>(cell)]++] = static_cast<PlaneEntry>(p << 8 | row[c]);
        }
      }
    }
  const auto& table = log1p_table();
  const Index stride = cell_inputs_.rows();
  for (int n = first; n < column; ++n) {
    const int cell = w.cell_of[static_cast<size_t>(n)], row = cell / kWindow, col = cell % kWindow;
    int terms = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int r = row + dy, c = col + dx;
        if (r < 0 || r >= kWindow || c < 0 || c >= kWindow) continue;  // zero off the window
        const int next = r * kWindow + c, offset = (dy + 1) * 3 + dx + 1;
        for (int i = 0; i < w.counts[static_cast<size_t>(next)]; ++i) {
          const PlaneEntry e = entries[next * num_planes + i];
          // Input (p * 3 + dy + 1) * 3 + dx + 1 of the patch.
          w.terms[static_cast<size_t>(terms++)] = {table[e & 255], cell_inputs_.data() + ((e >> 8) * 9 + offset) * stride};
        }
      }
    float* out = w.h.col(n).data();
    for (int j0 = 0; j0 < k; j0 += kCellBlock) {
      float block[kCellBlock];
      sum_terms(w.terms.data(), terms, j0, block);
      std::copy_n(block, std::min(kCellBlock, k - j0), out + j0);
    }
  }
  return column;
}

// Everything but the action heads, for the positions whose inputs are in the workspace.
void PolicyValueNet::backbone(Workspace::Buffers& w, int batch) const {
  const Index cells = w.first[static_cast<size_t>(batch)];
  const Index k = shape_.channels;
  auto f = w.f.leftCols(batch);
  product(f, flat_.kernel.transpose(), w.x_flat.leftCols(batch));
  f = (f.colwise() + flat_.bias).cwiseMax(0.0f);
  auto to_cell = w.to_cell.leftCols(batch);
  product(to_cell, flat_to_cell_.transpose(), f);
  to_cell.colwise() += cell_.bias;
  auto h = w.h.leftCols(cells);  // holds patch @ cell/kernel (read_cells)
  for (int b = 0; b < batch; ++b) {
    auto mine = w.h.middleCols(w.first[static_cast<size_t>(b)], w.first[static_cast<size_t>(b) + 1] - w.first[static_cast<size_t>(b)]);
    mine = (mine.colwise() + to_cell.col(b)).cwiseMax(0.0f);
  }
  auto t = w.t.leftCols(cells);
  for (const Dense& r : residual_) {
    product(t, r.kernel.transpose(), h);
    h = ((h + t).colwise() + r.bias).cwiseMax(0.0f);
  }
  for (int b = 0; b < batch; ++b) {
    const Index first = w.first[static_cast<size_t>(b)], count = w.first[static_cast<size_t>(b) + 1] - first;
    auto in = w.global_in.col(b);
    if (count > 0) {
      in.segment(0, k) = w.h.middleCols(first, count).rowwise().sum() / static_cast<float>(count);
      in.segment(k, k) = w.h.middleCols(first, count).rowwise().maxCoeff();
    } else {
      in.segment(0, 2 * k).setZero();
    }
    const int last = w.last[static_cast<size_t>(b)];
    if (last >= 0) in.segment(2 * k, k) = w.h.col(last);
    else in.segment(2 * k, k).setZero();
    in.segment(3 * k, shape_.flat_hidden) = w.f.col(b);
  }
  auto g = w.global.leftCols(batch);
  product(g, global_.kernel.transpose(), w.global_in.leftCols(batch));
  g = (g.colwise() + global_.bias).cwiseMax(0.0f);
  auto v = w.values.leftCols(batch);
  product(v, value_.kernel.transpose(), g);
  v = ((v.colwise() + value_.bias) + w.base.leftCols(batch)).array().tanh().matrix();
}

void PolicyValueNet::evaluate(std::span<const Query> queries, Workspace& workspace) const {
  Workspace::Buffers& w = *workspace.b_;
  const int batch = static_cast<int>(queries.size());
  if (w.net != this) throw std::invalid_argument("PolicyValueNet::evaluate: the workspace was made for another network");
  if (batch > w.max_batch)
    throw std::invalid_argument("PolicyValueNet::evaluate: " + std::to_string(batch) + " positions but the workspace holds " +
                                std::to_string(w.max_batch));
  const int players = encoding_.players(), flat_size = encoding_.flat_size();
  // Inputs: each position's flat vector and hand features in its column, its candidate cells' patches.
  int cells = 0;
  for (int b = 0; b < batch; ++b) {
    const State& s = *queries[static_cast<size_t>(b)].state;
    if (s.is_terminal()) throw std::invalid_argument("PolicyValueNet::evaluate: a finished game has no value to estimate");
    if (s.num_players() != players)
      throw std::invalid_argument("PolicyValueNet::evaluate: a state of " + std::to_string(s.num_players()) +
                                  " players given to a network for " + std::to_string(players));
    const int observer = observer_of(s);
    encoding_.observe(s, observer, w.planes.data(), w.flat.data());
    w.windows[static_cast<size_t>(b)] = Window::of(s);
    float* x = w.x_flat.col(b).data();
    for (int i = 0; i < flat_size; ++i) x[i] = signed_log1p(w.flat[static_cast<size_t>(i)]);
    if (shape_.hand_features) {
      extract_features(s, w.hand);
      for (int k = 0; k < players; ++k)
        std::copy_n(w.hand.data() + ((observer + k) % players) * kNumFeatures, kNumFeatures, x + flat_size + k * kNumFeatures);
    }
    if (value_base_ && queries[static_cast<size_t>(b)].values) base_terms(s, observer, w.base.col(b).data());  // else unread
    w.first[static_cast<size_t>(b)] = cells;
    cells = read_cells(w, b, cells);
  }
  w.first[static_cast<size_t>(batch)] = cells;
  backbone(w, batch);

  // Outputs: values turned to absolute seats; the logits of the legal actions.
  for (int b = 0; b < batch; ++b) {
    const Query& q = queries[static_cast<size_t>(b)];
    const State& s = *q.state;
    const int observer = observer_of(s);
    if (q.values) {
      *q.values = PlayerValues{};
      for (int k = 0; k < players; ++k) (*q.values)[static_cast<size_t>((observer + k) % players)] = w.values(k, b);
    }
    if (!q.actions) continue;
    const int first = w.first[static_cast<size_t>(b)], end = w.first[static_cast<size_t>(b) + 1], last = w.last[static_cast<size_t>(b)];
    for (int n = first; n < end; ++n) w.column[static_cast<size_t>(w.cell_of[static_cast<size_t>(n)])] = n;
    const Window& window = w.windows[static_cast<size_t>(b)];
    const auto global = w.global.col(b);
    float* logits = q.priors;
    for (int i = 0; i < q.actions->size; ++i) {
      const int id = Encoding::id_of(s, window, (*q.actions)[i]);
      float logit = std::numeric_limits<float>::quiet_NaN();
      if (const int o = id < 0 ? -1 : other_output(id); o >= 0) {
        logit = other_.kernel.col(o).dot(global) + other_.bias[o];
      } else if (id >= action_id::kDeploy) {
        const int j = id - action_id::kDeploy;
        logit = deploy_.bias[j] + (last >= 0 ? deploy_.kernel.col(j).dot(w.h.col(last)) : 0.0f);
      } else if (id >= action_id::kAbbey) {
        if (const int n = w.column[static_cast<size_t>(id - action_id::kAbbey)]; n >= 0) logit = abbey_.kernel.col(0).dot(w.h.col(n)) + abbey_.bias[0];
      } else if (id >= action_id::kPlace) {
        const int r = (id - action_id::kPlace) % 4;
        if (const int n = w.column[static_cast<size_t>((id - action_id::kPlace) / 4)]; n >= 0)
          logit = place_.kernel.col(r).dot(w.h.col(n)) + place_.bias[r];
      }
      logits[i] = logit;
    }
    for (int n = first; n < end; ++n) w.column[static_cast<size_t>(w.cell_of[static_cast<size_t>(n)])] = -1;
    softmax_with_missing(logits, q.actions->size);
  }
}

// ---- The reference: the spec's formulas one by one, in double precision ----

PolicyValueNet::Outputs PolicyValueNet::evaluate_reference(const State& s) const {
  if (s.is_terminal()) throw std::invalid_argument("PolicyValueNet::evaluate_reference: a finished game has no value to estimate");
  if (s.num_players() != players())
    throw std::invalid_argument("PolicyValueNet::evaluate_reference: a state of " + std::to_string(s.num_players()) +
                                " players given to a network for " + std::to_string(players()));
  const int n = players(), num_planes = encoding_.num_planes(), k = shape_.channels, hf = shape_.flat_hidden, g = shape_.global_hidden;
  const int observer = observer_of(s);
  std::vector<uint8_t> planes(static_cast<size_t>(encoding_.plane_size()));
  std::vector<float> flat(static_cast<size_t>(encoding_.flat_size()));
  encoding_.observe(s, observer, planes.data(), flat.data());
  const auto x = [&](int p, int row, int col) -> double {
    if (row < 0 || row >= kWindow || col < 0 || col >= kWindow) return 0;
    return std::log1p(static_cast<double>(planes[static_cast<size_t>(p * kWindowCells + row * kWindow + col)]));
  };
  const auto relu = [](double v) { return v > 0 ? v : 0.0; };
  const auto layer = [](const Dense& d, const std::vector<double>& in, int o) {
    double sum = d.bias[o];
    for (size_t i = 0; i < in.size(); ++i) sum += in[i] * d.kernel(static_cast<Index>(i), o);
    return sum;
  };

  std::vector<double> flat_in;
  for (const float v : flat) flat_in.push_back(v == 0 ? 0.0 : std::copysign(std::log1p(std::abs(static_cast<double>(v))), v));
  if (shape_.hand_features) {
    std::array<float, kFeatureBufferSize> features;
    extract_features(s, features);
    for (int seat = 0; seat < n; ++seat)
      for (int i = 0; i < kNumFeatures; ++i) flat_in.push_back(features[static_cast<size_t>(((observer + seat) % n) * kNumFeatures + i)]);
  }
  std::vector<double> f(static_cast<size_t>(hf));
  for (int o = 0; o < hf; ++o) f[static_cast<size_t>(o)] = relu(layer(flat_, flat_in, o));

  std::vector<int> cells;
  for (int c = 0; c < kWindowCells; ++c)
    if (planes[static_cast<size_t>(Encoding::kFrontier * kWindowCells + c)] || planes[static_cast<size_t>(Encoding::kLastPlaced * kWindowCells + c)])
      cells.push_back(c);
  std::vector<std::vector<double>> h;
  for (const int c : cells) {
    std::vector<double> patch;
    for (int p = 0; p < num_planes; ++p)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) patch.push_back(x(p, c / kWindow + dy, c % kWindow + dx));
    std::vector<double> hc(static_cast<size_t>(k));
    for (int o = 0; o < k; ++o) {
      double sum = layer(cell_, patch, o);
      for (int i = 0; i < hf; ++i) sum += f[static_cast<size_t>(i)] * flat_to_cell_(i, o);
      hc[static_cast<size_t>(o)] = relu(sum);
    }
    for (const Dense& r : residual_) {
      std::vector<double> next(static_cast<size_t>(k));
      for (int o = 0; o < k; ++o) next[static_cast<size_t>(o)] = relu(hc[static_cast<size_t>(o)] + layer(r, hc, o));
      hc = next;
    }
    h.push_back(hc);
  }
  std::vector<double> mean(static_cast<size_t>(k), 0.0), max(static_cast<size_t>(k), 0.0), last(static_cast<size_t>(k), 0.0);
  for (size_t i = 0; i < cells.size(); ++i) {
    for (int o = 0; o < k; ++o) {
      mean[static_cast<size_t>(o)] += h[i][static_cast<size_t>(o)] / static_cast<double>(cells.size());
      max[static_cast<size_t>(o)] = i == 0 ? h[i][static_cast<size_t>(o)] : std::max(max[static_cast<size_t>(o)], h[i][static_cast<size_t>(o)]);
    }
    if (planes[static_cast<size_t>(Encoding::kLastPlaced * kWindowCells + cells[i])]) last = h[i];
  }
  std::vector<double> global_in;
  for (const auto* part : {&mean, &max, &last, &f}) global_in.insert(global_in.end(), part->begin(), part->end());
  std::vector<double> global(static_cast<size_t>(g));
  for (int o = 0; o < g; ++o) global[static_cast<size_t>(o)] = relu(layer(global_, global_in, o));

  Outputs out;
  std::vector<float> base(static_cast<size_t>(n), 0.0f);
  if (value_base_) base_terms(s, observer, base.data());
  for (int seat = 0; seat < n; ++seat)
    out.values.push_back(static_cast<float>(std::tanh(layer(value_, global, seat) + base[static_cast<size_t>(seat)])));
  out.logits.assign(static_cast<size_t>(Encoding::num_action_ids()), -std::numeric_limits<float>::infinity());
  for (size_t i = 0; i < cells.size(); ++i) {
    for (int r = 0; r < 4; ++r)
      out.logits[static_cast<size_t>(action_id::kPlace + 4 * cells[i] + r)] = static_cast<float>(layer(place_, h[i], r));
    out.logits[static_cast<size_t>(action_id::kAbbey + cells[i])] = static_cast<float>(layer(abbey_, h[i], 0));
  }
  for (int j = 0; j < kDeployOutputs; ++j) out.logits[static_cast<size_t>(action_id::kDeploy + j)] = static_cast<float>(layer(deploy_, last, j));
  for (int id = 0; id < action_id::kEnd; ++id)
    if (const int o = other_output(id); o >= 0) out.logits[static_cast<size_t>(id)] = static_cast<float>(layer(other_, global, o));
  return out;
}

}  // namespace meeple
