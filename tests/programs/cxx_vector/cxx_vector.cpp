// A C++ program built with shmemsim-c++: iostream output, a std::vector, shmem_int_put, a
// static object with a constructor (run once per PE copy) and an exception caught locally.
#include <shmem.h>

#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
struct Registry {
  int constructed = 0;
  Registry() { ++constructed; }
};
Registry registry;
int received[256];
} // namespace

int main()
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  int errors = 0;

  std::vector<int> values(256);
  std::iota(values.begin(), values.end(), me * 1000);
  shmem_int_put(received, values.data(), values.size(), right);
  shmem_barrier_all();
  for (int i = 0; i < 256; ++i)
    if (received[i] != left * 1000 + i)
      ++errors;
  if (registry.constructed != 1)
    ++errors;
  try {
    throw std::runtime_error("caught");
  } catch (const std::exception& e) {
    if (std::string(e.what()) != "caught")
      ++errors;
  }

  for (int p = 0; p < npes; ++p) {
    if (p == me) {
      std::ostringstream line;
      line << "PE " << me << ": received " << received[0] << ".." << received[255] << (errors ? " FAIL" : "");
      std::cout << line.str() << std::endl;
    }
    shmem_barrier_all();
  }
  static int total_errors;
  if (errors)
    shmem_int_atomic_add(&total_errors, errors, 0);
  shmem_barrier_all();
  if (me == 0)
    std::cout << "cxx_vector: " << (total_errors == 0 ? "OK" : "FAIL") << " on " << npes << " PEs" << std::endl;
  shmem_finalize();
  return errors ? 1 : 0;
}
