/* shmemsim calibrate's measurements of the memory hierarchy (native only: never counted, never
 * fitted). `memory_levels MODE BYTES REPEATS` prints "SECONDS CHECKSUM": the fastest of REPEATS
 * timed passes, per access, over a buffer of BYTES:
 *   chase   one load after another through a random cycle over every cache line of the buffer
 *           (each load's address is the last one's value): the latency of the level the buffer
 *           sits in;
 *   gather  independent loads of every line, in a random order given by an index array: the time
 *           a load that misses takes when the core overlaps misses (with chase's latency, the
 *           misses in flight);
 *   stream  a sum over the buffer's doubles in order, its four quarters at once (four streams, as
 *           STREAM's kernels have two or three: one stream alone is held back by how far ahead the
 *           prefetchers run), per line: the time a core takes to read a line from the level (from
 *           memory: line / bandwidth);
 *   write   one 8-byte store per line, the lines in order (a 64-byte step): the time a core takes
 *           per line to write lines held by the level (a store that misses the first level waits
 *           for its line's read for ownership; stores leave the store buffer in order).
 * `memory_levels tlb REPEATS` measures the data TLBs (4 KiB pages) and prints "L1_ENTRIES
 * L2_ENTRIES L2_HIT_SECONDS WALK_SECONDS GATHER_SECONDS SOURCE":
 *   the entries from cpuid (leaf 0x18's data and unified translation caches, else leaf 2's
 *           descriptors; SOURCE "cpuid"), or, when cpuid gives none (a hypervisor may hide them),
 *           from the knees of the curve below (SOURCE "knee");
 *   the curve: for P pages from 16 to 11585 (steps of 2^(1/2); beyond, walks' own page-table
 *           misses grow with the span), a chase through one line of each of P pages (a random
 *           cycle, the same page order every round, so a level with fewer entries misses every
 *           time; the line's index in its page rotates, so the lines spread over the cache's sets)
 *           less a chase over as many lines packed in P/64 pages (the same cache level): the time
 *           the TLBs add per access, d(P);
 *   the knees: the first point above 0.5 ns (a second-level hit shows) and the first above twice
 *           that plateau and 1 ns more (a walk), each refined between the grid's points by
 *           bisection to the most pages whose d stays below an eighth of the step;
 *   the times: the median of d past each knee's transition: h (a second-level hit, beyond a
 *           first-level hit) and w (a page walk, a miss in both);
 *   gather: independent loads, one line of each of as many pages as the middle of the walk's
 *           plateau, in a random order: the time per access when page walks overlap (w over it:
 *           the walks a core does at once). */
#include "kernel.h"

#include <stdint.h>
#include <cpuid.h>
#include <math.h>
#include <string.h>

#define LINE 64

static uint64_t line_count;

/* A random order of the lines (Fisher-Yates on the kernels' generator). */
static uint32_t* random_order(void)
{
  uint32_t* order = malloc(line_count * sizeof *order);
  if (order == NULL) {
    fprintf(stderr, "memory_levels: out of memory\n");
    exit(2);
  }
  for (uint64_t i = 0; i < line_count; ++i)
    order[i] = (uint32_t)i;
  for (uint64_t i = line_count - 1; i > 0; --i) {
    const uint64_t j = kernel_next() % (i + 1);
    const uint32_t t = order[i];
    order[i]         = order[j];
    order[j]         = t;
  }
  return order;
}

/* Data TLB entries for 4 KiB pages from cpuid: *l1, *l2 (0: not found). */
static void tlb_from_cpuid(unsigned* l1, unsigned* l2)
{
  unsigned a, b, c, d;
  *l1 = *l2 = 0;
  const unsigned max = __get_cpuid_max(0, NULL);
  if (max >= 0x18) { /* deterministic address translation parameters */
    __cpuid_count(0x18, 0, a, b, c, d);
    const unsigned last = a;
    for (unsigned s = 0; s <= last && s < 64; ++s) {
      __cpuid_count(0x18, s, a, b, c, d);
      const unsigned type = d & 31, level = (d >> 5) & 7, entries = (b >> 16) * c;
      if ((b & 1) == 0 || entries == 0) /* no 4 KiB pages, or no such cache */
        continue;
      if (level == 1 && (type == 1 || type == 3 || type == 4) && entries > *l1) /* data, unified, loads */
        *l1 = entries;
      if (level == 2 && (type == 1 || type == 3) && entries > *l2)
        *l2 = entries;
    }
  }
  if (*l1 != 0 || max < 2)
    return;
  /* Leaf 2's one-byte descriptors (Intel SDM vol. 2, CPUID, table of leaf 2 descriptors): the data
   * TLBs and shared second-level TLBs that hold 4 KiB pages. */
  static const struct { unsigned char code; unsigned level, entries; } known[] = {
      {0x03, 1, 64},  {0x5B, 1, 64},  {0x5C, 1, 128},  {0x5D, 1, 256},  {0xB3, 1, 128},
      {0xB4, 1, 256}, {0xBA, 1, 64},  {0xC1, 2, 1024}, {0xC3, 2, 1536}, {0xCA, 2, 512}};
  __cpuid(2, a, b, c, d);
  const unsigned regs[4] = {a & ~0xFFu, b, c, d}; /* al is a count, not a descriptor */
  for (int r = 0; r < 4; ++r) {
    if (regs[r] & 0x80000000u) /* bit 31 set: no descriptors in this register */
      continue;
    for (int byte = 0; byte < 4; ++byte) {
      const unsigned char code = (unsigned char)(regs[r] >> (8 * byte));
      for (size_t k = 0; k < sizeof known / sizeof known[0]; ++k)
        if (known[k].code == code)
          *(known[k].level == 1 ? l1 : l2) = known[k].entries;
    }
  }
}

/* A random cycle through `count` lines at the offsets `at(i)` of `buf`: the fastest of `repeats`
 * passes of `hops` dependent loads, seconds per load. */
static double chase_offsets(char* buf, const uint64_t* at, uint64_t count, uint64_t hops, long repeats)
{
  line_count      = count;
  uint32_t* order = random_order();
  for (uint64_t i = 0; i < count; ++i)
    *(uint64_t*)(buf + at[order[i]]) = at[order[(i + 1) % count]];
  free(order);
  uint64_t p  = at[0];
  double best = -1;
  for (long r = 0; r < repeats; ++r) {
    const double t0 = kernel_now();
    for (uint64_t h = 0; h < hops; ++h)
      p = *(volatile uint64_t*)(buf + p);
    const double t = (kernel_now() - t0) / (double)hops;
    if (best < 0 || t < best)
      best = t;
  }
  if (p == 1) /* never: keeps the chase */
    fprintf(stderr, "memory_levels: odd chase\n");
  return best;
}

#define TLB_POINTS 20 /* pages 2^(8/2) .. 2^(27/2): beyond, walks' own misses grow with the span */
#define TLB_MAX_PAGES 11585

/* d(P): a chase through one line of each of P pages (a random cycle: the same page order every
 * round) less a chase over as many lines packed in P / 64 pages (the same cache level; its pages
 * come in a random order): what the TLBs add per access. */
static double tlb_extra(char* buf, uint64_t* at, uint64_t pages, long repeats)
{
  const uint64_t hops = 50000;
  for (uint64_t k = 0; k < pages; ++k) /* a line of each page, its index rotating over the sets */
    at[k] = k * 4096 + (k % 64) * LINE;
  double spread = chase_offsets(buf, at, pages, hops, repeats);
  for (uint64_t k = 0; k < pages; ++k)
    at[k] = k * LINE;
  return spread - chase_offsets(buf, at, pages, hops, repeats);
}

/* The median of d over the grid's points with lo < pages <= hi (0: none). */
static double tlb_median(const double* pages, const double* d, double lo, double hi)
{
  double v[TLB_POINTS];
  int n = 0;
  for (int i = 0; i < TLB_POINTS; ++i)
    if (pages[i] > lo && pages[i] <= hi)
      v[n++] = d[i];
  for (int i = 1; i < n; ++i) /* insertion sort */
    for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
      const double t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The entries at a knee between `lo` pages (below it) and `hi` (above): the most pages whose d
 * stays below an eighth of the step from `low` to `high` (a set-associative TLB's first sets
 * overflow a few pages past its entries), by bisection. */
static unsigned tlb_knee(char* buf, uint64_t* at, unsigned lo, unsigned hi, double low, double high, long repeats)
{
  const double threshold = low + (high - low) / 8;
  while (hi - lo > 1) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (tlb_extra(buf, at, mid, repeats) > threshold)
      hi = mid;
    else
      lo = mid;
  }
  return lo;
}

static int measure_tlb(long repeats)
{
  const size_t span = (size_t)TLB_MAX_PAGES * 4096;
  char* buf         = aligned_alloc(4096, span);
  uint64_t* at      = malloc(TLB_MAX_PAGES * sizeof *at);
  if (buf == NULL || at == NULL) {
    fprintf(stderr, "memory_levels: out of memory\n");
    return 2;
  }
  memset(buf, 1, span);
  double pages[TLB_POINTS], d[TLB_POINTS];
  for (int i = 0; i < TLB_POINTS; ++i) {
    pages[i] = (double)(uint64_t)(pow(2, (8 + i) / 2.0) + 0.5);
    d[i]     = tlb_extra(buf, at, (uint64_t)pages[i], repeats);
    fprintf(stderr, "memory_levels tlb: %6.0f pages: %+.2f ns\n", pages[i], d[i] * 1e9);
  }
  unsigned e1 = 0, e2 = 0;
  tlb_from_cpuid(&e1, &e2);
  const char* source = e1 != 0 && e2 != 0 ? "cpuid" : "knee";
  if (e1 == 0 || e2 == 0) {
    /* The first level's knee: the first point a second-level hit shows (above 0.5 ns: 7 cycles is
     * 2 ns at 3.5 GHz); the second's: the first point above twice that plateau and 1 ns more (a walk
     * reads the page tables through the caches: several times a second-level hit). Each is then
     * refined between the grid's points by bisection. */
    int k1 = -1, k2 = -1;
    for (int i = 0; i < TLB_POINTS && k1 < 0; ++i)
      if (d[i] > 0.5e-9)
        k1 = i;
    for (int i = k1 + 1; k1 > 0 && i < TLB_POINTS && k2 < 0; ++i)
      if (d[i] > 2 * tlb_median(pages, d, pages[k1 - 1], pages[i - 1]) + 1e-9)
        k2 = i;
    if (k1 <= 0 || k2 < 0) {
      fprintf(stderr, "memory_levels: no knee of two TLB levels in the page-strided chases up to %.0f pages\n",
              pages[TLB_POINTS - 1]);
      return 1;
    }
    const double low = tlb_median(pages, d, pages[k1 - 1], pages[k2 - 1]);
    const double high = tlb_median(pages, d, pages[k2], pages[TLB_POINTS - 1]);
    e1 = tlb_knee(buf, at, (unsigned)pages[k1 - 1], (unsigned)pages[k1], 0, low, repeats);
    e2 = tlb_knee(buf, at, (unsigned)pages[k2 - 1], (unsigned)pages[k2], low, high, repeats);
  }
  /* The plateaus, past each knee's transition (a set-associative level misses progressively). */
  const double h = tlb_median(pages, d, 1.25 * e1, e2), w = tlb_median(pages, d, 1.25 * e2, pages[TLB_POINTS - 1]);
  /* Independent loads, one line of each of as many pages as the walk's plateau's middle (its
   * geometric mean: the same walks), in a random order. */
  const uint64_t n = (uint64_t)sqrt(1.25 * e2 * pages[TLB_POINTS - 1]);
  line_count       = n;
  uint32_t* order  = random_order();
  uint64_t sum     = 0;
  double gather    = -1;
  for (long r = 0; r < repeats; ++r) {
    const double t0 = kernel_now();
    for (int pass = 0; pass < 4; ++pass)
      for (uint64_t k = 0; k < n; ++k)
        sum += *(const uint64_t*)(buf + (uint64_t)order[k] * 4096 + (order[k] % 64) * LINE);
    const double t = (kernel_now() - t0) / (4.0 * (double)n);
    if (gather < 0 || t < gather)
      gather = t;
  }
  free(order);
  printf("%u %u %.6e %.6e %.6e %s %llu\n", e1, e2, h < 0 ? 0 : h, w < 0 ? 0 : w, gather, source,
         (unsigned long long)(sum & 1));
  free(at);
  free(buf);
  return 0;
}

int main(int argc, char** argv)
{
  if (argc == 3 && strcmp(argv[1], "tlb") == 0)
    return measure_tlb(atol(argv[2]) < 1 ? 1 : atol(argv[2]));
  if (argc != 4) {
    fprintf(stderr, "usage: memory_levels chase|gather|stream|write BYTES REPEATS, or memory_levels tlb REPEATS\n");
    return 2;
  }
  const char* mode   = argv[1];
  const long bytes   = atol(argv[2]);
  const long repeats = atol(argv[3]);
  if (bytes < 4 * LINE || repeats < 1) {
    fprintf(stderr, "memory_levels: BYTES must be at least %d and REPEATS positive\n", 4 * LINE);
    return 2;
  }
  line_count = (uint64_t)bytes / LINE;
  char* buf  = aligned_alloc(4096, line_count * LINE);
  if (buf == NULL) {
    fprintf(stderr, "memory_levels: out of memory\n");
    return 2;
  }
  memset(buf, 1, line_count * LINE);
  const uint64_t accesses = 1000000; /* hops per pass of chase */
  double best = -1, check = 0;
  if (strcmp(mode, "chase") == 0) {
    uint32_t* order = random_order();
    for (uint64_t i = 0; i < line_count; ++i) /* one cycle through every line */
      *(uint64_t*)(buf + (uint64_t)order[i] * LINE) = (uint64_t)order[(i + 1) % line_count] * LINE;
    free(order);
    uint64_t p = 0;
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t h = 0; h < accesses; ++h)
        p = *(volatile uint64_t*)(buf + p);
      const double t = (kernel_now() - t0) / (double)accesses;
      if (best < 0 || t < best)
        best = t;
    }
    check = (double)p;
  } else if (strcmp(mode, "gather") == 0) {
    uint32_t* order = random_order();
    uint64_t sum    = 0;
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < line_count; ++i)
        sum += *(const uint64_t*)(buf + (uint64_t)order[i] * LINE);
      const double t = (kernel_now() - t0) / (double)line_count;
      if (best < 0 || t < best)
        best = t;
    }
    free(order);
    check = (double)sum;
  } else if (strcmp(mode, "stream") == 0) {
    const double* d  = (const double*)buf;
    const uint64_t q = line_count / 4 * (LINE / sizeof(double)); /* doubles in a quarter */
    double sum       = 0;
    for (long r = 0; r < repeats; ++r) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < q; ++i) {
        s0 += d[i];
        s1 += d[q + i];
        s2 += d[2 * q + i];
        s3 += d[3 * q + i];
      }
      const double t = (kernel_now() - t0) / (double)line_count;
      sum += s0 + s1 + s2 + s3;
      if (best < 0 || t < best)
        best = t;
    }
    check = sum;
  } else if (strcmp(mode, "write") == 0) {
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < line_count; ++i)
        *(volatile uint64_t*)(buf + i * LINE) = i + (uint64_t)r;
      const double t = (kernel_now() - t0) / (double)line_count;
      if (best < 0 || t < best)
        best = t;
    }
    check = (double)*(const uint64_t*)(buf + LINE);
  } else {
    fprintf(stderr, "memory_levels: unknown mode '%s' (chase, gather, stream or write)\n", mode);
    return 2;
  }
  printf("%.6e %.6g\n", best, check);
  return 0;
}
