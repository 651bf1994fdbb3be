/* Declarations of the OpenSHMEM shmem_signal_lock routines; included by shmem.h. */
#pragma once
