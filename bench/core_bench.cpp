// Core engine speed: move generation, apply, copy, and whole random games. Figures, not tests.
// Run a Release build:  build/bin/meeple_bench --benchmark_min_time=1
// Baseline rows, measured in the same run so speed-ups can be quoted as ratios on this noisy machine:
// NaivePlacements (the slow reference generator of the tests) for move generation, PlacementKernel (a
// placement-only game, placement_kernel.h) for whole games.
#include <benchmark/benchmark.h>

#include <vector>

#include "../tests/support/naive_generator.h"
#include "placement_kernel.h"
#include "positions.h"
#include "meeple/ai/player.h"
#include "meeple/random.h"

namespace meeple {
namespace {

void BM_LegalPlacements(benchmark::State& st) {
  const auto positions = placement_positions(static_cast<uint8_t>(st.range(0)));
  ActionList list;
  size_t i = 0;
  for (auto _ : st) {
    positions[i].legal_actions(list);
    benchmark::DoNotOptimize(list.size);
    if (++i == positions.size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel("positions/s");
}
BENCHMARK(BM_LegalPlacements)->Arg(0)->ArgName("base");

void BM_NaivePlacements(benchmark::State& st) {  // the baseline
  const auto positions = placement_positions(0);
  size_t i = 0;
  for (auto _ : st) {
    auto set = testing::naive_placements(positions[i], positions[i].drawn_tile());
    benchmark::DoNotOptimize(set.size());
    if (++i == positions.size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel("positions/s");
}
BENCHMARK(BM_NaivePlacements);

void BM_ApplyPlacement(benchmark::State& st) {
  const auto positions = placement_positions(0);
  std::vector<Action> first;
  for (const State& s : positions) {
    ActionList list;
    s.legal_actions(list);
    first.push_back(list[list.size / 2]);
  }
  size_t i = 0;
  State scratch = positions[0];
  for (auto _ : st) {
    st.PauseTiming();
    scratch = positions[i];
    st.ResumeTiming();
    scratch.apply(first[i]);
    benchmark::DoNotOptimize(scratch);
    if (++i == positions.size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_ApplyPlacement);

void BM_StateCopy(benchmark::State& st) {
  const auto positions = placement_positions(0);
  const State& src = positions[positions.size() / 2];
  State dst = src;
  for (auto _ : st) {
    dst = src;
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations());
  st.SetBytesProcessed(st.iterations() * static_cast<int64_t>(sizeof(State)));
}
BENCHMARK(BM_StateCopy);

// A new game's first position: State(rules) copies the thread's last one for the same rules (arg 1);
// the deck constructor sets it up afresh (arg 0, the baseline).
void BM_NewGame(benchmark::State& st) {
  const Rules rules = rules_for(static_cast<uint8_t>(st.range(0)));
  for (auto _ : st) {
    if (st.range(1)) {
      State s(rules);
      benchmark::DoNotOptimize(s);
    } else {
      State s(rules, std::span<const uint8_t>{});
      benchmark::DoNotOptimize(s);
    }
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_NewGame)->ArgsProduct({{0, kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor}, {0, 1}})
    ->ArgNames({"expansions", "copied"});

// A whole game: deal, choose uniformly (sample_legal_action), apply, until final scoring.
void BM_RandomPlayout(benchmark::State& st) {
  const Rules rules = rules_for(static_cast<uint8_t>(st.range(0)), static_cast<int>(st.range(1)));
  uint64_t seed = 1;
  for (auto _ : st) {
    Dealer dealer(seed);
    Rng rng(seed++);
    State s(rules);
    while (!s.is_terminal()) s.apply(s.is_chance() ? dealer.deal(s) : s.sample_legal_action(rng));
    benchmark::DoNotOptimize(s.score(0));
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel("games/s");
}
// The baseline of the rows above: the same games with edge matching only (placement_kernel.h).
void BM_PlacementKernel(benchmark::State& st) {
  PlacementKernel kernel;
  Rng rng(1);
  for (auto _ : st) benchmark::DoNotOptimize(kernel.play(rng));
  st.SetItemsProcessed(st.iterations());
  st.SetLabel("games/s");
}
BENCHMARK(BM_PlacementKernel);

constexpr int kAllExpansions = kRiver2 | kCount | kKingRobber | kCultPlaces | kAbbeyMayor;
BENCHMARK(BM_RandomPlayout)
    ->Args({0, 2})
    ->Args({kRiver2 | kKingRobber, 2})
    ->Args({kRiver2 | kCount | kKingRobber | kCultPlaces, 2})
    ->Args({kAllExpansions, 2})
    ->Args({0, 4})
    ->Args({kAllExpansions, 6})
    ->ArgNames({"expansions", "players"});

// The same game, choosing from the full legal_actions() list at every decision.
void BM_RandomPlayoutFullLists(benchmark::State& st) {
  const Rules rules = rules_for(static_cast<uint8_t>(st.range(0)), static_cast<int>(st.range(1)));
  uint64_t seed = 1;
  ActionList list;
  for (auto _ : st) {
    Dealer dealer(seed);
    Rng rng(seed++);
    State s(rules);
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.apply(dealer.deal(s));
      } else {
        s.legal_actions(list);
        s.apply(list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size)))]);
      }
    }
    benchmark::DoNotOptimize(s.score(0));
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel("games/s");
}
BENCHMARK(BM_RandomPlayoutFullLists)->Args({0, 2})->ArgNames({"expansions", "players"});

// Sequential MCTS with random rollouts from the tenth placement of a base game: simulations per second.
}  // namespace
}  // namespace meeple

BENCHMARK_MAIN();
