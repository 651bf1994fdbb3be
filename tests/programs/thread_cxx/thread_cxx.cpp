// C++ threads inside PEs: std::thread, std::mutex with std::lock_guard, std::condition_variable
// (wait with a predicate, wait_for timing out in simulated time), std::this_thread::sleep_for,
// join — all simulated, deterministic.
#include <shmem.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

static long counter; // symmetric: work counter at PE 0
static std::mutex m;
static std::condition_variable cv;
static int finished = 0, done_here = 0;

int main()
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  const int me = shmem_my_pe(), n = shmem_n_pes();
  std::vector<std::thread> workers;
  for (int i = 0; i < 3; ++i)
    workers.emplace_back([i] {
      std::this_thread::sleep_for(std::chrono::microseconds(10 * (i + 1)));
      while (shmem_long_atomic_fetch_add(&counter, 1, 0) < 24) {
        std::lock_guard<std::mutex> g(m);
        ++done_here;
      }
      std::lock_guard<std::mutex> g(m);
      ++finished;
      cv.notify_all();
    });
  bool timed_out = false;
  {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [] { return finished == 3; });
    timed_out = !cv.wait_for(lk, std::chrono::microseconds(5), [] { return finished > 3; });
  }
  for (auto& t : workers)
    t.join();
  static long mine, total, pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE], psync[SHMEM_REDUCE_SYNC_SIZE];
  for (auto& p : psync)
    p = SHMEM_SYNC_VALUE;
  mine = done_here;
  shmem_barrier_all();
  shmem_long_sum_to_all(&total, &mine, 1, 0, 0, n, pwrk, psync);
  const bool ok = total == 24 && timed_out;
  if (me == 0)
    std::printf(ok ? "thread_cxx: OK on %d PEs\n" : "thread_cxx: WRONG on %d PEs\n", n);
  shmem_finalize();
  return ok ? 0 : 1;
}
