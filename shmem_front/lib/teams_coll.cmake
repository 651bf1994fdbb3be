# Teams and collectives (OpenSHMEM 1.5 §9.4, §9.9); included by shmem_front/CMakeLists.txt.
set(SHMEMSIM_TEAMS_COLL_SOURCES ${CMAKE_CURRENT_LIST_DIR}/teams.cpp ${CMAKE_CURRENT_LIST_DIR}/collectives.cpp)
