/* Pointer chasing: follow a random cyclic permutation (a linked list laid out at random), each
 * load's address given by the previous load. */
#include "kernel.h"

#define NODES 4096 /* 32 KiB */

static unsigned next[NODES];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  static unsigned order[NODES];
  for (unsigned i = 0; i < NODES; ++i)
    order[i] = i;
  for (unsigned i = NODES - 1; i > 0; --i) { /* Fisher-Yates: one cycle through every node */
    const unsigned j = (unsigned)(kernel_next() % (i + 1));
    const unsigned t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (unsigned i = 0; i < NODES; ++i)
    next[order[i]] = order[(i + 1) % NODES];
  unsigned p = order[0];
  const double t0 = kernel_now();
  for (long h = 0; h < 500000 * scale; ++h)
    p = next[p];
  kernel_report(kernel_now() - t0, (double)p);
  return 0;
}
