// Proves that legal-move generation, chance outcomes and apply never touch the heap: global operator new
// is replaced by a counting one, and whole random games are played inside the counted window.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "meeple/ai/player.h"
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

}  // namespace
}  // namespace meeple
