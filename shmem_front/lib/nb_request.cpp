// Seed 003's non-blocking RMA and AMOs with request handles (shmemx.h, ORNL EXTENSIONS), their
// completion (shmemx_wait_request, shmemx_test_request), shmem_finalize's part and shmemx_abort.
// Every request gets a completion object of its own, a slot of the PE's context table
// (ContextTable::open_request, over the transport's counters): quiet and fence on contexts neither
// complete nor order its operations.
#include "shmem_front/lib/Requests.hpp"

#include <cstdio>
#include <cstring>
#include <type_traits>

using namespace shmemsim::front;

namespace shmemsim::front {

RequestTable& request_table()
{
  static std::mutex mutex; // the PEs' first calls may come from several threads
  static std::map<const PeState*, RequestTable> tables;
  const PeState* pe = &pe_state();
  std::lock_guard lock(mutex);
  return tables[pe];
}

std::uint64_t RequestTable::add(std::shared_ptr<Request> r)
{
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_++;
  live_.emplace(id, std::move(r));
  return id;
}

std::shared_ptr<Request> RequestTable::find(std::uint64_t id) const
{
  std::lock_guard lock(mutex_);
  auto it = live_.find(id);
  return it != live_.end() ? it->second : nullptr;
}

bool RequestTable::erase(std::uint64_t id)
{
  std::lock_guard lock(mutex_);
  return live_.erase(id) != 0;
}

std::vector<RequestTable::Item> RequestTable::snapshot() const
{
  std::lock_guard lock(mutex_);
  return {live_.begin(), live_.end()};
}

bool RequestTable::issued(std::uint64_t id) const
{
  std::lock_guard lock(mutex_);
  return id >= 1 && id < next_;
}

void add_request(std::unique_ptr<Request> r, shmemx_request_handle_t* out)
{
  const std::uint64_t id = request_table().add(std::move(r));
  *out                   = reinterpret_cast<shmemx_request_handle_t>(static_cast<std::uintptr_t>(id));
}

void finalize_requests(const Entry& e)
{
  RequestTable& t = request_table();
  std::string names;
  std::size_t leaked = 0;
  for (auto all = t.snapshot(); !all.empty(); all = t.snapshot()) {
    const auto& [id, r] = all.front();
    if (++leaked <= 4)
      names += std::string(leaked > 1 ? ", " : "") + "#" + std::to_string(id) + " " + r->routine();
    r->wait(e.routine());
    t.erase(id);
  }
  if (leaked == 0)
    return;
  std::fprintf(stderr,
               "shmemsim: PE %d: shmem_finalize: %zu request%s never waited for or tested to completion "
               "(completed now): %s%s\n",
               rt().my_pe(), leaked, leaked == 1 ? " was" : "s were", names.c_str(), leaked > 4 ? ", ..." : "");
  std::fflush(stderr);
}

} // namespace shmemsim::front

namespace {

/// An RMA or AMO request: its own completion object in the transport, and room for the operands
/// the NIC reads after the call returned (the value of an atomic set).
class RmaRequest final : public Request {
public:
  explicit RmaRequest(const char* routine) : Request(routine) {}
  ~RmaRequest() override
  {
    if (t_ != nullptr)
      close_request(t_);
  }
  TransportCtx* ctx()
  {
    if (t_ == nullptr)
      t_ = open_request();
    return t_->slot;
  }
  bool test() override { return t_ == nullptr || tp().request_test(t_->slot); }
  void wait(const char* call) override
  {
    if (t_ != nullptr)
      tp().request_wait(t_->slot, call);
  }
  unsigned char operand[16] = {};

private:
  TransportRequest* t_ = nullptr; ///< null: nothing was issued (zero length)
};

std::uint64_t id_of(shmemx_request_handle_t h)
{
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(h));
}

void check_out(const Entry& e, shmemx_request_handle_t* request)
{
  if (request == nullptr)
    e.fail("request is NULL; pass the address of a shmemx_request_handle_t");
}

void rma(const char* name, bool is_put, void* dest, const void* source, std::size_t nelems, std::size_t elem, int pe,
         shmemx_request_handle_t* request)
{
  Entry e(name);
  check_out(e, request);
  e.check_pe(pe);
  std::size_t n = 0;
  if (__builtin_mul_overflow(nelems, elem, &n))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  auto r = std::make_unique<RmaRequest>(name);
  if (n != 0) { // zero-length: nothing moves, any pointer is valid, the request is complete
    if (is_put) {
      e.check_symmetric(dest, n, "dest");
      tp().put(r->ctx(), dest, source, n, pe, false);
    } else {
      e.check_symmetric(source, n, "source");
      tp().get(r->ctx(), dest, source, n, pe, false);
    }
  }
  add_request(std::move(r), request);
}

template <class T> AmoType amo_type()
{
  if constexpr (std::is_same_v<T, float>)
    return AmoType::Float;
  else if constexpr (std::is_same_v<T, double>)
    return AmoType::Double;
  else if constexpr (sizeof(T) == 4)
    return std::is_signed_v<T> ? AmoType::Int32 : AmoType::Uint32;
  else
    return std::is_signed_v<T> ? AmoType::Int64 : AmoType::Uint64;
}

/// A (fetching when `fetch` is not null) AMO with a request; `dest` is the remote object.
template <class T>
void amo(const char* name, AmoOp op, T* fetch, T* dest, T value, const T* cond, int pe,
         shmemx_request_handle_t* request)
{
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  Entry e(name);
  check_out(e, request);
  e.check_pe(pe);
  e.check_symmetric(dest, sizeof(T), op == AmoOp::Fetch ? "source" : "dest");
  auto r = std::make_unique<RmaRequest>(name);
  std::memcpy(r->operand, &value, sizeof(T));
  if (cond != nullptr)
    std::memcpy(r->operand + 8, cond, sizeof(T));
  if (fetch == nullptr)
    tp().amo(r->ctx(), op, amo_type<T>(), dest, r->operand, pe);
  else
    tp().fetch_amo(r->ctx(), op, amo_type<T>(), dest, r->operand, cond != nullptr ? r->operand + 8 : nullptr, fetch, pe,
                   false);
  add_request(std::move(r), request);
}

/// The request behind a handle; misuse is fatal.
std::shared_ptr<Request> find(const Entry& e, shmemx_request_handle_t h)
{
  RequestTable& t        = request_table();
  const std::uint64_t id = id_of(h);
  if (auto r = t.find(id))
    return r;
  if (t.issued(id))
    e.fail("request #" + std::to_string(id) +
           " has already completed and was released (by shmemx_wait_request or "
           "a shmemx_test_request that returned 1)");
  e.fail("request " + hex(h) + " is not a request of this PE");
}

} // namespace

// Bodies per KIND; parameter names are those of the rows in shmemx.h.
#define SHMEMX_RQ_put(NAME, ELEM) rma(NAME, true, dest, source, nelems, ELEM, pe, request)
#define SHMEMX_RQ_get(NAME, ELEM) rma(NAME, false, dest, source, nelems, ELEM, pe, request)
#define SHMEMX_RQ_fetch(NAME, T)                                                                                       \
  amo<T>(NAME, AmoOp::Fetch, fetch, const_cast<T*>(source), static_cast<T>(0), nullptr, pe, request)
#define SHMEMX_RQ_set(NAME, T) amo<T>(NAME, AmoOp::Set, nullptr, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_swap(NAME, T) amo<T>(NAME, AmoOp::Swap, fetch, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_compare_swap(NAME, T) amo<T>(NAME, AmoOp::CompareSwap, fetch, dest, value, &cond, pe, request)
#define SHMEMX_RQ_fetch_inc(NAME, T) amo<T>(NAME, AmoOp::Add, fetch, dest, static_cast<T>(1), nullptr, pe, request)
#define SHMEMX_RQ_inc(NAME, T) amo<T>(NAME, AmoOp::Add, nullptr, dest, static_cast<T>(1), nullptr, pe, request)
#define SHMEMX_RQ_fetch_add(NAME, T) amo<T>(NAME, AmoOp::Add, fetch, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_add(NAME, T) amo<T>(NAME, AmoOp::Add, nullptr, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_fetch_and(NAME, T) amo<T>(NAME, AmoOp::And, fetch, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_fetch_or(NAME, T) amo<T>(NAME, AmoOp::Or, fetch, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_fetch_xor(NAME, T) amo<T>(NAME, AmoOp::Xor, fetch, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_and_(NAME, T) amo<T>(NAME, AmoOp::And, nullptr, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_or_(NAME, T) amo<T>(NAME, AmoOp::Or, nullptr, dest, value, nullptr, pe, request)
#define SHMEMX_RQ_xor_(NAME, T) amo<T>(NAME, AmoOp::Xor, nullptr, dest, value, nullptr, pe, request)

#define SHMEMX_RQ_DEFINE(RET, BASE, KIND, ELEM, PARAMS, ARGS)                                                          \
  RET shmemx_##BASE##_req PARAMS                                                                                       \
  {                                                                                                                    \
    SHMEMX_RQ_##KIND("shmemx_" #BASE "_req", ELEM);                                                                    \
  }
#define SHMEMX_RQ_TYPED_(TYPE, TYPENAME) SHMEMX_REQ_TYPED_ROUTINES(SHMEMX_RQ_DEFINE, TYPE, TYPENAME)
#define SHMEMX_RQ_SIZED_(SIZE) SHMEMX_REQ_SIZED_ROUTINES(SHMEMX_RQ_DEFINE, SIZE)
#define SHMEMX_RQ_AE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_EXTENDED_ROUTINES(SHMEMX_RQ_DEFINE, TYPE, TYPENAME)
#define SHMEMX_RQ_AS_(TYPE, TYPENAME) SHMEMX_REQ_AMO_STANDARD_ROUTINES(SHMEMX_RQ_DEFINE, TYPE, TYPENAME)
#define SHMEMX_RQ_AB_(TYPE, TYPENAME) SHMEMX_REQ_AMO_BITWISE_ROUTINES(SHMEMX_RQ_DEFINE, TYPE, TYPENAME)

extern "C" {

SHMEMX_REQ_MEM_ROUTINES(SHMEMX_RQ_DEFINE)
SHMEMSIM_RMA_TYPES(SHMEMX_RQ_TYPED_)
SHMEMSIM_SIZES(SHMEMX_RQ_SIZED_)
SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMX_RQ_AE_)
SHMEMSIM_AMO_STANDARD_TYPES(SHMEMX_RQ_AS_)
SHMEMSIM_AMO_BITWISE_TYPES(SHMEMX_RQ_AB_)

void shmemx_wait_request(shmemx_request_handle_t request)
{
  Entry e("shmemx_wait_request");
  progress_collectives();
  if (request == SHMEMX_REQUEST_NULL)
    return;
  find(e, request)->wait(e.routine());
  request_table().erase(id_of(request));
}

int shmemx_test_request(shmemx_request_handle_t request)
{
  Entry e("shmemx_test_request");
  progress_collectives();
  if (request == SHMEMX_REQUEST_NULL)
    return 1;
  if (find(e, request)->test()) {
    request_table().erase(id_of(request));
    return 1;
  }
  rt().poll_pause(); // a poll that found nothing lets communication progress
  return 0;
}

void shmemx_abort(int status)
{
  Entry e("shmemx_abort", true);
  std::fprintf(stderr, "shmemsim: PE %d: shmemx_abort(%d): ending every PE\n", rt().my_pe(), status);
  std::fflush(stderr);
  rt().global_exit(status);
}

} // extern "C"
