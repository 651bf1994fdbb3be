/* Host-side costs of the Portals 4 reference implementation, measured with
 * the calls Portals-SHMEM makes (same NI options, LE and MD options, ACK and
 * reply types as its transport). Two processes started by the implementation's
 * launcher (yod): rank 0 initiates, rank 1 is the target.
 *
 *   p4_costs put|atomic|fetchatomic N W   time each call's return (N calls,
 *                                          a PtlCTWait for completion every W)
 *   p4_costs ctwait N                     PtlCTWait on a satisfied counter, and
 *                                          the wake-up of a waiter by PtlCTInc
 *                                          from another thread of the process
 *
 * Prints one line per figure: name, count, median, first and third quartile,
 * in nanoseconds (CLOCK_MONOTONIC around the call). */
#define _GNU_SOURCE
#include <portals4.h>
#include <portals4/pmi.h>

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != PTL_OK) {                                                   \
            fprintf(stderr, "p4_costs: %s failed with %d (line %d)\n", #call, \
                    rc_, __LINE__);                                            \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *name, uint64_t *v, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; ++i) sum += (double)v[i];
    qsort(v, n, sizeof *v, cmp_u64);
    printf("%-22s n=%zu median=%llu q1=%llu q3=%llu p90=%llu mean=%.0f ns\n", name, n,
           (unsigned long long)v[n / 2], (unsigned long long)v[n / 4],
           (unsigned long long)v[(3 * n) / 4], (unsigned long long)v[(9 * n) / 10],
           sum / (double)n);
}

/* Exchange physical ids through the launcher's PMI key-value space. */
static ptl_process_t *exchange_ids(ptl_handle_ni_t ni, int rank, int size)
{
    ptl_process_t me, *map = calloc((size_t)size, sizeof *map);
    char key[64], val[64];
    char kvs[256];
    CHECK(PtlGetPhysId(ni, &me));
    if (PMI_KVS_Get_my_name(kvs, sizeof kvs) != PMI_SUCCESS) exit(1);
    snprintf(key, sizeof key, "p4c-%d", rank);
    snprintf(val, sizeof val, "%u:%u", me.phys.nid, me.phys.pid);
    if (PMI_KVS_Put(kvs, key, val) != PMI_SUCCESS) exit(1);
    if (PMI_KVS_Commit(kvs) != PMI_SUCCESS) exit(1);
    if (PMI_Barrier() != PMI_SUCCESS) exit(1);
    for (int r = 0; r < size; ++r) {
        snprintf(key, sizeof key, "p4c-%d", r);
        if (PMI_KVS_Get(kvs, key, val, sizeof val) != PMI_SUCCESS) exit(1);
        if (sscanf(val, "%u:%u", &map[r].phys.nid, &map[r].phys.pid) != 2)
            exit(1);
    }
    return map;
}

static long target_buf[64];
static long source_buf[64];
static long fetch_buf[64];

struct waker {
    ptl_handle_ct_t ct;
    volatile int armed;
    volatile uint64_t t_inc;
    int rounds;
};

static void *waker_main(void *arg)
{
    struct waker *w = arg;
    for (int i = 0; i < w->rounds; ++i) {
        while (w->armed != i + 1) {
        }
        /* let the waiter enter its wait loop */
        uint64_t t = now_ns();
        while (now_ns() - t < 20000) {
        }
        w->t_inc = now_ns();
        CHECK(PtlCTInc(w->ct, (ptl_ct_event_t){1, 0}));
    }
    return NULL;
}

static void ctwait_figures(ptl_handle_ni_t ni, int n)
{
    ptl_handle_ct_t ct;
    ptl_ct_event_t ev;
    uint64_t *v = calloc((size_t)n, sizeof *v);
    CHECK(PtlCTAlloc(ni, &ct));
    CHECK(PtlCTInc(ct, (ptl_ct_event_t){1, 0}));
    for (int i = 0; i < n; ++i) {
        uint64_t t0 = now_ns();
        CHECK(PtlCTWait(ct, 1, &ev));
        v[i] = now_ns() - t0;
    }
    report("PtlCTWait_satisfied", v, (size_t)n);

    int rounds = n < 2000 ? n : 2000;
    struct waker w = {ct, 0, 0, rounds};
    pthread_t th;
    pthread_create(&th, NULL, waker_main, &w);
    for (int i = 0; i < rounds; ++i) {
        w.armed = i + 1;
        CHECK(PtlCTWait(ct, (ptl_size_t)i + 2, &ev));
        v[i] = now_ns() - w.t_inc;
    }
    pthread_join(th, NULL);
    report("PtlCTWait_wakeup", v, (size_t)rounds);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: p4_costs put|atomic|fetchatomic|ctwait N [W]\n");
        return 2;
    }
    const char *op = argv[1];
    int n = atoi(argv[2]);
    int window = argc > 3 ? atoi(argv[3]) : 8;
    int rank, size, spawned;
    if (PMI_Init(&spawned) != PMI_SUCCESS || PMI_Get_rank(&rank) != PMI_SUCCESS ||
        PMI_Get_size(&size) != PMI_SUCCESS || size != 2) {
        fprintf(stderr, "p4_costs: needs the launcher (yod -np 2)\n");
        return 2;
    }
    CHECK(PtlInit());
    ptl_ni_limits_t req, actual;
    memset(&req, 0, sizeof req);
    req.max_entries = 1024;
    req.max_unexpected_headers = 1024;
    req.max_mds = 1024;
    req.max_eqs = 1024;
    req.max_cts = 1024;
    req.max_pt_index = 64;
    req.max_iovecs = 1024;
    req.max_list_size = 1024;
    req.max_triggered_ops = 1024;
    req.max_msg_size = LONG_MAX;
    req.max_atomic_size = LONG_MAX;
    req.max_fetch_atomic_size = LONG_MAX;
    req.max_waw_ordered_size = LONG_MAX;
    req.max_war_ordered_size = LONG_MAX;
    req.max_volatile_size = LONG_MAX;
    ptl_handle_ni_t ni;
    CHECK(PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_NO_MATCHING | PTL_NI_LOGICAL,
                    PTL_PID_ANY, &req, &actual, &ni));
    ptl_process_t *map = exchange_ids(ni, rank, size);
    CHECK(PtlSetMap(ni, (ptl_size_t)size, map));
    ptl_pt_index_t pt;
    CHECK(PtlPTAlloc(ni, 0, PTL_EQ_NONE, 0, &pt));

    /* target side: Portals-SHMEM's data LE */
    ptl_handle_ct_t tct;
    ptl_handle_le_t leh;
    CHECK(PtlCTAlloc(ni, &tct));
    ptl_le_t le;
    memset(&le, 0, sizeof le);
    le.start = target_buf;
    le.length = sizeof target_buf;
    le.ct_handle = tct;
    le.uid = PTL_UID_ANY;
    le.options = PTL_LE_OP_PUT | PTL_LE_OP_GET | PTL_LE_EVENT_LINK_DISABLE |
                 PTL_LE_EVENT_SUCCESS_DISABLE | PTL_LE_EVENT_CT_COMM;
    CHECK(PtlLEAppend(ni, pt, &le, PTL_PRIORITY_LIST, NULL, &leh));

    /* initiator side: Portals-SHMEM's volatile put MD and get MD */
    ptl_handle_ct_t put_ct, get_ct;
    ptl_handle_md_t put_md, get_md;
    CHECK(PtlCTAlloc(ni, &put_ct));
    CHECK(PtlCTAlloc(ni, &get_ct));
    ptl_md_t md;
    memset(&md, 0, sizeof md);
    md.start = 0;
    md.length = PTL_SIZE_MAX;
    md.eq_handle = PTL_EQ_NONE;
    md.options = PTL_MD_EVENT_CT_ACK | PTL_MD_EVENT_SUCCESS_DISABLE | PTL_MD_VOLATILE;
    md.ct_handle = put_ct;
    CHECK(PtlMDBind(ni, &md, &put_md));
    md.options = PTL_MD_EVENT_CT_REPLY | PTL_MD_EVENT_SUCCESS_DISABLE;
    md.ct_handle = get_ct;
    CHECK(PtlMDBind(ni, &md, &get_md));
    PMI_Barrier();

    ptl_process_t peer = {.rank = 1};
    ptl_ct_event_t ev;
    if (rank == 0 && strcmp(op, "ctwait") == 0) {
        ctwait_figures(ni, n);
    } else if (rank == 0) {
        uint64_t *call = calloc((size_t)n, sizeof *call);
        uint64_t *wait = calloc((size_t)(n / window + 1), sizeof *wait);
        int nwait = 0;
        int fetch = strcmp(op, "fetchatomic") == 0;
        int atomic = strcmp(op, "atomic") == 0;
        if (!fetch && !atomic && strcmp(op, "put") != 0) {
            fprintf(stderr, "p4_costs: unknown operation '%s'\n", op);
            return 2;
        }
        source_buf[0] = 1;
        /* the CPU-time probe's own cost, to subtract */
        uint64_t probe = cpu_ns(), cpu_calls = 0;
        for (int i = 0; i < 1000; ++i) (void)cpu_ns();
        probe = (cpu_ns() - probe) / 1001;
        for (int i = 0; i < n; ++i) {
            uint64_t c0 = cpu_ns();
            uint64_t t0 = now_ns();
            if (fetch)
                CHECK(PtlFetchAtomic(get_md, (ptl_size_t)(uintptr_t)fetch_buf, put_md,
                                     (ptl_size_t)(uintptr_t)source_buf, sizeof(long),
                                     peer, pt, 0, 0, NULL, 0, PTL_SUM, PTL_INT64_T));
            else if (atomic)
                CHECK(PtlAtomic(put_md, (ptl_size_t)(uintptr_t)source_buf, sizeof(long),
                                PTL_CT_ACK_REQ, peer, pt, 0, 8, NULL, 0, PTL_SUM,
                                PTL_INT64_T));
            else
                CHECK(PtlPut(put_md, (ptl_size_t)(uintptr_t)source_buf, sizeof(long),
                             PTL_CT_ACK_REQ, peer, pt, 0, 16, NULL, 0));
            call[i] = now_ns() - t0;
            cpu_calls += cpu_ns() - c0;
            if ((i + 1) % window == 0 || i + 1 == n) {
                uint64_t t1 = now_ns();
                CHECK(PtlCTWait(fetch ? get_ct : put_ct, (ptl_size_t)i + 1, &ev));
                wait[nwait++] = now_ns() - t1;
                if (ev.failure != 0) {
                    fprintf(stderr, "p4_costs: %llu failed operations\n",
                            (unsigned long long)ev.failure);
                    return 1;
                }
            }
        }
        char name[64];
        printf("%s_call_cpu_mean      %.0f ns (thread CPU time, probe %llu ns subtracted)\n", op,
               (double)cpu_calls / n - (double)probe, (unsigned long long)probe);
        snprintf(name, sizeof name, "%s_call", op);
        report(name, call, (size_t)n);
        snprintf(name, sizeof name, "%s_wait_per_%d", op, window);
        report(name, wait, (size_t)nwait);
    }
    PMI_Barrier();
    if (rank == 1 && strcmp(op, "ctwait") != 0) {
        /* every operation landed: the values are the check */
        long expect = strcmp(op, "put") == 0 ? 1 : (long)n;
        int slot = strcmp(op, "put") == 0 ? 2 : strcmp(op, "atomic") == 0 ? 1 : 0;
        CHECK(PtlCTGet(tct, &ev));
        printf("target: %llu operations counted, value %ld (expected %ld)\n",
               (unsigned long long)ev.success, target_buf[slot], expect);
        if (ev.success != (ptl_size_t)n || target_buf[slot] != expect) return 1;
    }
    PtlNIFini(ni);
    PtlFini();
    PMI_Finalize();
    return 0;
}
