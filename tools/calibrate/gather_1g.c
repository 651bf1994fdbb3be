/* Held out (never used to fit; written and recorded before the TLB model existed, issue 27):
 * independent reads of a 1 GiB table at random indices (a linear congruential generator): every
 * read misses the caches and the data TLBs (262144 pages of 4 KiB, whose page-table entries alone
 * are 2 MiB), and the reads' misses overlap. */
#include "kernel.h"

#define WORDS (1L << 27) /* 128 Mi words: 1 GiB */

int main(int argc, char** argv)
{
  const long scale          = kernel_scale(argc, argv);
  unsigned long long* table = calloc(WORDS, sizeof *table);
  if (table == NULL) {
    fprintf(stderr, "gather_1g: out of memory\n");
    return 2;
  }
  for (long i = 0; i < WORDS; i += 8) /* a word a line: every page real, none the zero page */
    table[i] = (unsigned long long)(i & 4095);
  unsigned long long x = 54321, sum = 0;
  const double t0      = kernel_now();
  for (long r = 0; r < 25000 * scale; ++r) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    sum += table[(x >> 30) & (WORDS - 1)];
  }
  const double t = kernel_now() - t0;
  kernel_report(t, (double)sum);
  free(table);
  return 0;
}
