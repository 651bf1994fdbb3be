// Threads, teams, barriers, locks and tasks of shmemsim's OpenMP runtime (see Runtime.hpp).
#include "shmem_front/omp/Runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shmemsim::omp {

namespace {
const shmemsim_hooks* g_hooks = nullptr;

[[noreturn]] void bad_env(const char* name, const char* value, const char* expected)
{
  std::string m = std::string(name) + "=" + value + ": expected " + expected;
  hooks()->fatal(m.c_str());
  std::abort();
}

/// A positive integer, or the first element of a comma-separated list of them.
int env_int(const char* name, int fallback, int min)
{
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0')
    return fallback;
  char* end = nullptr;
  errno     = 0;
  long x    = std::strtol(v, &end, 10);
  while (*end == ' ')
    ++end;
  if (end == v || (*end != '\0' && *end != ',') || errno != 0 || x < min || x > INT_MAX)
    bad_env(name, v, min > 0 ? "a positive integer" : "a non-negative integer");
  return static_cast<int>(x);
}

bool env_bool(const char* name, bool fallback)
{
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0')
    return fallback;
  std::string s;
  for (const char* p = v; *p != '\0'; ++p)
    if (*p != ' ')
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  if (s == "true" || s == "1")
    return true;
  if (s == "false" || s == "0")
    return false;
  bad_env(name, v, "true or false");
}

/// OMP_SCHEDULE: [monotonic:|nonmonotonic:]static|dynamic|guided|auto[,chunk]
void env_schedule(Icv& icv)
{
  const char* v = std::getenv("OMP_SCHEDULE");
  if (v == nullptr || *v == '\0')
    return;
  std::string s;
  for (const char* p = v; *p != '\0'; ++p)
    if (*p != ' ')
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  unsigned mono = 0;
  if (s.rfind("monotonic:", 0) == 0) {
    mono = kMonotonic;
    s    = s.substr(10);
  } else if (s.rfind("nonmonotonic:", 0) == 0) {
    s = s.substr(13);
  }
  std::string kind = s, chunk;
  if (auto comma = s.find(','); comma != std::string::npos) {
    kind  = s.substr(0, comma);
    chunk = s.substr(comma + 1);
  }
  int k = 0;
  if (kind == "static")
    k = kStatic;
  else if (kind == "dynamic")
    k = kDynamic;
  else if (kind == "guided")
    k = kGuided;
  else if (kind == "auto")
    k = kAuto;
  else
    bad_env("OMP_SCHEDULE", v, "[monotonic:|nonmonotonic:]static|dynamic|guided|auto[,chunk]");
  long c = k == kStatic ? 0 : 1;
  if (!chunk.empty()) {
    char* end = nullptr;
    c         = std::strtol(chunk.c_str(), &end, 10);
    if (*end != '\0' || c < 1)
      bad_env("OMP_SCHEDULE", v, "a positive chunk size after the comma");
  }
  icv.run_sched = static_cast<int>(static_cast<unsigned>(k) | mono);
  icv.run_chunk = c;
}

void on_pe_exit()
{
  void** slot = hooks()->omp_pe_slot();
  if (*slot == nullptr)
    return;
  Pe& pe = *static_cast<Pe*>(*slot);
  for (Thread* w : pe.workers) { // idle ones return, busy ones end where they wait
    w->quit = true;
    if (w->sim != nullptr)
      hooks()->unpark(w->sim);
  }
}

Team* new_team(Pe& pe)
{
  if (!pe.spare_teams.empty()) {
    Team* t = pe.spare_teams.back();
    pe.spare_teams.pop_back();
    return t; // its barrier generation keeps counting: stale waiters never see a reset
  }
  return new Team;
}
} // namespace

const shmemsim_hooks* hooks()
{
  if (g_hooks == nullptr) {
    g_hooks = shmemsim_interpose_hooks();
    if (g_hooks == nullptr || g_hooks->active == nullptr || !g_hooks->active()) {
      std::fprintf(stderr, "shmemsim OpenMP runtime: this program runs under shmemsim-run only\n");
      std::exit(2);
    }
    g_hooks->at_pe_exit(on_pe_exit);
  }
  return g_hooks;
}

Pe& pe_state()
{
  void** slot = hooks()->omp_pe_slot();
  if (*slot == nullptr) {
    auto* pe                       = new Pe;
    pe->defaults.nthreads          = env_int("OMP_NUM_THREADS", std::max(1, hooks()->default_threads()), 1);
    pe->defaults.dynamic           = env_bool("OMP_DYNAMIC", false);
    pe->defaults.thread_limit      = env_int("OMP_THREAD_LIMIT", pe->defaults.thread_limit, 1);
    pe->defaults.max_active_levels = std::min(1, env_int("OMP_MAX_ACTIVE_LEVELS", 1, 0));
    env_bool("OMP_NESTED", false); // accepted; nested regions run serialized
    env_schedule(pe->defaults);
    *slot = pe;
  }
  return *static_cast<Pe*>(*slot);
}

Thread& self()
{
  void** slot = hooks()->omp_thread_slot();
  if (*slot == nullptr) { // an initial thread: the PE's main thread or a thread of the program
    Pe& pe            = pe_state();
    auto* t           = new Thread;
    t->pe             = &pe;
    t->sim            = hooks()->self();
    t->icv            = pe.defaults;
    Team* team        = new_team(pe);
    team->nthreads    = 1;
    team->members     = {t};
    t->team           = team;
    t->task           = new Task;
    t->task->implicit = true;
    *slot             = t;
  }
  return *static_cast<Thread*>(*slot);
}

void unsupported(const std::string& what)
{
  const std::string m = "OpenMP construct " + what + " is not supported by shmemsim's OpenMP runtime";
  hooks()->fatal(m.c_str());
  std::abort();
}

// ------------------------------------------------------------------ waiting inside a team

namespace {
/// Parks the calling thread. A pool worker whose PE's main has ended (exit() inside a parallel
/// region, say) ends there instead of waiting forever.
void park(Thread& me, const char* routine)
{
  hooks()->park(routine, me.waiting.c_str());
  if (me.worker && me.quit)
    hooks()->thread_exit(nullptr);
}
} // namespace

void team_wait(Thread& me, const char* routine)
{
  me.team->waiters.push_back(&me);
  park(me, routine);
}

void wake_team(Team& t)
{
  std::vector<Thread*> wake;
  wake.swap(t.waiters);
  for (Thread* w : wake)
    hooks()->unpark(w->sim);
}

void barrier(Thread& me, const char* routine)
{
  hooks()->charge(routine);
  Team& t                 = *me.team;
  const std::uint64_t gen = t.generation;
  ++t.arrived;
  while (t.generation == gen) {
    if (!t.queue.empty()) { // idle threads of the team run its tasks
      Task* task = t.queue.front();
      t.queue.pop_front();
      run_task(me, task);
      continue;
    }
    if (t.arrived == t.nthreads && t.outstanding == 0) {
      t.arrived = 0;
      ++t.generation;
      wake_team(t);
      break;
    }
    me.waiting = "the barrier of a team of " + std::to_string(t.nthreads) + " OpenMP threads";
    team_wait(me, routine);
  }
}

// ------------------------------------------------------------------ locks

void lock_acquire(Thread& me, Lock& l, const char* routine, const std::string& what, bool nest)
{
  hooks()->charge(routine);
  if (l.owner == nullptr) {
    l.owner = &me;
    l.count = 1;
    return;
  }
  if (nest && l.owner == &me) {
    ++l.count;
    return;
  }
  l.waiters.push_back(&me);
  me.waiting = what;
  while (l.owner != &me)
    park(me, routine);
}

bool lock_try(Thread& me, Lock& l, bool nest)
{
  hooks()->charge(nest ? "omp_test_nest_lock" : "omp_test_lock");
  if (l.owner == nullptr) {
    l.owner = &me;
    l.count = 1;
    return true;
  }
  if (nest && l.owner == &me) {
    ++l.count;
    return true;
  }
  return false;
}

void lock_release(Thread& me, Lock& l, const char* routine)
{
  hooks()->charge(routine);
  if (l.owner != &me)
    return;
  if (--l.count > 0)
    return;
  if (l.waiters.empty()) {
    l.owner = nullptr;
    return;
  }
  l.owner = l.waiters.front(); // hand over, first come first served
  l.count = 1;
  l.waiters.pop_front();
  hooks()->unpark(l.owner->sim);
}

// ------------------------------------------------------------------ tasks

namespace {
/// A task is freed once it is complete and so are its children (they point to it). A parent's
/// count of children drops when a child completes, not when it is freed: nothing to walk up.
void release_task(Task* t)
{
  if (t != nullptr && t->done && t->children == 0 && !t->implicit) {
    std::free(t->data);
    delete t;
  }
}
} // namespace

void run_task(Thread& me, Task* t)
{
  Task* prev = me.task;
  me.task    = t;
  t->fn(t->data);
  hooks()->charge("an OpenMP task");
  me.task = prev;
  t->done = true;
  if (t->group != nullptr)
    --t->group->count;
  Team& team = *me.team;
  --team.outstanding;
  Task* parent = t->parent;
  if (parent != nullptr)
    --parent->children;
  // Free what is complete before waking the team: a wake lets other threads run, and the
  // region's master may end the region meanwhile and delete the implicit tasks (the parent).
  release_task(t);
  release_task(parent);
  wake_team(team);
}

// ------------------------------------------------------------------ parallel regions

namespace {
void* worker_main(void* arg)
{
  auto* w                     = static_cast<Thread*>(arg);
  *hooks()->omp_thread_slot() = w;
  w->sim                      = hooks()->self();
  for (;;) {
    while (!w->has_work && !w->quit) {
      w->waiting = "work (an idle thread of the OpenMP thread pool)";
      hooks()->park("the OpenMP thread pool", w->waiting.c_str());
    }
    if (!w->has_work)
      return nullptr; // the PE's main has ended
    w->has_work = false;
    w->fn(w->data);
    barrier(*w, "the end of an OpenMP parallel region");
  }
}

} // namespace

unsigned resolve_threads(Thread& me, unsigned requested)
{
  if (me.team->active_level >= me.icv.max_active_levels)
    return 1; // nested parallel regions run serialized
  long n = requested != 0 ? static_cast<long>(requested) : me.icv.nthreads;
  n      = std::clamp(n, 1L, static_cast<long>(me.icv.thread_limit));
  return static_cast<unsigned>(n);
}

void parallel_begin(Thread& me, void (*fn)(void*), void* data, unsigned nthreads, WorkShare* combined)
{
  Pe& pe          = *me.pe;
  Team* t         = new_team(pe);
  t->nthreads     = nthreads;
  t->level        = me.team->level + 1;
  t->active_level = me.team->active_level + (nthreads > 1 ? 1 : 0);
  t->ancestor_id  = me.id;
  t->parent       = me.team;
  t->members.assign(1, &me);
  t->arrived     = 0;
  t->outstanding = 0;
  if (combined != nullptr) {
    combined->seq = 1;
    t->work[1]    = combined;
  }
  me.saved.push_back(
      Saved{me.team, me.id, me.task, me.ws_seq, me.ws, me.static_trip, me.have_chunk, me.chunk_lo, me.chunk_hi});
  auto enter_team = [&](Thread& th, unsigned id) {
    th.team           = t;
    th.id             = id;
    th.task           = new Task;
    th.task->implicit = true;
    th.task->final    = false;
    th.ws_seq         = combined != nullptr ? 1 : 0;
    th.ws             = combined;
    th.static_trip    = 0;
    th.have_chunk     = false;
  };
  const Icv icv = me.icv;
  enter_team(me, 0);
  // Workers: the pool's first idle threads, in creation order (so that thread i of a region is
  // the same simulated thread from one region to the next: threadprivate data persists).
  std::size_t next = 0;
  for (unsigned id = 1; id < nthreads; ++id) {
    Thread* w = nullptr;
    while (next < pe.workers.size() && pe.workers[next]->busy)
      ++next;
    if (next < pe.workers.size()) {
      w = pe.workers[next++];
    } else {
      w         = new Thread;
      w->pe     = &pe;
      w->worker = true;
      w->busy   = true; // creating a thread lets other threads run: none of them may take it
      pe.workers.push_back(w);
      next              = pe.workers.size();
      unsigned long tid = 0;
      if (hooks()->thread_create(&tid, worker_main, w) != 0)
        unsupported("parallel (cannot create a thread)");
    }
    w->busy = true;
    w->icv  = icv;
    enter_team(*w, id);
    t->members.push_back(w);
    w->fn       = fn;
    w->data     = data;
    w->has_work = true;
    if (w->sim != nullptr)
      hooks()->unpark(w->sim);
  }
}

void parallel_end(Thread& me)
{
  barrier(me, "the end of an OpenMP parallel region");
  Team* t = me.team;
  for (Thread* th : t->members) {
    delete th->task;
    th->task = nullptr;
    if (th != &me) {
      th->busy = false;
      th->team = nullptr;
    }
  }
  for (auto& [seq, ws] : t->work) { // work shares left behind by nowait constructs
    std::free(ws->mem);
    delete ws;
  }
  t->work.clear();
  t->members.clear();
  t->queue.clear();
  auto& stack   = me.saved;
  const Saved s = stack.back();
  stack.pop_back();
  me.team        = s.team;
  me.id          = s.id;
  me.task        = s.task;
  me.ws_seq      = s.ws_seq;
  me.ws          = s.ws;
  me.static_trip = s.static_trip;
  me.have_chunk  = s.have_chunk;
  me.chunk_lo    = s.chunk_lo;
  me.chunk_hi    = s.chunk_hi;
  me.pe->spare_teams.push_back(t);
}

} // namespace shmemsim::omp
