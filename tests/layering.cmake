# The arrows that link lists cannot see: every target has the source root on its include path, so
# a header of a layer a target does not link would still compile. Fails naming each file that
# includes a header its directory may not depend on. Run as `cmake -DROOT=<source dir> -P`.
set(failures 0)
# ARGV2 (optional): includes allowed although `pattern` matches them.
function(forbid dir pattern)
  set(allow "${ARGV2}")
  file(GLOB files ${ROOT}/${dir}/*.hpp ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h ${ROOT}/${dir}/*.c)
  foreach(f ${files})
    if(f MATCHES "/shmemsim_run\\.cpp$") # the launcher: the composition root
      continue()
    endif()
    file(STRINGS ${f} bad REGEX "^#include [\"<](${pattern})")
    foreach(line ${bad})
      if(allow AND line MATCHES "^#include [\"<](${allow})[\">]")
        continue()
      endif()
      message(SEND_ERROR "${f}: ${line} (${dir} may not depend on it)")
    endforeach()
  endforeach()
endfunction()

# Floor 0: base/ uses nothing of the project (the C++ standard library only); every floor may use it.
forbid(base "sim/|shmem_front/|scenarios/|traces/|analysis/|simgrid/|nlohmann/|boost/")
# The routines: the seams only.
forbid(shmem_front/lib "scenarios/|traces/|shmem_front/runtime/|shmem_front/transport/|sim/nic/|sim/portals_model/|simgrid/")
# The PE runtime: sim and the seams; never the transport, the models, scenarios or traces.
forbid(shmem_front/runtime "scenarios/|traces/|shmem_front/transport/|sim/nic/|sim/portals_model/")
# The Portals transport: the Portals model and the seams; never the runtime, scenarios or traces.
forbid(shmem_front/transport "scenarios/|traces/|shmem_front/runtime/")
# The models, bottom up: each knows only the layers below it (and publishes through its own
# observer interface: sim/Observer.hpp, sim/portals_model/PortalsObserver.hpp).
forbid(sim "sim/nic/|sim/portals_model/|shmem_front/|scenarios/|traces/|analysis/")
forbid(sim/nic "sim/portals_model/|shmem_front/|scenarios/|traces/|analysis/")
forbid(sim/portals_model "shmem_front/|scenarios/|traces/|analysis/")
# The program loader: libc only (both PE hosts, the simulator's and the emulator's, link it).
forbid(shmem_front/loader "simgrid/|sim/|scenarios/|traces/|analysis/|shmem_front/" "shmem_front/loader/.*")
# The emulator: the seams, Boost and the trace format (traces/Trace.hpp: its PEs write trace
# events); never SimGrid, the models, scenarios, the rest of traces or the simulator's runtime and
# transport.
forbid(shmem_front/emulator "simgrid/|sim/|scenarios/|traces/|analysis/|shmem_front/runtime/|shmem_front/transport/"
       "traces/Trace\\.hpp")
