#include "shmem_front/emulator/Nic.hpp"

#include "base/Assert.hpp"
#include "shmem_front/emulator/BootClient.hpp"
#include "shmem_front/emulator/Clock.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <set>
#include <stdexcept>

namespace shmemsim::emulator {

namespace asio = boost::asio;
using asio::ip::tcp;
using front::AmoOp;
using front::AmoType;

namespace {
/// Bytes a connection reads at once: many small messages per read (and per wake-up).
constexpr std::size_t kInBuffer = 256 * 1024;

std::uint64_t now_ns()
{
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

std::vector<std::uint8_t> token_bytes(const std::string& hex)
{
  std::vector<std::uint8_t> t(kTokenBytes);
  for (std::size_t i = 0; i < kTokenBytes; ++i)
    t[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return t;
}
} // namespace

/// A message the injector holds until its release time (and, if `hold` > 0, until that many
/// later requests of the pair have gone out, or its deadline).
struct Delayed {
  std::uint64_t release = 0, deadline = 0, order = 0;
  int hold = 0;
  std::vector<char> bytes;
};

/// One TCP connection to a peer: one of the pair's paths (emulator.paths).
struct Nic::Conn {
  Conn(asio::io_context& io, Peer& p, int path_) : socket(io), peer(&p), path(path_) {}
  tcp::socket socket;
  Peer* peer;
  int path;
  // Send side (the peer's lock)
  std::deque<Out> queue;
  bool writing = false;
  // Receive side (progress thread only)
  Header header;
  std::vector<char> payload;
  std::vector<char> in; ///< bytes read, [in_lo, in_hi) not yet handled
  std::size_t in_lo = 0, in_hi = 0;
  bool direct = false; ///< the current put's payload is read straight into the target memory
  // The shared-memory path (a peer of this host): the TCP connection only carries doorbells.
  ShmRing out_ring, in_ring;              ///< to the peer, from it (empty: TCP)
  std::uint32_t* peer_sleeping = nullptr; ///< the peer's control word: its progress thread sleeps
  std::atomic<bool> out_pending{false};   ///< queued bytes wait for room in out_ring
  char* rest_dst        = nullptr;        ///< the current message's payload still in the ring ...
  std::size_t rest_left = 0;              ///< ... this many bytes, for rest_dst
  char doorbells[64];
};

struct Nic::Peer {
  explicit Peer(asio::io_context& io, int pe_, const Config& cfg, const InjectedDelays& delays, int me)
      : pe(pe_), route_rng(Injector::mix(cfg.seed, me, pe_, 2)), timer(io), injector(delays, cfg.seed, me, pe_)
  {
    for (int k = 0; k < std::max(1, cfg.emulator.paths); ++k)
      conns.push_back(std::make_unique<Conn>(io, *this, k));
  }
  int pe;
  std::vector<std::unique_ptr<Conn>> conns; ///< the paths to this peer
  std::mutex mutex;                         ///< everything below up to the receive side, and the connections' send side
  std::uint64_t next_seq = 0;
  std::mt19937_64 route_rng; ///< random routing's choices (seeded)
  // Batching (nothing injected): requests following each other closely, sent in one write.
  std::vector<char> batch;
  bool doorbell                 = false; ///< the progress thread is asked to send the batch
  std::uint64_t last_request_ns = 0;     ///< when the last batchable request to this peer was issued
  // Injection
  asio::steady_timer timer;
  Injector injector;
  std::vector<Delayed> delayed;
  std::uint64_t order = 0;
  // Receive side (progress thread only)
  std::uint64_t ack_cookie = 0, ack_count = 0; ///< ACKs owed, for one counter (ack())
  std::uint64_t ack_seq  = 0;                  ///< the last request acknowledged (names it for an observer)
  std::uint64_t expected = 1;
  std::map<std::uint64_t, std::pair<Header, std::vector<char>>> stash;
  // Deliveries: every request up to `delivered_low` came, and those of `delivered_above` (came
  // while an earlier one had not: out of order).
  std::uint64_t delivered_low = 0;
  std::set<std::uint64_t> delivered_above;
};

Nic::Nic(const Config& cfg, Segments mem, std::function<void(const std::string&)> fatal)
    : cfg_(cfg), delays_(cfg.emulator), mem_(mem), fatal_(std::move(fatal))
{
  peers_.resize(static_cast<std::size_t>(cfg.npes));
}

Nic::~Nic()
{
  stop();
}

// ------------------------------------------------------------------ connections

void Nic::connect(BootClient& boot)
{
  const int me = cfg_.rank;
  for (int pe = 0; pe < cfg_.npes; ++pe)
    if (pe != me)
      peers_[static_cast<std::size_t>(pe)] = std::make_unique<Peer>(io_, pe, cfg_, delays_, me);
  tcp::endpoint local(asio::ip::make_address(cfg_.listen_host), 0);
  acceptor_                    = std::make_unique<tcp::acceptor>(io_, local);
  const std::string& advertise = cfg_.advertise.empty() ? cfg_.listen_host : cfg_.advertise;
  boot.put("addr." + std::to_string(me), advertise + ":" + std::to_string(acceptor_->local_endpoint().port()));
  boot.barrier();
  // PE i connects to every PE below it and accepts those above.
  const std::vector<std::uint8_t> token = token_bytes(cfg_.token);
  for (int pe = 0; pe < me; ++pe) {
    const std::string addr = boot.get("addr." + std::to_string(pe));
    const auto colon       = addr.rfind(':');
    Peer& p                = *peers_[static_cast<std::size_t>(pe)];
    tcp::resolver resolver(io_);
    for (auto& c : p.conns) {
      boost::system::error_code ec;
      const auto endpoints = resolver.resolve(addr.substr(0, colon), addr.substr(colon + 1), ec);
      if (!ec)
        asio::connect(c->socket, endpoints, ec);
      if (ec)
        throw std::runtime_error("cannot connect to PE " + std::to_string(pe) + " at " + addr + ": " + ec.message());
      Hello hello{};
      std::memcpy(hello.token, token.data(), kTokenBytes);
      hello.rank  = static_cast<std::uint32_t>(me);
      hello.path  = static_cast<std::uint32_t>(c->path);
      hello.magic = kHelloMagic;
      asio::write(c->socket, asio::buffer(&hello, sizeof hello));
    }
  }
  accept_peers((cfg_.npes - 1 - me) * std::max(1, cfg_.emulator.paths));
  map_shared_segment();
  for (auto& p : peers_)
    if (p)
      for (auto& c : p->conns) {
        c->socket.set_option(tcp::no_delay(true));
        if (c->in_ring)
          read_doorbells(*c);
        else
          start_reading(*c);
      }
  boot.barrier(); // every connection is up before anyone sends
  refuse_later();
  thread_ = std::thread([this] { progress_loop(); });
}

namespace {
/// How long the progress thread keeps polling (yielding the core) after it last handled
/// something before it blocks in epoll, and a waiting thread (quiet, a blocking operation,
/// wait_until's re-checks) before it blocks on its condition variable: a message that comes
/// meanwhile needs no wake-up. 500 us: several loopback TCP round trips (20-40 us here), so that
/// neither side of a ping-pong, a put + quiet or a fetching AMO blocks on an idle machine.
constexpr std::uint64_t kProgressSpinNs = 500'000;
constexpr std::uint64_t kWaitSpinNs     = 500'000;
/// A wait_until's re-check of the same count (wait_update): the short spin it always had.
constexpr std::uint64_t kRecheckSpinNs = 20'000;
/// A yield that kept the thread off its core this long: other work holds the cores (Spin).
/// 50 us: longer than a round of this job's own yielding threads, far shorter than the time
/// slice (milliseconds) a busy process gets.
constexpr std::uint64_t kYieldLostNs = 50'000;

/// Polling before blocking, yielding the core at each turn, for at most a budget. It stops early
/// when a yield kept this thread off the core for long (kYieldLostNs): other work holds the cores,
/// and a blocked thread does better then (woken, it preempts that work at once, where a yielding
/// one waits out the others' time slices). While the yields come back soon -- the threads running
/// meanwhile are this job's, polling too -- it goes on: on an idle machine a blocked thread's
/// wake-up is what costs (a virtual machine's idle cores halt).
class Spin {
public:
  explicit Spin(std::uint64_t budget_ns) : until_(now_ns() + budget_ns) {}
  /// Yield the core once; false when it is time to block.
  bool yield()
  {
    const std::uint64_t before = now_ns();
    sched_yield();
    const std::uint64_t after = now_ns();
    return after - before < kYieldLostNs && after < until_;
  }

private:
  std::uint64_t until_;
};
} // namespace

void Nic::progress_loop()
{
  // Messages come in bursts (a stream, a collective's rounds): blocking in epoll after each one
  // costs a wake-up per message, expensive on a virtual machine whose idle cores halt. Measured
  // on 2 shared cores: 8-byte message rate at 2 PEs 0.12-0.37 -> 0.64-1.25 M puts/s, an 8-PE
  // all-to-all round 1.5-2.2 -> 0.9-1.5 ms at a load where cores idled (bench/README.md).
  auto guard = asio::make_work_guard(io_);
  Spin spin(kProgressSpinNs);
  while (!io_.stopped()) {
    const bool handled = io_.poll() > 0;
    if ((!ring_conns_.empty() && try_poll_rings()) || handled) {
      spin = Spin(kProgressSpinNs);
      continue;
    }
    if (spin.yield())
      continue;
    if (shm_ != nullptr) {
      // Going to sleep: producers into this PE's rings ring its doorbell from now on (wake_peer),
      // and consumers of its full rings when they make room. Then a last look (the flags are
      // seen, or the bytes are).
      progress_asleep_.store(true, std::memory_order_seq_cst); // before the flag: stop_driving_rings
      std::atomic_ref(*sleeping_).store(1, std::memory_order_seq_cst);
      for (Conn* c : ring_conns_)
        if (c->out_pending.load(std::memory_order_acquire))
          c->out_ring.producer_waiting().store(1, std::memory_order_seq_cst);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      if (try_poll_rings()) {
        progress_asleep_.store(false, std::memory_order_relaxed);
        std::atomic_ref(*sleeping_).store(0, std::memory_order_relaxed);
        spin = Spin(kProgressSpinNs);
        continue;
      }
    }
    sleeps_.fetch_add(1, std::memory_order_relaxed);
    io_.run_one();
    if (shm_ != nullptr) {
      progress_asleep_.store(false, std::memory_order_relaxed);
      std::atomic_ref(*sleeping_).store(0, std::memory_order_relaxed);
    }
    spin = Spin(kProgressSpinNs);
  }
}

// ------------------------------------------------------------------ shared memory

void Nic::map_shared_segment()
{
  if (cfg_.shm_ranks.empty())
    return;
  std::vector<int> ranks;
  for (std::size_t at = 0; at <= cfg_.shm_ranks.size();) {
    const std::size_t comma = std::min(cfg_.shm_ranks.find(',', at), cfg_.shm_ranks.size());
    ranks.push_back(std::stoi(cfg_.shm_ranks.substr(at, comma - at)));
    at = comma + 1;
  }
  ShmLayout layout;
  layout.pes        = static_cast<int>(ranks.size());
  layout.ring_bytes = static_cast<std::size_t>(cfg_.shm_ring);
  const auto mine   = std::find(ranks.begin(), ranks.end(), cfg_.rank);
  struct stat st {};
  if (mine == ranks.end() || layout.ring_bytes == 0 || (layout.ring_bytes & (layout.ring_bytes - 1)) != 0 ||
      fstat(kShmFd, &st) != 0 || static_cast<std::size_t>(st.st_size) < layout.total())
    throw std::runtime_error("the launcher's shared-memory segment (descriptor " + std::to_string(kShmFd) +
                             ") does not match its configuration");
  void* m = mmap(nullptr, layout.total(), PROT_READ | PROT_WRITE, MAP_SHARED, kShmFd, 0);
  close(kShmFd);
  if (m == MAP_FAILED)
    throw std::runtime_error(std::string("cannot map the shared-memory segment: ") + std::strerror(errno));
  shm_           = static_cast<std::byte*>(m);
  shm_bytes_     = layout.total();
  const int slot = static_cast<int>(mine - ranks.begin());
  sleeping_      = reinterpret_cast<std::uint32_t*>(shm_ + static_cast<std::size_t>(slot) * ShmLayout::kLine);
  for (int j = 0; j < layout.pes; ++j) {
    const int pe = ranks[static_cast<std::size_t>(j)];
    if (pe == cfg_.rank)
      continue;
    Peer& p = *peers_.at(static_cast<std::size_t>(pe));
    SHMEMSIM_ASSERT(p.conns.size() == 1, "the launcher gives a shared segment only with emulator.paths = 1");
    Conn& c         = *p.conns[0];
    c.out_ring      = ShmRing(shm_ + layout.ring_at(slot, j), layout.ring_bytes);
    c.in_ring       = ShmRing(shm_ + layout.ring_at(j, slot), layout.ring_bytes);
    c.peer_sleeping = reinterpret_cast<std::uint32_t*>(shm_ + static_cast<std::size_t>(j) * ShmLayout::kLine);
    ring_conns_.push_back(&c);
  }
}

namespace {
/// Ring the doorbell of the PE at the other end of `socket`: a byte it reads and drops.
void doorbell(tcp::socket& socket)
{
  const char b = 1;
  ::send(socket.native_handle(), &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL); // full: it is rung already
}
} // namespace

void Nic::wake_peer(Conn& c)
{
  // Pairs with progress_loop's flag then last look: either it sees these bytes, or this sees its flag.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  std::atomic_ref<std::uint32_t> s(*c.peer_sleeping);
  if (s.load(std::memory_order_relaxed) != 0 && s.exchange(0) != 0)
    doorbell(c.socket);
}

void Nic::wake_producer(Conn& c)
{
  std::atomic_thread_fence(std::memory_order_seq_cst);
  auto w = c.in_ring.producer_waiting();
  if (w.load(std::memory_order_relaxed) != 0 && w.exchange(0) != 0)
    doorbell(c.socket);
}

void Nic::read_doorbells(Conn& c)
{
  c.socket.async_read_some(asio::buffer(c.doorbells), [this, &c](const boost::system::error_code& ec, std::size_t) {
    if (!ec) // else the peer ended (the launcher reports an early end)
      read_doorbells(c);
  });
}

bool Nic::try_poll_rings()
{
  std::unique_lock lock(rx_mutex_, std::try_to_lock);
  return !lock.owns_lock() || poll_rings(); // another thread polls them: not idle
}

void Nic::drive_rings()
{
  if (ring_conns_.empty())
    return;
  // This thread polls the rings now: producers need not ring the doorbell (wake_peer).
  std::atomic_ref(*sleeping_).store(0, std::memory_order_seq_cst);
  try_poll_rings();
}

void Nic::stop_driving_rings()
{
  if (ring_conns_.empty())
    return;
  // The progress thread sleeps (it sets progress_asleep_ before its flag, which drive_rings may
  // have cleared since): the flag again, then a last look, as it does before it sleeps. Awake,
  // it polls the rings itself.
  if (!progress_asleep_.load(std::memory_order_seq_cst))
    return;
  std::atomic_ref(*sleeping_).store(1, std::memory_order_seq_cst);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  try_poll_rings();
}

bool Nic::poll_rings()
{
  bool moved = false;
  for (Conn* c : ring_conns_) {
    if (c->out_pending.load(std::memory_order_acquire))
      moved |= ring_flush(*c);
    moved |= poll_ring(*c);
  }
  return moved;
}

namespace {
/// Bytes taken from a ring at once into a connection's read buffer: many small messages, but a
/// large payload is mostly copied straight to its place (read_rest).
constexpr std::size_t kRingChunk = 16 * 1024;
} // namespace

bool Nic::poll_ring(Conn& c)
{
  if (c.rest_left > 0) { // a payload straight into its place
    const std::size_t n = c.in_ring.pop(c.rest_dst, c.rest_left);
    if (n == 0)
      return false;
    wake_producer(c);
    c.rest_dst += n;
    c.rest_left -= n;
    if (c.rest_left == 0) {
      (void)pushed_.load(std::memory_order_acquire); // see pushed_ (Nic.hpp)
      on_message(c);
      process(c);
    }
    return true;
  }
  if (c.in.empty())
    c.in.resize(kInBuffer);
  const std::size_t n = c.in_ring.pop(c.in.data() + c.in_hi, std::min(kRingChunk, c.in.size() - c.in_hi));
  if (n == 0)
    return false;
  wake_producer(c);
  c.in_hi += n;
  (void)pushed_.load(std::memory_order_acquire); // see pushed_ (Nic.hpp)
  process(c);
  return true;
}

std::size_t Nic::ring_push(Conn& c, const iovec* iov, int count)
{
  std::size_t took = 0;
  for (int i = 0; i < count; ++i) {
    const std::size_t k = c.out_ring.push(iov[i].iov_base, iov[i].iov_len);
    took += k;
    if (k < iov[i].iov_len)
      break;
  }
  if (took > 0) {
    pushed_.fetch_add(1, std::memory_order_release); // see pushed_ (Nic.hpp)
    wake_peer(c);
  }
  return took;
}

bool Nic::ring_flush(Conn& c)
{
  std::lock_guard lock(c.peer->mutex);
  std::size_t took = 0;
  while (!c.queue.empty()) {
    Out& o                = c.queue.front();
    const std::size_t nb  = o.bytes.size();
    const std::size_t all = nb + o.in_place_len;
    while (o.pushed < all) {
      const std::size_t k = o.pushed < nb ? c.out_ring.push(o.bytes.data() + o.pushed, nb - o.pushed)
                                          : c.out_ring.push(o.in_place + (o.pushed - nb), all - o.pushed);
      if (k == 0)
        break;
      o.pushed += k;
      took += k;
    }
    if (o.pushed < all)
      break; // full: the rest when the consumer makes room
    c.queue.pop_front();
  }
  if (took > 0) {
    pushed_.fetch_add(1, std::memory_order_release); // see pushed_ (Nic.hpp)
    wake_peer(c);
  }
  c.writing = !c.queue.empty();
  c.out_pending.store(c.writing, std::memory_order_release);
  return took > 0;
}

namespace {
/// Read the first bytes of an accepted data connection, waiting at most 2 s (a silent intruder
/// must not stall the job's start).
bool read_hello(tcp::socket& s, Hello* hello)
{
  timeval tv{2, 0};
  setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  std::size_t got = 0;
  auto* p         = reinterpret_cast<char*>(hello);
  while (got < sizeof *hello) {
    const ssize_t r = ::recv(s.native_handle(), p + got, sizeof *hello - got, 0);
    if (r <= 0)
      return false;
    got += static_cast<std::size_t>(r);
  }
  return true;
}
} // namespace

void Nic::refuse(tcp::socket& s)
{
  boost::system::error_code ec;
  const auto peer = s.remote_endpoint(ec);
  // The first few, each a line: a flood of connections is not a flood of lines.
  constexpr std::uint64_t kShown = 3;
  const std::uint64_t n          = refused_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n <= kShown)
    std::fprintf(stderr, "shmemsim-run: PE %d refused a data connection from %s without the job's token%s\n", cfg_.rank,
                 ec ? "an unknown address" : peer.address().to_string().c_str(),
                 n == kShown ? " (further ones are not shown)" : "");
  s.close(ec);
}

void Nic::accept_peers(int count)
{
  const std::vector<std::uint8_t> token = token_bytes(cfg_.token);
  while (count > 0) {
    tcp::socket s(io_);
    acceptor_->accept(s);
    Hello hello{};
    const bool ok = read_hello(s, &hello) && hello.magic == kHelloMagic &&
                    std::memcmp(hello.token, token.data(), kTokenBytes) == 0 &&
                    static_cast<int>(hello.rank) > cfg_.rank && static_cast<int>(hello.rank) < cfg_.npes &&
                    hello.path < peers_[hello.rank]->conns.size() &&
                    !peers_[hello.rank]->conns[hello.path]->socket.is_open();
    if (!ok) {
      refuse(s); // the job goes on
      continue;
    }
    peers_[hello.rank]->conns[hello.path]->socket = std::move(s);
    --count;
  }
}

void Nic::refuse_later()
{
  // Every peer is connected: whatever connects now is not part of the job.
  acceptor_->async_accept([this](const boost::system::error_code& ec, tcp::socket s) {
    if (ec || stopping_)
      return;
    refuse(s);
    refuse_later();
  });
}

void Nic::stop()
{
  if (stopping_.exchange(true))
    return;
  io_.stop();
  if (thread_.joinable())
    thread_.join();
}

void Nic::every(std::chrono::milliseconds period, std::function<void()> fn)
{
  auto timer = std::make_unique<asio::steady_timer>(io_);
  auto* t    = timer.get();
  tickers_.push_back(std::move(timer));
  auto tick = std::make_shared<std::function<void()>>();
  *tick     = [this, t, period, fn, tick] {
    t->expires_after(period);
    t->async_wait([this, fn, tick](const boost::system::error_code& ec) {
      if (ec || stopping_)
        return;
      fn();
      (*tick)();
    });
  };
  asio::post(io_, [tick] { (*tick)(); });
}

// ------------------------------------------------------------------ addresses

bool Nic::translate(const void* a, std::size_t n, std::uint8_t* seg, std::uint64_t* off) const
{
  const auto* p = static_cast<const std::byte*>(a);
  for (std::uint8_t s = 0; s < 2; ++s)
    if (mem_.base[s] != nullptr && p >= mem_.base[s] && p + n <= mem_.base[s] + mem_.size[s]) {
      *seg = s;
      *off = static_cast<std::uint64_t>(p - mem_.base[s]);
      return true;
    }
  return false;
}

std::byte* Nic::at(std::uint8_t seg, std::uint64_t off, std::uint64_t n) const
{
  if (seg > 1 || off > mem_.size[seg] || n > mem_.size[seg] - off)
    return nullptr;
  return mem_.base[seg] + off;
}

// ------------------------------------------------------------------ sending

namespace {
/// A request's kind for the observer, in the simulated NIC's words (Portals' calls: PtlAtomic,
/// PtlFetchAtomic, PtlSwap), so that traces and reports of both backends speak alike.
const char* kind_of(const Header& h)
{
  switch (h.type) {
    case MsgType::Put:
      return "put";
    case MsgType::Get:
      return "get";
    case MsgType::Amo:
      return "atomic";
    case MsgType::FetchAmo: {
      const auto op = static_cast<front::AmoOp>(h.op);
      return op == front::AmoOp::Swap || op == front::AmoOp::CompareSwap ? "swap" : "fetch_atomic";
    }
    default:
      return "response";
  }
}
} // namespace

void Nic::send_request(int pe, Header& h, const void* payload, std::size_t n, std::uint64_t op, bool may_batch,
                       Payload how)
{
  Peer& p = *peers_[static_cast<std::size_t>(pe)];
  h.src   = static_cast<std::uint32_t>(cfg_.rank);
  std::lock_guard lock(p.mutex);
  h.seq = ++p.next_seq;
  messages_.fetch_add(1, std::memory_order_relaxed);
  requests_.fetch_add(1, std::memory_order_relaxed);
  payload_bytes_.fetch_add(n, std::memory_order_relaxed);
  if (obs_ != nullptr) {
    const bool amo         = h.type == MsgType::Amo || h.type == MsgType::FetchAmo;
    const std::uint64_t id = obs_->msg_issued(now(), kind_of(h), cfg_.rank, pe,
                                              amo ? front::amo_size(static_cast<AmoType>(h.dtype)) : h.len, op);
    SHMEMSIM_ASSERT(id == pair_message_id(cfg_.rank, pe, h.seq),
                    "the emulated NIC's observer names its messages by pair (the target names their deliveries so)");
  }
  if (may_batch && batch_locked(p, h, payload, n))
    return;
  send_locked(p, h, payload, n, true, how);
}

namespace {
/// A batch goes out when it holds this many bytes.
constexpr std::size_t kBatchBytes = 64 * 1024;
/// Larger puts are never batched (they are sent from the caller's buffer).
constexpr std::size_t kBatchPayload = 4096;
/// A request issued this soon after the previous one to the same peer joins a batch: a stream.
/// A lone request (a ping-pong's put) goes at once, from the caller's thread.
constexpr std::uint64_t kStreamGapNs = 20'000;
} // namespace

bool Nic::batch_locked(Peer& p, const Header& h, const void* payload, std::size_t n)
{
  // A ring takes a message as cheaply as a batch would (a copy, no system call): no batch.
  if (delays_.any() || n > kBatchPayload || p.conns[0]->out_ring)
    return false;
  const std::uint64_t t = now_ns();
  const bool stream     = t - p.last_request_ns < kStreamGapNs;
  p.last_request_ns     = t;
  if (!stream && p.batch.empty())
    return false;
  if (p.batch.empty()) {
    p.batch.reserve(kBatchBytes + sizeof h + kBatchPayload);
    batched_peers_.fetch_add(1, std::memory_order_acq_rel);
  }
  const std::size_t at = p.batch.size();
  p.batch.resize(at + sizeof h + n);
  copied(n);
  std::memcpy(p.batch.data() + at, &h, sizeof h);
  if (n > 0)
    std::memcpy(p.batch.data() + at + sizeof h, payload, n);
  if (p.batch.size() >= kBatchBytes) {
    flush_batch_locked(p, nullptr);
  } else if (!p.doorbell) { // the progress thread sends it soon if this thread does not first
    p.doorbell = true;
    asio::post(io_, [this, &p] {
      std::lock_guard lock(p.mutex);
      p.doorbell = false;
      flush_batch_locked(p, nullptr);
    });
  }
  return true;
}

void Nic::flush_batch_locked(Peer& p, Conn* via)
{
  if (p.batch.empty())
    return;
  batched_peers_.fetch_sub(1, std::memory_order_acq_rel);
  Conn& c = via != nullptr ? *via : route_locked(p);
  iovec iov{p.batch.data(), p.batch.size()};
  if (send_parts_locked(c, &iov, 1)) {
    p.batch.clear(); // sent (or its rest queued): the buffer is kept for the next batch
    return;
  }
  write_locked(c, Out{std::move(p.batch)});
  p.batch = {};
}

Nic::Conn& Nic::route_locked(Peer& p)
{
  const std::size_t k = p.conns.size();
  if (k == 1)
    return *p.conns[0];
  switch (cfg_.routing) {
    case Routing::DModK: // fixed per destination: the pair's order is kept
      return *p.conns[static_cast<std::size_t>(p.pe) % k];
    case Routing::Random:
      return *p.conns[p.route_rng() % k];
    case Routing::Adaptive:
      break;
  }
  // The least loaded path: an idle one, else the one with the fewest messages queued.
  Conn* best = p.conns[0].get();
  for (auto& c : p.conns) {
    if (!c->writing && c->queue.empty())
      return *c;
    if (c->queue.size() < best->queue.size())
      best = c.get();
  }
  return *best;
}

void Nic::flush_batches()
{
  if (batched_peers_.load(std::memory_order_acquire) == 0)
    return;
  for (auto& p : peers_)
    if (p) {
      std::lock_guard lock(p->mutex);
      flush_batch_locked(*p, nullptr);
    }
}

void Nic::send_locked(Peer& p, const Header& h, const void* payload, std::size_t n, bool request, Payload how)
{
  if (!delays_.any()) {
    Conn& c = route_locked(p);
    if (try_direct_locked(c, h, payload, n, how))
      return;
    flush_batch_locked(p, &c); // what was batched goes first
    Out out;
    const bool copy = how == Payload::Copy;
    out.bytes.resize(sizeof h + (copy ? n : 0));
    std::memcpy(out.bytes.data(), &h, sizeof h);
    if (copy && n > 0) {
      std::memcpy(out.bytes.data() + sizeof h, payload, n);
      copied(n);
    } else if (n > 0) {
      out.in_place     = static_cast<const char*>(payload);
      out.in_place_len = n;
    }
    write_locked(c, std::move(out));
    return;
  }
  const Decision d = p.injector.next(sizeof h + n, request);
  if (cfg_.emulator.log_decisions)
    std::fprintf(stderr, "shmemsim-emu: decision %d->%d %s %llu delay_ns %llu hold %d\n", cfg_.rank, p.pe,
                 request ? "request" : "response", static_cast<unsigned long long>(d.index),
                 static_cast<unsigned long long>(d.delay_ns), d.hold);
  Delayed item;
  const std::uint64_t t = now_ns();
  item.release          = t + d.delay_ns;
  item.hold             = d.hold;
  item.deadline         = item.release + delays_.hold_ns;
  item.order            = ++p.order;
  copied(n);
  item.bytes.resize(sizeof h + n);
  std::memcpy(item.bytes.data(), &h, sizeof h);
  if (n > 0)
    std::memcpy(item.bytes.data() + sizeof h, payload, n);
  if (d.hold > 0)
    held_.fetch_add(1, std::memory_order_relaxed);
  p.delayed.push_back(std::move(item));
  asio::post(io_, [this, &p] { pump(p); });
}

bool Nic::try_direct_locked(Conn& c, const Header& h, const void* payload, std::size_t n, Payload how)
{
  // The peer's batch (if any), then this message, in one write.
  Peer& p = *c.peer;
  iovec iov[3];
  int k = 0;
  if (!p.batch.empty())
    iov[k++] = {p.batch.data(), p.batch.size()};
  iov[k++] = {const_cast<Header*>(&h), sizeof h};
  if (n > 0)
    iov[k++] = {const_cast<void*>(payload), n};
  if (!send_parts_locked(c, iov, k, n > 0 ? how : Payload::Copy))
    return false;
  if (!p.batch.empty()) {
    p.batch.clear();
    batched_peers_.fetch_sub(1, std::memory_order_acq_rel);
  }
  return true;
}

bool Nic::send_parts_locked(Conn& c, const iovec* iov, int count, Payload how)
{
  if (c.writing || !c.queue.empty())
    return false;
  // Nothing queued: send from the caller's buffers at once (no copy, no progress-thread hop).
  ssize_t r = 0;
  if (c.out_ring) {
    r = static_cast<ssize_t>(ring_push(c, iov, count));
  } else {
    msghdr msg{};
    msg.msg_iov    = const_cast<iovec*>(iov);
    msg.msg_iovlen = static_cast<std::size_t>(count);
    r              = ::sendmsg(c.socket.native_handle(), &msg, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      return false; // the queue's writer reports it
  }
  std::size_t skip = r > 0 ? static_cast<std::size_t>(r) : 0, total = 0;
  for (int i = 0; i < count; ++i)
    total += iov[i].iov_len;
  if (skip == total)
    return true;
  // The socket took part of it: the rest is queued, in order (the last buffer's in place if it
  // stays unchanged until the message completes: a large payload is not copied).
  const int copies = how == Payload::InPlace ? count - 1 : count;
  Out rest;
  for (int i = 0; i < count; ++i) {
    const std::size_t from = std::min(skip, iov[i].iov_len);
    skip -= from;
    const char* b = static_cast<const char*>(iov[i].iov_base);
    if (i < copies) {
      rest.bytes.insert(rest.bytes.end(), b + from, b + iov[i].iov_len);
      copied(iov[i].iov_len - from);
    } else {
      rest.in_place     = b + from;
      rest.in_place_len = iov[i].iov_len - from;
    }
  }
  write_locked(c, std::move(rest));
  return true;
}

void Nic::write_locked(Conn& c, Out&& out)
{
  c.queue.push_back(std::move(out));
  if (c.writing)
    return;
  c.writing = true;
  asio::post(io_, [this, &c] { start_write(c); });
}

void Nic::start_write(Conn& c)
{
  if (c.out_ring) {
    ring_flush(c);
    return;
  }
  Peer& p = *c.peer;
  // Everything queued so far goes out in one gathered write (up to 64 messages).
  std::vector<asio::const_buffer> bufs;
  std::size_t count = 0; // messages
  {
    std::lock_guard lock(p.mutex);
    for (Out& o : c.queue) {
      if (!o.bytes.empty())
        bufs.emplace_back(o.bytes.data(), o.bytes.size());
      if (o.in_place_len > 0)
        bufs.emplace_back(o.in_place, o.in_place_len);
      if (++count == 64)
        break;
    }
  }
  asio::async_write(c.socket, bufs, [this, &c, &p, count](const boost::system::error_code& ec, std::size_t) {
    if (ec) {
      if (!stopping_)
        fatal_("lost the connection to PE " + std::to_string(p.pe) + ": " + ec.message());
      return;
    }
    bool more;
    {
      std::lock_guard lock(p.mutex);
      for (std::size_t i = 0; i < count; ++i)
        c.queue.pop_front();
      more      = !c.queue.empty();
      c.writing = more;
    }
    if (more)
      start_write(c);
  });
}

void Nic::pump(Peer& p)
{
  std::lock_guard lock(p.mutex);
  const std::uint64_t t = now_ns();
  while (true) {
    // The earliest message due: not held (or held past its deadline), release time reached.
    auto best = p.delayed.end();
    for (auto it = p.delayed.begin(); it != p.delayed.end(); ++it) {
      const bool ready = it->hold == 0 ? it->release <= t : it->deadline <= t;
      if (ready && (best == p.delayed.end() || std::tie(it->release, it->order) < std::tie(best->release, best->order)))
        best = it;
    }
    if (best == p.delayed.end())
      break;
    const std::uint64_t order = best->order;
    std::vector<char> bytes   = std::move(best->bytes);
    const bool was_held       = best->hold > 0;
    p.delayed.erase(best);
    write_locked(route_locked(p), Out{std::move(bytes)});
    if (was_held)
      continue;
    for (Delayed& d : p.delayed) // held messages issued before it have been overtaken once more
      if (d.hold > 0 && d.order < order && --d.hold == 0)
        d.release = std::min(d.release, t);
  }
  if (p.delayed.empty())
    return;
  std::uint64_t next = UINT64_MAX;
  for (const Delayed& d : p.delayed)
    next = std::min(next, d.hold == 0 ? d.release : d.deadline);
  p.timer.expires_after(std::chrono::nanoseconds(next > t ? next - t : 0));
  p.timer.async_wait([this, &p](const boost::system::error_code& ec) {
    if (!ec)
      pump(p);
  });
}

// ------------------------------------------------------------------ receiving

void Nic::start_reading(Conn& c)
{
  if (c.in.empty())
    c.in.resize(kInBuffer);
  if (c.in_lo > 0) { // keep the start of an incomplete header
    std::memmove(c.in.data(), c.in.data() + c.in_lo, c.in_hi - c.in_lo);
    c.in_hi -= c.in_lo;
    c.in_lo = 0;
  }
  if (c.in_ring)
    return; // the progress thread polls the ring (poll_ring)
  c.socket.async_read_some(asio::buffer(c.in.data() + c.in_hi, c.in.size() - c.in_hi),
                           [this, &c](const boost::system::error_code& ec, std::size_t n) {
                             if (ec)
                               return; // the peer ended (the launcher reports an early end)
                             reads_.fetch_add(1, std::memory_order_relaxed);
                             c.in_hi += n;
                             process(c);
                           });
}

void Nic::process(Conn& c)
{
  Peer& p = *c.peer;
  while (c.in_hi - c.in_lo >= sizeof(Header)) {
    std::memcpy(&c.header, c.in.data() + c.in_lo, sizeof(Header));
    if (static_cast<int>(c.header.src) != p.pe)
      bad_message(p, "a message claiming to come from PE " + std::to_string(c.header.src));
    const char* data        = c.in.data() + c.in_lo + sizeof(Header);
    const std::size_t avail = c.in_hi - c.in_lo - sizeof(Header);
    c.direct                = false;
    c.payload.clear();
    if (!has_payload(c.header.type)) {
      c.in_lo += sizeof(Header);
      on_message(c);
      continue;
    }
    const std::uint64_t len = c.header.len;
    // A put that may execute now lands in the target memory directly (no payload buffer), and a
    // reply in the initiator's destination (its operation is pending until the reply is counted).
    std::byte* into = c.header.type == MsgType::Put ? at(c.header.seg, c.header.offset, len)
                                                    : reinterpret_cast<std::byte*>(c.header.dest);
    c.direct        = into != nullptr &&
               (c.header.type == MsgType::Reply || !cfg_.limits.total_data_ordering || c.header.seq == p.expected);
    if (!c.direct) {
      copied(len); // cleared
      c.payload.resize(len);
    }
    char* dst              = c.direct ? reinterpret_cast<char*>(into) : c.payload.data();
    const std::size_t here = static_cast<std::size_t>(std::min<std::uint64_t>(avail, len));
    std::memcpy(dst, data, here);
    copied(here);
    c.in_lo += sizeof(Header) + here;
    if (here == len) {
      on_message(c);
      continue;
    }
    // The rest of the payload is still on its way: read it straight into its place.
    flush_acks(p);
    read_rest(c, dst + here, len - here);
    return;
  }
  flush_acks(p);
  start_reading(c);
}

void Nic::read_rest(Conn& c, char* dst, std::size_t left)
{
  if (c.in_ring) { // poll_ring copies it from the ring as it comes
    c.rest_dst  = dst;
    c.rest_left = left;
    return;
  }
  c.socket.async_read_some(asio::buffer(dst, left),
                           [this, &c, dst, left](const boost::system::error_code& ec, std::size_t n) {
                             if (ec)
                               return; // the peer ended (the launcher reports an early end)
                             reads_.fetch_add(1, std::memory_order_relaxed);
                             if (n < left)
                               return read_rest(c, dst + n, left - n);
                             on_message(c);
                             process(c);
                           });
}

void Nic::on_message(Conn& c)
{
  const Header h = c.header;
  Peer& p        = *c.peer;
  if (h.type == MsgType::Ack || h.type == MsgType::Reply)
    deliver(p, h, c.direct ? nullptr : c.payload.data());
  else
    deliver_ordered(p, h, c.direct ? nullptr : &c.payload);
}

void Nic::deliver_ordered(Peer& p, const Header& h, std::vector<char>* payload)
{
  // `payload` null: a put whose data is already in place (on_header).
  const char* data = payload != nullptr ? payload->data() : nullptr;
  if (!cfg_.limits.total_data_ordering) {
    note_delivery(p, h);
    deliver(p, h, data);
    return;
  }
  // Total data ordering: requests execute in the order their initiator issued them.
  if (h.seq != p.expected) {
    restored_.fetch_add(1, std::memory_order_relaxed);
    p.stash.emplace(h.seq, std::make_pair(h, std::move(*payload)));
    return;
  }
  note_delivery(p, h);
  deliver(p, h, data);
  ++p.expected;
  for (auto it = p.stash.find(p.expected); it != p.stash.end(); it = p.stash.find(p.expected)) {
    note_delivery(p, it->second.first);
    deliver(p, it->second.first, it->second.second.data());
    p.stash.erase(it);
    ++p.expected;
  }
}

void Nic::note_delivery(Peer& p, const Header& h)
{
  // Out of order as the simulated NIC counts it: delivered while an earlier-issued request of the
  // pair is not (it overtook that one). Depth: later-issued requests delivered before this one.
  // Counted before the request takes effect: a thread of this PE that sees its effect (a value
  // it waits for) and ends the PE's part reports the count with this delivery in it (counted
  // after, the last delivery of a job -- a barrier's signal -- went missing from summaries).
  deliveries_.fetch_add(1, std::memory_order_relaxed);
  const bool ooo = h.seq != p.delivered_low + 1;
  if (ooo)
    out_of_order_.fetch_add(1, std::memory_order_relaxed);
  SHMEMSIM_OBSERVE(obs_, msg_delivered(now(), pair_message_id(p.pe, cfg_.rank, h.seq), ooo,
                                       static_cast<std::uint64_t>(std::distance(p.delivered_above.upper_bound(h.seq),
                                                                                p.delivered_above.end()))));
  if (ooo) {
    p.delivered_above.insert(h.seq);
    return;
  }
  ++p.delivered_low;
  while (!p.delivered_above.empty() && *p.delivered_above.begin() == p.delivered_low + 1) {
    ++p.delivered_low;
    p.delivered_above.erase(p.delivered_above.begin());
  }
}

void Nic::deliver(Peer& p, const Header& h, const char* payload)
{
  progress_.fetch_add(1, std::memory_order_relaxed);
  switch (h.type) {
    case MsgType::Put: {
      std::byte* d = at(h.seg, h.offset, h.len);
      if (d == nullptr)
        bad_message(p, "a put out of bounds");
      if (payload != nullptr) {
        std::memcpy(d, payload, h.len);
        copied(h.len);
      }
      note_update();
      ack(p, h);
      return;
    }
    case MsgType::Get: {
      const std::byte* s = at(h.seg, h.offset, h.len);
      if (s == nullptr)
        bad_message(p, "a get out of bounds");
      // From the symmetric memory, in place: a large reply is not copied (a get of memory that its
      // PE changes meanwhile is a race of the program, as with a real NIC's DMA).
      respond(p, MsgType::Reply, h, s, h.len, Payload::InPlace);
      return;
    }
    case MsgType::Amo:
    case MsgType::FetchAmo: {
      std::uint64_t result = 0;
      execute_amo(h, &result);
      if ((h.op & kSignalOp) != 0) { // a collective's signal: an add of value[0] into a uint64 word
        const auto* word = reinterpret_cast<const std::uint64_t*>(at(h.seg, h.offset, sizeof(std::uint64_t)));
        timespec ts{};
        clock_gettime(CLOCK_REALTIME, &ts);
        const double now = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9 - cfg_.epoch;
        journal_.remote(word, now, static_cast<int>(h.src), &result, result + h.value[0]);
      }
      if (static_cast<AmoOp>(h.op & ~kSignalOp) != AmoOp::Fetch)
        note_update();
      if (h.type == MsgType::Amo)
        ack(p, h);
      else
        respond(p, MsgType::Reply, h, &result, front::amo_size(static_cast<AmoType>(h.dtype)), Payload::Copy);
      return;
    }
    case MsgType::Reply:
      if (h.len > 0 && payload != nullptr) {
        std::memcpy(reinterpret_cast<void*>(h.dest), payload, h.len);
        copied(h.len);
      }
      SHMEMSIM_OBSERVE(obs_, msg_done(now(), pair_message_id(cfg_.rank, p.pe, h.seq)));
      replies_.fetch_add(1, std::memory_order_relaxed);
      complete(h.cookie, 1);
      return;
    case MsgType::Ack:
      acks_.fetch_add(h.len, std::memory_order_relaxed); // the operations it acknowledges
      // One ACK per request while observed (ack()).
      SHMEMSIM_OBSERVE(obs_, msg_done(now(), pair_message_id(cfg_.rank, p.pe, h.seq)));
      complete(h.cookie, h.len); // one ACK may stand for several operations (ack())
      return;
  }
  bad_message(p, "a message of unknown type " + std::to_string(static_cast<int>(h.type)));
}

namespace {
template <class T> T apply(std::atomic_ref<T> r, AmoOp op, T v, T cond)
{
  switch (op) {
    case AmoOp::Set:
      r.store(v);
      return T{};
    case AmoOp::Fetch:
      return r.load();
    case AmoOp::Add:
      return r.fetch_add(v);
    case AmoOp::Swap:
      return r.exchange(v);
    case AmoOp::CompareSwap: {
      T expected = cond;
      r.compare_exchange_strong(expected, v);
      return expected;
    }
    default:
      break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case AmoOp::And:
        return r.fetch_and(v);
      case AmoOp::Or:
        return r.fetch_or(v);
      case AmoOp::Xor:
        return r.fetch_xor(v);
      default:
        break;
    }
  }
  return T{};
}

template <class T> void run_amo(void* target, AmoOp op, const std::uint64_t* value, void* result)
{
  T v, c;
  std::memcpy(&v, &value[0], sizeof(T));
  std::memcpy(&c, &value[1], sizeof(T));
  const T old = apply<T>(std::atomic_ref<T>(*static_cast<T*>(target)), op, v, c);
  std::memcpy(result, &old, sizeof(T));
}
} // namespace

void execute_amo_at(void* target, AmoOp op, AmoType t, const std::uint64_t* value, void* result)
{
  switch (t) {
    case AmoType::Int32:
      return run_amo<std::int32_t>(target, op, value, result);
    case AmoType::Int64:
      return run_amo<std::int64_t>(target, op, value, result);
    case AmoType::Uint32:
      return run_amo<std::uint32_t>(target, op, value, result);
    case AmoType::Uint64:
      return run_amo<std::uint64_t>(target, op, value, result);
    case AmoType::Float:
      return run_amo<float>(target, op, value, result);
    case AmoType::Double:
      return run_amo<double>(target, op, value, result);
  }
}

void Nic::execute_amo(const Header& h, void* result)
{
  const AmoType t = static_cast<AmoType>(h.dtype);
  std::byte* d    = at(h.seg, h.offset, front::amo_size(t));
  if (d == nullptr || reinterpret_cast<std::uintptr_t>(d) % front::amo_size(t) != 0)
    bad_message(*peers_[h.src], "an atomic operation out of bounds or misaligned");
  execute_amo_at(d, static_cast<AmoOp>(h.op & ~kSignalOp), t, h.value, result);
}

void Nic::respond(Peer& p, MsgType type, const Header& req, const void* payload, std::size_t n, Payload how)
{
  Header r;
  r.type   = type;
  r.src    = static_cast<std::uint32_t>(cfg_.rank);
  r.cookie = req.cookie;
  r.dest   = req.dest;
  r.seq    = req.seq; // the request it answers (traces name it)
  r.len    = type == MsgType::Reply ? n : 0;
  messages_.fetch_add(1, std::memory_order_relaxed);
  payload_bytes_.fetch_add(r.len, std::memory_order_relaxed);
  std::lock_guard lock(p.mutex);
  send_locked(p, r, payload, type == MsgType::Reply ? n : 0, false, how);
}

void Nic::ack(Peer& p, const Header& req)
{
  // Consecutive operations of one initiator's counter, executed in one batch of reads, share one
  // ACK carrying their count. Not when delays are injected: each gets its own, so that the
  // injector's response stream does not depend on how reads were batched; nor when observed: each
  // ACK names its request (seq) for the initiator's msg_done.
  if (p.ack_count > 0 && p.ack_cookie != req.cookie)
    flush_acks(p);
  p.ack_cookie = req.cookie;
  p.ack_seq    = req.seq;
  ++p.ack_count;
  if (delays_.any() || obs_ != nullptr)
    flush_acks(p);
}

void Nic::flush_acks(Peer& p)
{
  if (p.ack_count == 0)
    return;
  Header r;
  r.type      = MsgType::Ack;
  r.src       = static_cast<std::uint32_t>(cfg_.rank);
  r.cookie    = p.ack_cookie;
  r.seq       = p.ack_seq;
  r.len       = p.ack_count;
  p.ack_count = 0;
  messages_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(p.mutex);
  send_locked(p, r, nullptr, 0, false, Payload::Copy);
}

void Nic::complete(std::uint64_t cookie, std::uint64_t count)
{
  const std::uint64_t total =
      reinterpret_cast<std::atomic<std::uint64_t>*>(cookie)->fetch_add(count, std::memory_order_acq_rel) + count;
  SHMEMSIM_OBSERVE(obs_, ct_changed(now(), cfg_.rank, counter_index(cookie), total, 0));
  notify_waiters();
}

void Nic::name_counter(const void* counter, int ct)
{
  std::lock_guard lock(names_mutex_);
  counter_names_[reinterpret_cast<std::uint64_t>(counter)] = ct;
}

int Nic::counter_index(std::uint64_t cookie)
{
  std::lock_guard lock(names_mutex_);
  auto it = counter_names_.find(cookie);
  return it == counter_names_.end() ? -1 : it->second;
}

Ps Nic::now() const
{
  return job_time(cfg_.epoch_ns);
}

void Nic::note_update()
{
  const std::uint64_t total = updates_.fetch_add(1, std::memory_order_acq_rel) + 1;
  SHMEMSIM_OBSERVE(obs_, ct_changed(now(), cfg_.rank, 0, total, 0)); // CT 0: this PE's memory's target counter
  notify_waiters();
}

void Nic::notify_waiters()
{
  if (waiters_.load() == 0)
    return;
  {
    std::lock_guard lock(wait_mutex_);
  }
  wait_cv_.notify_all();
}

void Nic::bad_message(const Peer& p, const std::string& what)
{
  fatal_("received " + what + " from PE " + std::to_string(p.pe) + " (offset or length out of range)");
  std::abort();
}

// ------------------------------------------------------------------ waiting

void Nic::wait_until(bool (*done)(const void*), const void* arg)
{
  flush_batches();
  // Spin (Spin: yielding, while the machine has room), then sleep until woken. The spin yields
  // the core: on a machine with fewer cores than threads the progress threads that bring the
  // answer run meanwhile, and this thread, still runnable, needs no wake-up (an 8-byte put +
  // quiet at 2 PEs on 2 busy cores: about 120 us without the yield, 25-50 us with it). While it
  // spins it drives the shared-memory rings itself (drive_rings): no hand-off between threads.
  Spin spin(kWaitSpinNs);
  while (!done(arg)) {
    drive_rings();
    if (done(arg))
      break;
    if (!spin.yield()) {
      stop_driving_rings();
      if (done(arg))
        return;
      waiters_.fetch_add(1);
      sleeps_.fetch_add(1, std::memory_order_relaxed); // one sleep, however many wakes it takes
      std::unique_lock lock(wait_mutex_);
      while (!done(arg))
        wait_cv_.wait_for(lock, std::chrono::milliseconds(10));
      waiters_.fetch_sub(1);
      return;
    }
  }
  stop_driving_rings();
}

void Nic::wait_update(std::uint64_t seen, std::chrono::microseconds max_wait)
{
  flush_batches();
  // The caller re-checks its condition after each of these waits (1 ms at most) and waits again
  // while nothing came: only a wait for a new count spins long. Re-checks of the same count spin
  // 20 us, so that a PE blocked in wait_until uses little CPU (the launcher's watchdog counts 50 ms
  // of CPU time between heartbeats as progress: a deadlock must stay quiet to be seen).
  thread_local std::uint64_t last_seen = ~std::uint64_t{0};
  const std::uint64_t budget           = seen == last_seen ? kRecheckSpinNs : kWaitSpinNs;
  last_seen                            = seen;
  const auto start                     = std::chrono::steady_clock::now();
  Spin spin(std::min<std::uint64_t>(budget, static_cast<std::uint64_t>(max_wait.count()) * 1000));
  while (true) { // yielding, as wait_until's
    drive_rings();
    if (updates() > seen || !spin.yield())
      break;
  }
  stop_driving_rings();
  if (updates() > seen)
    return;
  waiters_.fetch_add(1);
  sleeps_.fetch_add(1, std::memory_order_relaxed);
  {
    std::unique_lock lock(wait_mutex_);
    wait_cv_.wait_until(lock, start + max_wait, [&] { return updates() > seen; });
  }
  waiters_.fetch_sub(1);
}

NicStats Nic::stats() const
{
  NicStats s;
  s.deliveries    = deliveries_.load();
  s.out_of_order  = out_of_order_.load();
  s.restored      = restored_.load();
  s.held          = held_.load();
  s.messages      = messages_.load();
  s.payload_bytes = payload_bytes_.load();
  s.copied_bytes  = copied_.load();
  s.reads         = reads_.load();
  s.sleeps        = sleeps_.load();
  s.requests      = requests_.load();
  s.acks          = acks_.load();
  s.replies       = replies_.load();
  return s;
}

} // namespace shmemsim::emulator
