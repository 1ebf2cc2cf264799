// Proves that legal-move generation, chance outcomes, apply, the evaluators, the policy networks, the
// policy-value networks' batches and the simulations of a search with one never touch the heap: global operator new is replaced by a counting one, and whole random games are played
// inside the counted window.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "meeple/ai/encoding.h"
#include "meeple/ai/evaluator.h"
#include "meeple/ai/mcts.h"
#include "meeple/ai/network.h"
#include "meeple/ai/player.h"
#include "meeple/ai/policy.h"
#include "meeple/random.h"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

// Eigen allocates with malloc, not operator new: count malloc too, where it can be replaced (glibc lets a
// program define malloc; the sanitizers define their own, so their builds count operator new only).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define MEEPLE_COUNTS_MALLOC 1
extern "C" void* __libc_malloc(std::size_t);
extern "C" void* malloc(std::size_t n) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
#endif
// This program's operator new is malloc, so free is its delete (GCC cannot see that through the replacement).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace meeple {
namespace {

TEST(Allocation, NoHeapAllocationInMoveGenerationAndApply) {
  for (uint8_t expansions : {uint8_t{0}, uint8_t{kRiver2 | kKingRobber},
                             uint8_t{kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor}}) {
    Rules rules;
    rules.players = 4;
    rules.expansions = expansions;
    TileCatalog::get();  // the one-time parse of the tile data happens outside the window
    State warm(rules);
    (void)warm;
    long games = 0;
    counting = true;
    for (uint64_t seed = 1; seed <= 50; ++seed) {
      Dealer dealer(seed);
      RandomPlayer bot(seed);
      State s(rules);
      ActionList actions;
      ChanceOutcomes outcomes;
      while (!s.is_terminal()) {
        if (s.is_chance()) {
          s.chance_outcomes(outcomes);
          s.apply(dealer.deal(s));
        } else {
          s.legal_actions(actions);
          s.apply(bot.choose(s));
        }
      }
      ++games;
    }
    counting = false;
    EXPECT_EQ(games, 50);
    EXPECT_EQ(allocations.load(), 0) << "heap allocations during play with expansions " << int(expansions);
  }
  // The counter works: a std::vector allocates.
  counting = true;
  std::vector<int>* v = new std::vector<int>(10);
  counting = false;
  EXPECT_GE(allocations.load(), 1);
  delete v;
}

// Search calls the evaluator at every leaf: the shipped linear weights and an MLP evaluate on the stack.
TEST(Allocation, NoHeapAllocationInEvaluators) {
  Rules rules;
  rules.players = 3;
  rules.expansions = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
  const auto trained = make_evaluator("trained");
  Eigen::MatrixXf w1 = Eigen::MatrixXf::Constant(MlpEvaluator::kMaxWidth, kNumFeatures, 0.01f);
  Eigen::MatrixXf w2 = Eigen::MatrixXf::Constant(1, MlpEvaluator::kMaxWidth, 0.5f);
  const MlpEvaluator mlp({{w1, Eigen::VectorXf::Zero(MlpEvaluator::kMaxWidth)}, {w2, Eigen::VectorXf::Zero(1)}}, "wide",
                         std::nullopt);
  // Policy networks too: the shipped ones and one of the widest allowed, at every decision.
  const auto shipped_policy = make_policy("trained");
  const PolicyNet wide_policy(
      {{Eigen::MatrixXf::Constant(PolicyNet::kMaxWidth, kNumActionFeatures, 0.01f), Eigen::VectorXf::Zero(PolicyNet::kMaxWidth)},
       {Eigen::MatrixXf::Constant(PolicyNet::kMaxWidth, PolicyNet::kMaxWidth, 0.01f), Eigen::VectorXf::Zero(PolicyNet::kMaxWidth)},
       {Eigen::MatrixXf::Constant(1, PolicyNet::kMaxWidth, 0.5f), Eigen::VectorXf::Zero(1)}},
      "wide", std::nullopt);
  std::array<float, kMaxActions> priors;
  Dealer dealer(5);
  RandomPlayer bot(5);
  State s(rules);
  double sum = 0;
  const long before = allocations.load();
  while (!s.is_terminal()) {
    ActionList actions;
    s.legal_actions(actions);
    counting = true;
    sum += trained->evaluate(s)[0] + mlp.evaluate(s)[1];
    if (!s.is_chance()) {
      shipped_policy->priors(s, actions, priors);
      sum += priors[0];
      wide_policy.priors(s, actions, priors);
      sum += priors[0];
    }
    counting = false;
    s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
  }
  EXPECT_EQ(allocations.load(), before) << "heap allocations while evaluating";
  EXPECT_NE(sum, 0);
#ifdef MEEPLE_COUNTS_MALLOC
  // The malloc counter sees Eigen: a product of dynamic matrices allocates its temporary.
  const Eigen::MatrixXf a = Eigen::MatrixXf::Ones(40, 40);
  const long quiet = allocations.load();
  counting = true;
  const float total = ((a * a).array() + 1.0f).sum();
  counting = false;
  EXPECT_GT(allocations.load(), quiet);
  EXPECT_EQ(total, 40 * 40 * 41);
#endif
}

// The board encoding writes observations, masks and turned copies into the caller's buffers.
TEST(Allocation, NoHeapAllocationInTheEncoding) {
  Rules rules;
  rules.players = 3;
  rules.expansions = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
  const Encoding encoding(3);
  std::vector<uint8_t> planes(static_cast<size_t>(encoding.plane_size())), scratch(planes.size());
  std::vector<float> flat(static_cast<size_t>(encoding.flat_size()));
  std::vector<uint8_t> mask(static_cast<size_t>(Encoding::num_action_ids()));
  Dealer dealer(9);
  RandomPlayer bot(9);
  State s(rules);
  long ids = 0;
  const long before = allocations.load();
  counting = true;
  while (!s.is_terminal()) {
    if (!s.is_chance()) {
      encoding.observe(s, s.current_player(), planes.data(), flat.data());
      encoding.legal_mask(s, mask.data(), 1);
      encoding.rotate_planes(planes.data(), scratch.data(), 3);
      encoding.rotate_flat(flat.data(), 3);
      const Action a = bot.choose(s);
      ids += Encoding::id_of(s, a) + Encoding::rotate_id(Encoding::id_of(s, a), 2, s.drawn_tile());
      s.apply(Encoding::action_of(s, Encoding::id_of(s, a)));
    } else {
      s.apply(dealer.deal(s));
    }
  }
  counting = false;
  EXPECT_EQ(allocations.load(), before) << "heap allocations while encoding";
  EXPECT_GT(ids, 0);
}

// A policy-value network evaluates batches in its workspace: positions of whole games (decisions with
// their priors, tile draws), the spec's default size, every expansion with 3 players.
TEST(Allocation, NoHeapAllocationInNetworkBatches) {
  Rules rules;
  rules.players = 3;
  rules.expansions = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
  const PolicyValueNet net = PolicyValueNet::from_json(random_network_json(rules, NetworkShape{}, 1), "random");
  constexpr int kBatch = 8;
  PolicyValueNet::Workspace workspace(net, kBatch);
  std::vector<State> states;
  std::vector<ActionList> actions(kBatch);
  std::vector<std::array<float, kMaxActions>> priors(kBatch);
  std::vector<PlayerValues> values(kBatch);
  std::vector<PolicyValueNet::Query> queries(kBatch);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Dealer dealer(seed);
    RandomPlayer bot(seed);
    State s(rules);
    while (!s.is_terminal()) {
      states.push_back(s);
      s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
    }
  }
  double sum = 0;
  const long before = allocations.load();
  for (size_t first = 0; first + kBatch <= states.size(); first += kBatch) {
    counting = true;
    for (int i = 0; i < kBatch; ++i) {
      const State& s = states[first + static_cast<size_t>(i)];
      if (!s.is_chance()) s.legal_actions(actions[static_cast<size_t>(i)]);
      queries[static_cast<size_t>(i)] = {&s, s.is_chance() ? nullptr : &actions[static_cast<size_t>(i)], priors[static_cast<size_t>(i)].data(),
                                         &values[static_cast<size_t>(i)]};
    }
    net.evaluate(queries, workspace);
    counting = false;
    sum += values[0][0] + priors[kBatch - 1][0];
  }
  EXPECT_EQ(allocations.load(), before) << "heap allocations while evaluating batches";
  EXPECT_NE(sum, 0);
}

// A search allocates per search (its tree's first block of nodes, root statistics), never per simulation:
// 2,000 simulations allocate no more than 100 (up to the node blocks a bigger tree takes), with a network
// and with the default guided search.
TEST(Allocation, NoHeapAllocationPerSimulation) {
  Rules rules;
  const auto net = std::make_shared<const PolicyValueNet>(PolicyValueNet::from_json(random_network_json(rules, NetworkShape{}, 1), "random"));
  Dealer dealer(3);
  RandomPlayer bot(3);
  State s(rules);
  for (int i = 0; i < 30; ++i) s.apply(s.is_chance() ? dealer.deal(s) : bot.choose(s));
  while (s.is_chance()) s.apply(dealer.deal(s));
  for (const int batch : {8, 1, 0}) {  // 0: the guided search, no network
    SCOPED_TRACE(batch ? "network, batch " + std::to_string(batch) : "guided");
    const auto search = [&](int iterations) {
      MctsOptions o;
      if (batch) {
        o.network = net;
        o.batch = batch;
      }
      o.iterations = iterations;
      o.reuse_tree = false;
      MctsPlayer player(o);
      (void)player.choose(s);  // the player's workspaces, the shipped weights' parse
      const long before = allocations.load();
      counting = true;
      (void)player.choose(s);
      counting = false;
      EXPECT_EQ(player.verify_tree(), "");
      // A node block holds 32,768 nodes (MctsPlayer::NodeArena).
      return std::make_pair(allocations.load() - before, player.last_nodes() / 32768);
    };
    const auto [few, few_blocks] = search(100);
    const auto [many, many_blocks] = search(2000);
    EXPECT_GT(few, 0);  // the tree itself
    EXPECT_LE(many - few, many_blocks - few_blocks + 1) << few << " allocations for 100 simulations, " << many << " for 2000";
  }
}

}  // namespace
}  // namespace meeple
