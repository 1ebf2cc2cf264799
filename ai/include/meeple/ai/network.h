// Policy-value networks (docs/networks.md, weight file format meeple-net/1): from the board encoding of a
// position (encoding.h) a value for every seat and a logit for every action id, evaluated only at the
// candidate cells (where the game is still open), so that search can afford one at every leaf.
//
// A network is immutable after loading: one instance serves every search thread. Evaluation writes into a
// caller-owned Workspace (one per thread), so a batch of positions costs no heap allocation once the
// workspace has grown to the largest boards seen. The batched path gathers the candidate cells of every
// position of the batch into one matrix and does one matrix product per layer (the cell layer's patches,
// nine tenths zeros, are multiplied by their nonzero entries only); evaluate_reference() is the same
// function written plainly, one position at a time, for tests and for comparison with the Python (JAX)
// implementation that trains these networks.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include "meeple/ai/encoding.h"
#include "meeple/ai/evaluator.h"
#include "meeple/rules.h"
#include "meeple/state.h"

namespace meeple {

inline constexpr const char* kNetworkFormat = "meeple-net/1";

// The sizes a network file declares (docs/networks.md); the defaults are the spec's default size.
struct NetworkShape {
  int channels = 32;        // K: per candidate cell
  int residual = 1;         // R: residual layers on the cells
  int flat_hidden = 64;     // Hf
  int global_hidden = 64;   // G
  bool hand_features = true;
  double reward_scale = 20;  // values are tanh(margin / reward_scale)
  // An evaluator spec ("trained": the shipped one) whose leaf_points (evaluator.h) the value corrects:
  // value = tanh(head + margin(leaf_points) / reward_scale), so that the net starts from the evaluator's
  // values and learns what they miss. Empty: value = tanh(head).
  std::string value_base;
  static constexpr int kMaxWidth = 256;  // K, Hf and G are 1 to this
  static constexpr int kMaxResidual = 8;
};

class PolicyValueNet {
 public:
  // Throws std::invalid_argument naming `source` and what is wrong (every refusal of docs/networks.md).
  static PolicyValueNet from_json(std::string_view text, const std::string& source);
  std::string to_json() const;

  const std::string& name() const { return name_; }
  const Rules& trained_on() const { return rules_; }
  int players() const { return encoding_.players(); }
  const NetworkShape& shape() const { return shape_; }
  double reward_scale() const { return shape_.reward_scale; }
  const Encoding& encoding() const { return encoding_; }
  // The evaluator whose values the network's value corrects (NetworkShape::value_base), or null.
  const std::shared_ptr<const Evaluator>& value_base() const { return value_base_; }
  // Throws std::invalid_argument when the network was trained on other rules (expansions or options, as
  // evaluators are refused) or another player count.
  void check_rules(const Rules& rules) const;

  // Whose point of view a position is read from: the player to act, or at a chance node the player whose
  // turn it is.
  static int observer_of(const State& s) { return s.is_chance() ? s.turn_player() : s.current_player(); }

  // Scratch space for batches of up to max_batch positions, for one thread at a time. Its buffers for the
  // candidate cells start at a typical board's size and grow (rarely: only past the largest batch seen).
  class Workspace {
   public:
    Workspace(const PolicyValueNet& net, int max_batch);
    ~Workspace();
    Workspace(Workspace&&) noexcept;
    Workspace& operator=(Workspace&&) noexcept;
    int max_batch() const;

   private:
    friend class PolicyValueNet;
    struct Buffers;
    std::unique_ptr<Buffers> b_;
  };
  static constexpr int kMaxBatch = 1024;

  // One position of a batch: `state` is not terminal. `values` receives every seat's value (absolute
  // seats; entries past players() are 0). With `actions` (the legal actions of a decision state), `priors`
  // receives one prior per action, positive and summing to 1: the softmax of their logits, an action
  // without an id (outside the window) getting the smallest logit of the others.
  struct Query {
    const State* state = nullptr;
    const ActionList* actions = nullptr;
    float* priors = nullptr;
    PlayerValues* values = nullptr;
  };
  // Throws std::invalid_argument for more queries than the workspace holds, a workspace of another network,
  // or a state that is terminal or of other rules' player count.
  void evaluate(std::span<const Query> queries, Workspace& workspace) const;

  // The network's raw outputs for one position, computed plainly: each seat's value from the observer's
  // seat on (observer_of), and a logit for every action id (Encoding::num_action_ids()), -infinity for
  // the ids it does not compute (placements and abbeys off the candidate cells).
  struct Outputs {
    std::vector<float> values;
    std::vector<float> logits;
  };
  Outputs evaluate_reference(const State& state) const;

 private:
  // A dense layer as the file has it: kernel [inputs x outputs], so column o holds output o's weights.
  struct Dense {
    Eigen::MatrixXf kernel;
    Eigen::VectorXf bias;
  };
  PolicyValueNet(std::string name, const Rules& rules, const NetworkShape& shape);
  int flat_inputs() const;
  template <typename Self, typename Visit>
  static void for_each_tensor(Self& self, Visit&& visit);
  int read_cells(Workspace::Buffers& w, int b, int column) const;
  void backbone(Workspace::Buffers& w, int batch) const;

  // Each seat's margin(leaf_points) / reward_scale from the observer's seat on: the value base's term.
  void base_terms(const State& s, int observer, float* out) const;

  std::string name_;
  Rules rules_;
  NetworkShape shape_;
  std::shared_ptr<const Evaluator> value_base_;
  Encoding encoding_;
  Dense flat_, cell_, place_, abbey_, deploy_, global_, other_, value_;
  Eigen::MatrixXf flat_to_cell_;
  std::vector<Dense> residual_;
  Eigen::MatrixXf cell_inputs_;  // cell/kernel transposed: column i holds input i's weights, contiguous
};

// Reads a network weight file (through meeple/input.h: a regular file of at most 64 MiB); errors
// (std::invalid_argument) name the file and what is wrong.
std::shared_ptr<const PolicyValueNet> load_network(const std::string& path);

// The shipped networks (ai/weights/net-*.json, embedded at build time), read once: what mcts:net=trained
// plays with, each game with the one trained on its rules.
const std::vector<std::shared_ptr<const PolicyValueNet>>& shipped_networks();
// The shipped network for exactly these rules (players, expansions and options); std::invalid_argument
// naming the rules the shipped ones are for when none is.
std::shared_ptr<const PolicyValueNet> shipped_network(const Rules& rules);

// A network of this shape for these rules with random weights (uniform, scaled by each layer's inputs), as
// a weight file's text: for tests and benchmarks.
std::string random_network_json(const Rules& rules, const NetworkShape& shape, uint64_t seed, const std::string& name = "random");

}  // namespace meeple
