# Per-target include roots: the link lists are the include arrows.
#
# No target has the source tree on its include path. Each project header belongs to exactly one
# target, which exposes it under its usual name ("sim/Engine.hpp") from an include root of its own,
# <build>/include-roots/<target>/, made of symbolic links to the sources. A target sees its own
# headers and those of the targets it links (PUBLIC/INTERFACE, transitively), nothing else: a file
# that includes a header of a floor it does not link fails to compile, naming the header
# ("fatal error: sim/nic/Nic.hpp: No such file or directory"). tests/layering.cmake checks the
# finer rules (which files of a floor may include what) on the sources, transitively.
#
#   shmemsim_headers(<target> [DIRS dir...] [FILES file...] [EXCEPT file...])
#     DIRS: every *.hpp and *.h directly in each directory (not its subdirectories), less EXCEPT;
#     FILES: single headers. Paths relative to the project's source directory.
#   shmemsim_check_headers(dir...)
#     At the end of configuration: every header directly in these directories belongs to a target.

define_property(GLOBAL PROPERTY SHMEMSIM_CLAIMED_HEADERS BRIEF_DOCS "headers given to a target's include root"
                FULL_DOCS "shmemsim_headers(): one entry per header, <path>=<target>")

function(shmemsim_headers target)
  cmake_parse_arguments(H "" "" "DIRS;FILES;EXCEPT" ${ARGN})
  set(headers ${H_FILES})
  foreach(dir ${H_DIRS})
    file(GLOB found RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.hpp
         ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    list(APPEND headers ${found})
  endforeach()
  if(H_EXCEPT)
    list(REMOVE_ITEM headers ${H_EXCEPT})
  endif()
  list(SORT headers)

  set(root ${PROJECT_BINARY_DIR}/include-roots/${target})
  file(REMOVE_RECURSE ${root}) # headers that moved or left since the last configuration
  get_property(claimed GLOBAL PROPERTY SHMEMSIM_CLAIMED_HEADERS)
  foreach(h ${headers})
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${h})
      message(FATAL_ERROR "shmemsim_headers(${target}): no header ${h}")
    endif()
    foreach(entry ${claimed})
      if(entry MATCHES "^${h}=(.*)$")
        message(FATAL_ERROR "shmemsim_headers(${target}): ${h} already belongs to ${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(APPEND claimed "${h}=${target}")
    get_filename_component(dir ${root}/${h} DIRECTORY)
    file(MAKE_DIRECTORY ${dir})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${h} ${root}/${h} SYMBOLIC)
  endforeach()
  set_property(GLOBAL PROPERTY SHMEMSIM_CLAIMED_HEADERS ${claimed})

  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${root})
  elseif(type STREQUAL "EXECUTABLE")
    target_include_directories(${target} PRIVATE ${root})
  else()
    target_include_directories(${target} PUBLIC ${root})
  endif()
endfunction()

function(shmemsim_check_headers)
  get_property(claimed GLOBAL PROPERTY SHMEMSIM_CLAIMED_HEADERS)
  set(owned "")
  foreach(entry ${claimed})
    string(REGEX REPLACE "=.*$" "" path "${entry}")
    list(APPEND owned ${path})
  endforeach()
  set(missing "")
  foreach(dir ${ARGN})
    file(GLOB found RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.hpp
         ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    foreach(h ${found})
      if(NOT h IN_LIST owned)
        list(APPEND missing ${h})
      endif()
    endforeach()
  endforeach()
  if(missing)
    list(JOIN missing ", " text)
    message(FATAL_ERROR "Headers that belong to no target (give each to one with shmemsim_headers(), "
                        "cmake/IncludeRoots.cmake): ${text}")
  endif()
endfunction()
