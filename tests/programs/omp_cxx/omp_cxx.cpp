// OpenMP in C++ (shmemsim-c++ -fopenmp): a parallel loop over a std::vector with a reduction,
// std::mutex inside a region, a user-defined reduction, and tasks capturing C++ objects.
#include <omp.h>
#include <shmem.h>

#include <cstdio>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

struct Stats {
  long n   = 0;
  double s = 0;
};
#pragma omp declare reduction(merge : Stats : omp_out.n += omp_in.n, omp_out.s += omp_in.s)

int main()
{
  shmem_init();
  int errors = 0;
  std::vector<double> v(10000);
#pragma omp parallel for schedule(dynamic, 64)
  for (std::size_t i = 0; i < v.size(); i++)
    v[i] = static_cast<double>(i);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (std::size_t i = 0; i < v.size(); i++)
    sum += v[i];
  errors += sum != 10000.0 * 9999 / 2;
  std::mutex m;
  std::vector<int> ids;
#pragma omp parallel
  {
    std::lock_guard<std::mutex> g(m);
    ids.push_back(omp_get_thread_num());
  }
  errors += static_cast<int>(ids.size()) != omp_get_max_threads();
  Stats st;
#pragma omp parallel for reduction(merge : st)
  for (int i = 0; i < 1000; i++) {
    st.n += 1;
    st.s += 0.5;
  }
  errors += st.n != 1000 || st.s != 500.0;
  std::vector<std::string> words(16);
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < 16; i++) {
#pragma omp task firstprivate(i) shared(words)
    words[i] = std::string(i, 'x');
  }
  std::size_t chars = 0;
  for (const auto& w : words)
    chars += w.size();
  errors += chars != 120;
  if (errors != 0)
    std::printf("FAIL PE %d: %d wrong results\n", shmem_my_pe(), errors);
  else if (shmem_my_pe() == 0)
    std::printf("omp_cxx: OK on %d PEs\n", shmem_n_pes());
  shmem_finalize();
  return errors != 0;
}
