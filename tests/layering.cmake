# The arrows between floors, checked on what each file really includes: its own #include lines and,
# transitively, those of every project header they reach (a header of the floor below that
# includes one of a floor above leaks it upwards). Fails naming each file, the forbidden header and
# the chain of includes that reaches it. Run as `cmake -DROOT=<source dir> -P`. The compiler refuses
# a header of a target that is not linked (cmake/IncludeRoots.cmake); this test keeps the finer
# rules, file by file, and names the chain.
#
# An include names a project file when the path exists under ROOT ("sim/Time.hpp", or relative to
# the including file's directory); anything else (the standard library, SimGrid, Boost, nlohmann)
# is an external header, checked by its spelling only ("simgrid/", "boost/", "nlohmann/").
cmake_minimum_required(VERSION 3.20)

# The project includes of `rel` (a path under ROOT), resolved to paths under ROOT; externals as
# written. Cached: every header is read once.
function(direct_includes rel out)
  get_property(known GLOBAL PROPERTY "inc:${rel}" SET)
  if(known)
    get_property(res GLOBAL PROPERTY "inc:${rel}")
    set(${out} "${res}" PARENT_SCOPE)
    return()
  endif()
  file(STRINGS ${ROOT}/${rel} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  get_filename_component(here ${rel} DIRECTORY)
  set(res "")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" inc "${line}")
    if(EXISTS ${ROOT}/${inc} AND NOT IS_DIRECTORY ${ROOT}/${inc})
      list(APPEND res "${inc}")
    elseif(here AND EXISTS ${ROOT}/${here}/${inc} AND NOT IS_DIRECTORY ${ROOT}/${here}/${inc})
      get_filename_component(abs ${ROOT}/${here}/${inc} ABSOLUTE)
      file(RELATIVE_PATH r ${ROOT} ${abs})
      list(APPEND res "${r}")
    else()
      list(APPEND res "ext:${inc}")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "inc:${rel}" "${res}")
  set(${out} "${res}" PARENT_SCOPE)
endfunction()

set(failures 0)
# forbid(dir pattern [allow [skip [only]]]): no file of `dir` (its own files, not its
# subdirectories) may reach, directly or through other project headers, a header whose path (or
# external spelling) matches `pattern`, unless the path matches `allow`. `skip` and `only`
# (regexes on the file's path) leave some files out of the rule or limit it to some.
function(forbid dir pattern)
  set(allow "${ARGV2}")
  set(skip "${ARGV3}")
  set(only "${ARGV4}")
  file(GLOB files RELATIVE ${ROOT} ${ROOT}/${dir}/*.hpp ${ROOT}/${dir}/*.cpp ${ROOT}/${dir}/*.h ${ROOT}/${dir}/*.c)
  foreach(f ${files})
    if((skip AND f MATCHES "${skip}") OR (only AND NOT f MATCHES "${only}"))
      continue()
    endif()
    # Breadth-first over the headers `f` reaches; `via:<h>` remembers who included h first.
    set(queue ${f})
    set(seen ${f})
    set(reported "")
    while(queue)
      list(POP_FRONT queue cur)
      direct_includes(${cur} incs)
      foreach(inc ${incs})
        if(inc IN_LIST seen)
          continue()
        endif()
        list(APPEND seen ${inc})
        set(via_${inc} ${cur})
        string(REGEX REPLACE "^ext:" "" name "${inc}")
        if(name MATCHES "^(${pattern})" AND NOT (allow AND name MATCHES "^(${allow})$"))
          set(chain "${name}")
          set(up ${cur})
          while(NOT up STREQUAL f)
            set(chain "${up} -> ${chain}")
            set(up ${via_${up}})
          endwhile()
          message(SEND_ERROR "${f} includes ${chain} (${dir} may not depend on it)")
          continue()
        endif()
        if(NOT inc MATCHES "^ext:")
          list(APPEND queue ${inc})
        endif()
      endforeach()
    endwhile()
  endforeach()
endfunction()

# Floor 0: base/ uses nothing of the project (the C++ standard library only); every floor may use it.
forbid(base "sim/|shmem_front/|scenarios/|traces/|analysis/|run/|simgrid/|nlohmann/|boost/")
# The models, bottom up: each knows only the layers below it (and publishes through base/'s
# observer interfaces: NetworkObserver.hpp, PortalsObserver.hpp).
forbid(sim "sim/nic/|sim/portals_model/|shmem_front/|scenarios/|traces/|analysis/|run/|nlohmann/")
forbid(sim/nic "sim/portals_model/|shmem_front/|scenarios/|traces/|analysis/|run/|nlohmann/")
forbid(sim/portals_model "shmem_front/|scenarios/|traces/|analysis/|run/|nlohmann/")
# The routines: the seams only.
forbid(shmem_front/lib "scenarios/|traces/|analysis/|run/|shmem_front/runtime/|shmem_front/transport/|shmem_front/emulator/|sim/|simgrid/|boost/")
forbid(shmem_front/lib/async "scenarios/|traces/|analysis/|run/|shmem_front/runtime/|shmem_front/transport/|shmem_front/emulator/|sim/|simgrid/|boost/")
# The PE runtime: sim and the seams; never the transport, the models, scenarios or traces.
forbid(shmem_front/runtime "scenarios/|traces/|analysis/|run/|shmem_front/transport/|shmem_front/emulator/|sim/nic/|sim/portals_model/")
# The Portals transport: the Portals model and the seams; never the runtime, scenarios or traces.
forbid(shmem_front/transport "scenarios/|traces/|analysis/|run/|shmem_front/runtime/|shmem_front/emulator/")
# The program loader: libc only (both PE hosts, the simulator's and the emulator's, link it).
forbid(shmem_front/loader "simgrid/|sim/|scenarios/|traces/|analysis/|run/|shmem_front/|base/" "shmem_front/loader/.*")
# The emulator: base/, the seams and Boost; never SimGrid, the models, scenarios, traces, a run's
# composition or the simulator's runtime and transport. Its NIC, transport and runtime publish
# through base/'s observer interfaces; only the PE process (pe_main.cpp) builds the observer, its
# part of the trace (traces/Recorder.hpp, which includes the trace format).
forbid(shmem_front/emulator "simgrid/|sim/|scenarios/|traces/|analysis/|run/|shmem_front/runtime/|shmem_front/transport/"
       "" "/pe_main\\.cpp$")
forbid(shmem_front/emulator "simgrid/|sim/|scenarios/|traces/|analysis/|run/|shmem_front/runtime/|shmem_front/transport/"
       "traces/(Recorder|Trace)\\.hpp" "" "/pe_main\\.cpp$")
# The trace format, its reader and writers, and the recorders know no simulator and no front end
# (analysis links the format alone, the emulator's PE process the recorder): the recorders
# implement base/'s observer interfaces.
forbid(traces "sim/|shmem_front/|scenarios/|analysis/|run/|simgrid/")
# The analysis reads run directories: the trace format, never the simulator or the front end.
forbid(analysis "sim/|shmem_front/|run/|simgrid/|traces/Recorder")
# Scenario configuration (JSON -> parameter structs): never a run's composition
# (run/) or the parts only it assembles, but the parameter structs those parts own (RuntimeParams).
forbid(scenarios "run/|shmem_front/(runtime|transport|emulator|loader|launcher)/" "shmem_front/[a-z]+/[A-Za-z]*Params\\.hpp")
# A run's composition (run/): configuration, models, traces, the PE runtime and transport, the
# program loader and the emulator's launcher; never the workflow tools, the analysis, a front end's main or
# the emulator's PE side.
forbid(run "analysis/|tools/|scenarios/cli/|shmem_front/launcher/|shmem_front/emulator/(Nic|EmuTransport|EmuRuntime|Clock|BootClient)")
# The front ends' mains turn options into a run request: `shmemsim` (scenarios/cli) runs traffic only,
# shmemsim-run (shmem_front/launcher) reaches the rest through run/Program.hpp.
forbid(scenarios/cli "shmem_front/(runtime|transport|emulator|loader|launcher)/|run/(Program|Emulated)"
       "shmem_front/[a-z]+/[A-Za-z]*Params\\.hpp")
forbid(shmem_front/launcher "traces/|analysis/|shmem_front/(transport|emulator|loader)/|run/(Simulated|Emulated|ProgramWorkload)"
       "shmem_front/emulator/EmulatorParams\\.hpp")
# The workflow tools run other runs as subprocesses and read their results: scenario configuration
# and the analysis (with the parameter headers the scenario's keys come from), never the
# engine, the front end's runtime, transports or emulator, a run's composition (run/) or the recorder.
forbid(tools "simgrid/|shmem_front/(runtime|transport|emulator|launcher)/|run/|traces/Recorder"
       "shmem_front/runtime/RuntimeParams\\.hpp|shmem_front/emulator/EmulatorParams\\.hpp")
