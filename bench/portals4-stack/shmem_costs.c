/* SHMEM-level costs of Sandia OpenSHMEM (Portals-SHMEM) over the Portals 4
 * reference implementation, 2 PEs: PE 0 calls, PE 1 is the target.
 *
 *   shmem_costs N   8-byte put (call return), put + quiet, fetch-add
 *                   (latency of each call), and the rates of N puts (a
 *                   quiet every 64) and of N blocking fetch-adds.
 *
 * Per figure: median, quartiles, mean of the wall time (CLOCK_MONOTONIC)
 * around each call, and the calling thread's mean CPU time per call. */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long target[8];
static long counter;

static uint64_t clk(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t *lat;
static uint64_t cpu_sum;

static void report(const char *name, int n)
{
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += (double)lat[i];
    qsort(lat, (size_t)n, sizeof *lat, cmp_u64);
    printf("%-16s n=%d median=%llu q1=%llu q3=%llu mean=%.0f cpu_mean=%.0f ns\n", name, n,
           (unsigned long long)lat[n / 2], (unsigned long long)lat[n / 4],
           (unsigned long long)lat[(3 * n) / 4], sum / n, (double)cpu_sum / n);
}

#define TIMED(body)                                                            \
    do {                                                                       \
        cpu_sum = 0;                                                           \
        for (int i = 0; i < n; ++i) {                                          \
            uint64_t c0 = clk(CLOCK_THREAD_CPUTIME_ID);                        \
            uint64_t t0 = clk(CLOCK_MONOTONIC);                                \
            body;                                                              \
            lat[i] = clk(CLOCK_MONOTONIC) - t0;                                \
            cpu_sum += clk(CLOCK_THREAD_CPUTIME_ID) - c0;                      \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    start_pes(0);
    if (shmem_n_pes() != 2) {
        fprintf(stderr, "shmem_costs: needs 2 PEs\n");
        return 2;
    }
    lat = calloc((size_t)n, sizeof *lat);
    long one = 1;
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        TIMED((void)0);
        report("empty_probe", n);
        TIMED(shmem_long_put(&target[0], &one, 1, 1); if (i % 64 == 63) shmem_quiet());
        report("put_call", n);
        shmem_quiet();
        TIMED(shmem_long_put(&target[1], &one, 1, 1); shmem_quiet());
        report("put_quiet", n);
        TIMED((void)shmem_long_fadd(&counter, 1, 1));
        report("fetch_add", n);
        uint64_t t0 = clk(CLOCK_MONOTONIC);
        /* a quiet every 64 puts: the UDP transport (without its reliable
         * option) loses datagrams when thousands are in flight */
        for (int i = 0; i < n; ++i) {
            shmem_long_put(&target[2], &one, 1, 1);
            if (i % 64 == 63) shmem_quiet();
        }
        shmem_quiet();
        double s = (double)(clk(CLOCK_MONOTONIC) - t0) / 1e9;
        printf("put_rate         %.0f puts/s (%d puts, a quiet every 64, %.3f s)\n", n / s, n, s);
        t0 = clk(CLOCK_MONOTONIC);
        for (int i = 0; i < n; ++i) (void)shmem_long_fadd(&counter, 1, 1);
        s = (double)(clk(CLOCK_MONOTONIC) - t0) / 1e9;
        printf("fadd_rate        %.0f fetch-adds/s (%d blocking, %.3f s)\n", n / s, n, s);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1) {
        printf("target: counter %ld (expected %d), target[0..2] %ld %ld %ld\n", counter, 2 * n,
               target[0], target[1], target[2]);
        if (counter != 2L * n || target[0] != 1 || target[1] != 1 || target[2] != 1) return 1;
    }
    return 0;
}
