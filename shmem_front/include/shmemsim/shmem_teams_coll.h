/* Declarations of the OpenSHMEM shmem_teams_coll routines; included by shmem.h. */
#pragma once
