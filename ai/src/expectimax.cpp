#include "meeple/ai/expectimax.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

#include "threads.h"

namespace meeple {
namespace {

// Values lie strictly inside (kLow, kHigh); windows one wider can never fail on that side.
constexpr double kLow = -1, kHigh = 1, kBelow = -2, kAbove = 2;

}  // namespace

// One search from a root: fail-soft alpha-beta at decision nodes, Star1/Star2 at chance nodes. A result r
// of a search with window (alpha, beta) is exact when alpha < r < beta, an upper bound of the true value
// when r <= alpha, a lower bound when r >= beta.
class ExpectimaxPlayer::Search {
 public:
  struct OutOfBudget {};

  Search(const ExpectimaxOptions& o, const Evaluator& evaluator, int me, std::atomic<int64_t>& evaluations)
      : o_(o), evaluator_(evaluator), me_(me), evaluations_(evaluations) {}

  // Stop (throw OutOfBudget) once the budget is spent; unset for a search that must finish.
  void set_budget(bool on, std::chrono::steady_clock::time_point start) {
    budgeted_ = on;
    start_ = start;
  }

  // The root: every action, `first` tried first; returns the best value and sets `best`. If the budget
  // runs out, `best` is still the best of the actions searched to the end (the first is searched with the
  // full window, each later one only to see whether it beats the best so far), so a deeper search that
  // was cut short still improves on the shallower one.
  // With threads > 1, the first action is searched alone (it sets the bound the others must beat) and
  // the others on all threads, each from the best value found so far; the first of equal values wins, as
  // with one thread, unless two differ by nothing at all.
  double root(const State& s, int turns, Action first, Action& best) {
    ActionList actions;
    order(s, turns, actions);
    const auto it = std::find(actions.items.begin(), actions.items.begin() + actions.size, first);
    if (it != actions.items.begin() + actions.size) std::rotate(actions.items.begin(), it, it + 1);
    double value = kBelow;
    int best_index = -1;
    auto search_child = [&](Search& search, int i, double alpha) {
      State child = s;
      child.apply(actions[i]);
      return search.descend(s, child, turns, alpha, kAbove);
    };
    if (o_.threads <= 1 || actions.size < 3) {
      for (int i = 0; i < actions.size; ++i) {
        const double r = search_child(*this, i, value);
        if (r > value) {
          value = r;
          best = actions[i];
        }
      }
      return value;
    }
    value = search_child(*this, 0, value);
    best = actions[0];
    best_index = 0;
    std::mutex mutex;
    bool out_of_budget = false;
    run_on_threads(o_.threads, actions.size - 1, [&](int k) {
      const int i = k + 1;
      double alpha;
      {
        std::lock_guard lock(mutex);
        if (out_of_budget) return;
        alpha = value;
      }
      Search search(o_, evaluator_, me_, evaluations_);
      search.set_budget(budgeted_, start_);
      try {
        const double r = search_child(search, i, alpha);
        std::lock_guard lock(mutex);
        if (r > value || (r == value && i < best_index && r > alpha)) {
          value = r;
          best = actions[i];
          best_index = i;
        }
      } catch (const OutOfBudget&) {
        std::lock_guard lock(mutex);
        out_of_budget = true;
      }
    });
    if (out_of_budget) throw OutOfBudget{};
    return value;
  }

  double search(const State& s, int turns, double alpha, double beta) {
    if (s.is_terminal()) return leaf(s);
    if (s.is_chance()) return turns <= 1 ? leaf(s) : chance(s, turns - 1, alpha, beta);
    return decision(s, turns, alpha, beta, false);
  }

  // From a decision to its child. A turn ends at the next draw, or where another player's turn starts
  // without one (the abbey round after the last tile).
  double descend(const State& parent, const State& child, int turns, double alpha, double beta) {
    if (!child.is_chance() && !child.is_terminal() && child.turn_player() != parent.turn_player())
      return turns <= 1 ? leaf(child) : search(child, turns - 1, alpha, beta);
    return search(child, turns, alpha, beta);
  }

 private:
  double leaf(const State& s) {
    if (s.is_terminal()) return std::tanh(margin(points_of(s), me_, s.num_players()) / o_.reward_scale);
    if (budgeted_ && spent()) throw OutOfBudget{};
    evaluations_.fetch_add(1, std::memory_order_relaxed);
    return std::tanh(margin(evaluator_.evaluate(s), me_, s.num_players()) / o_.reward_scale);
  }

  bool spent() const {
    const int64_t evaluations = evaluations_.load(std::memory_order_relaxed);
    if (o_.evaluations > 0 && evaluations >= o_.evaluations) return true;
    return o_.milliseconds > 0 && (evaluations & 63) == 0 &&
           std::chrono::steady_clock::now() - start_ >= std::chrono::milliseconds(o_.milliseconds);
  }

  // Legal actions, the most promising for the mover first when a deeper search follows (alpha-beta and
  // Star2's probes gain most from a good first move); in the last turn, in action order.
  void order(const State& s, int turns, ActionList& actions) {
    s.legal_actions(actions);
    if (turns < 2 || actions.size < 2) return;
    std::array<double, kMaxActions> key;
    std::array<Action, kMaxActions> sorted;
    std::array<int, kMaxActions> index;
    const bool maximise = s.current_player() == me_;
    for (int i = 0; i < actions.size; ++i) {
      State child = s;
      child.apply(actions[i]);
      key[i] = maximise ? -leaf(child) : leaf(child);
      index[i] = i;
    }
    std::stable_sort(index.begin(), index.begin() + actions.size, [&](int a, int b) { return key[a] < key[b]; });
    for (int i = 0; i < actions.size; ++i) sorted[i] = actions[index[i]];
    for (int i = 0; i < actions.size; ++i) actions.items[i] = sorted[i];
  }

  // Fail-soft alpha-beta; with `first_only`, only the first action (Star2's probe: a bound, not a value).
  double decision(const State& s, int turns, double alpha, double beta, bool first_only) {
    ActionList actions;
    order(s, turns, actions);
    const bool maximise = s.current_player() == me_;
    double best = maximise ? kBelow : kAbove;
    const int n = first_only ? std::min(actions.size, 1) : actions.size;
    for (int i = 0; i < n; ++i) {
      State child = s;
      child.apply(actions[i]);
      const double r = descend(s, child, turns, alpha, beta);
      if (maximise) {
        best = std::max(best, r);
        alpha = std::max(alpha, best);
      } else {
        best = std::min(best, r);
        beta = std::min(beta, best);
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  // The probability-weighted mean over the drawable tiles, each answered `turns` turns deep. Star1 stops
  // as soon as the searched outcomes and the bounds of the rest decide the window; Star2 first searches
  // one answer per outcome, which bounds it (an opponent's first answer from above, the searcher's from
  // below), and stops if those bounds already decide.
  double chance(const State& s, int turns, double alpha, double beta) {
    ChanceOutcomes outcomes;
    s.chance_outcomes(outcomes);
    const int n = outcomes.size;
    if (o_.pruning == ExpectimaxOptions::Pruning::kNone) {
      double sum = 0;
      for (int i = 0; i < n; ++i) {
        State child = s;
        child.apply(Action::draw(outcomes.items[i].tile));
        sum += outcomes.probability(i) * search(child, turns, kBelow, kAbove);
      }
      return sum;
    }
    std::array<double, kMaxTileTypes> lo, hi;
    double sum_lo = 0, sum_hi = 0;  // sum of p_i * lo_i and p_i * hi_i
    for (int i = 0; i < n; ++i) {
      lo[i] = kLow;
      hi[i] = kHigh;
      sum_lo += outcomes.probability(i) * kLow;
      sum_hi += outcomes.probability(i) * kHigh;
    }
    if (o_.pruning == ExpectimaxOptions::Pruning::kStar2) {
      for (int i = 0; i < n; ++i) {
        State child = s;
        child.apply(Action::draw(outcomes.items[i].tile));
        if (child.is_terminal() || child.is_chance()) continue;
        const double p = outcomes.probability(i);
        if (child.current_player() != me_) {  // an answer bounds the opponent's choice from above
          const double a = (alpha - (sum_hi - p * hi[i])) / p;
          const double bound = std::min(kHigh, decision(child, turns, a, kAbove, true));
          sum_hi -= p * (hi[i] - bound);
          hi[i] = bound;
          if (sum_hi <= alpha) return sum_hi;
        } else {  // and the searcher's from below
          const double b = (beta - (sum_lo - p * lo[i])) / p;
          const double bound = std::max(kLow, decision(child, turns, kBelow, b, true));
          sum_lo += p * (bound - lo[i]);
          lo[i] = bound;
          if (sum_lo >= beta) return sum_lo;
        }
      }
    }
    double exact = 0;  // sum of p_j * v_j over the outcomes searched
    for (int i = 0; i < n; ++i) {
      const double p = outcomes.probability(i);
      sum_lo -= p * lo[i];  // now over the outcomes after i
      sum_hi -= p * hi[i];
      const double a = (alpha - exact - sum_hi) / p;
      const double b = (beta - exact - sum_lo) / p;
      State child = s;
      child.apply(Action::draw(outcomes.items[i].tile));
      const double r = search(child, turns, std::max(a, kBelow), std::min(b, kAbove));
      if (r <= a) return exact + p * r + sum_hi;
      if (r >= b) return exact + p * r + sum_lo;
      exact += p * r;
    }
    return exact;
  }

  const ExpectimaxOptions& o_;
  const Evaluator& evaluator_;
  const int me_;
  std::atomic<int64_t>& evaluations_;
  bool budgeted_ = false;
  std::chrono::steady_clock::time_point start_;
};

ExpectimaxPlayer::ExpectimaxPlayer(ExpectimaxOptions options)
    : options_(std::move(options)), evaluator_(options_.evaluator ? options_.evaluator : make_evaluator("trained")) {}

double ExpectimaxPlayer::value(const State& state, int depth) {
  require_decision(state);
  check_rules(state.rules());
  evaluations_.store(0);
  Search search(options_, *evaluator_, state.current_player(), evaluations_);
  Action best = Action::none();
  return search.root(state, depth, Action::none(), best);
}

Action ExpectimaxPlayer::choose(const State& state) {
  require_decision(state);
  check_rules(state.rules());
  const auto start = std::chrono::steady_clock::now();
  evaluations_.store(0);
  Search search(options_, *evaluator_, state.current_player(), evaluations_);
  const bool budgeted = options_.milliseconds > 0 || options_.evaluations > 0;
  Action best = Action::none();
  // Iterative deepening under a budget (depth 1 always completes); a fixed depth otherwise.
  for (int depth = budgeted ? 1 : options_.depth; depth <= options_.depth; ++depth) {
    search.set_budget(budgeted && depth > 1, start);
    Action found = Action::none();
    try {
      last_value_ = search.root(state, depth, best, found);
      best = found;
      last_depth_ = depth;
    } catch (const Search::OutOfBudget&) {
      if (found != Action::none()) best = found;  // the best of the actions this depth finished
      break;
    }
  }
  return best;
}

}  // namespace meeple
