// The control of the include_arrows tests: a file of the engine floor includes the floors it links
// (base/, sim/) and compiles.
#include "base/Time.hpp"
#include "sim/EventQueue.hpp"

int include_arrows_control()
{
  return static_cast<int>(shmemsim::kPsPerSecond % 7);
}
