// Compiled as a file of analysis/ (linking shmemsim_analysis only): analysis reads traces and never
// records them, so the recorder's header (a target of its own) must not be found (tests/CMakeLists.txt,
// test include_arrows_part).
#include "traces/Recorder.hpp"
