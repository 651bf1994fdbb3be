// Compiled as a file of the engine floor (linking shmemsim_sim only): the NIC model is a floor
// above it, so its header must not be found (tests/CMakeLists.txt, test include_arrows_floor).
#include "sim/nic/Nic.hpp"
