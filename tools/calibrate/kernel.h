/* shmemsim calibrate: what every kernel shares. A kernel is a single-threaded C program that
 * prepares its data, then times its work alone with clock_gettime(CLOCK_MONOTONIC) and prints
 * "SECONDS CHECKSUM". Built natively (gcc -O2) it reads the real clock; built with shmemsim-cc and
 * run by shmemsim-run -np 1, the simulated one. argv[1] scales the work (default 1). */
#ifndef SHMEMSIM_CALIBRATE_KERNEL_H
#define SHMEMSIM_CALIBRATE_KERNEL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double kernel_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long kernel_scale(int argc, char** argv)
{
  long s = argc > 1 ? atol(argv[1]) : 1;
  if (s < 1) {
    fprintf(stderr, "%s: the scale must be a positive integer, not '%s'\n", argv[0], argv[1]);
    exit(2);
  }
  return s;
}

/* A deterministic 64-bit generator (xorshift) for the kernels' data. */
static unsigned long long kernel_rng = 88172645463325252ULL;
static unsigned long long kernel_next(void)
{
  kernel_rng ^= kernel_rng << 13;
  kernel_rng ^= kernel_rng >> 7;
  kernel_rng ^= kernel_rng << 17;
  return kernel_rng;
}

static void kernel_report(double seconds, double checksum)
{
  printf("%.9f %.6g\n", seconds, checksum);
}

#endif
