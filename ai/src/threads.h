// Running a few tasks on a few threads: what the searches share.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

namespace meeple {

// Runs task(0) .. task(n - 1) on `threads` threads of a oneTBB arena and waits for all of them.
// oneTBB is not built with ThreadSanitizer, which therefore cannot see that handing a task to a worker
// orders it after the caller; under ThreadSanitizer the tasks run on std::threads instead, so everything
// the search threads share is still checked.
template <typename Task>
void run_on_threads(int threads, int n, Task&& task) {
#if defined(__SANITIZE_THREAD__)
  std::atomic<int> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int i; (i = next.fetch_add(1)) < n;) task(i);
    });
  for (auto& t : pool) t.join();
#else
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::task_group group;
    for (int i = 0; i < n; ++i) group.run([&, i] { task(i); });
    group.wait();
  });
#endif
}

}  // namespace meeple
