// The software NIC of one emulated PE (docs/emulator.md): TCP connections to every other PE (one,
// or emulator.paths of them used as paths, picked per message as platform.fabric.routing says), and
// a progress thread (Boost.Asio) that executes the active messages arriving for this PE's
// symmetric memory -- PUT then ACK, GET then REPLY, AMOs atomically (std::atomic_ref) then ACK or
// REPLY -- so that targets progress without calling the library. Initiators count ACKs and
// REPLYs on counters of their own (the contexts' CTs); this PE's memory updates are counted for
// wait_until. Delay and reordering are injected above TCP (Injector), and with total data
// ordering the receiver restores each pair's order.
#pragma once

#include "base/PortalsObserver.hpp"
#include "shmem_front/emulator/Config.hpp"
#include "shmem_front/emulator/Injector.hpp"
#include "shmem_front/emulator/ShmRing.hpp"
#include "shmem_front/emulator/Wire.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/lib/SignalJournal.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <sys/uio.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace shmemsim::emulator {

class BootClient;

/// Execute one AMO on `target` atomically (std::atomic_ref); the previous value goes to `result`.
void execute_amo_at(void* target, front::AmoOp op, front::AmoType t, const std::uint64_t* value, void* result);

/// A PE's symmetric memory: segment 0 the program's writable data, segment 1 the heap.
struct Segments {
  std::byte* base[2]  = {nullptr, nullptr};
  std::size_t size[2] = {0, 0};
};

/// Figures for the launcher's report.
struct NicStats {
  std::uint64_t deliveries   = 0; ///< requests executed at this PE
  std::uint64_t out_of_order = 0; ///< of those, delivered after a later one of the same pair
  std::uint64_t restored     = 0; ///< held by the receiver to restore a pair's order (total ordering)
  std::uint64_t held         = 0; ///< requests the injector held back for others to overtake
  std::uint64_t requests     = 0; ///< requests this PE issued (puts, gets, AMOs)
  std::uint64_t acks         = 0; ///< of those, acknowledged by an ACK (one ACK may stand for several)
  std::uint64_t replies      = 0; ///< of those, answered by a REPLY (gets, fetching AMOs)
  // The work it took (summary.json's emulator.work; tests bound them, not times):
  std::uint64_t messages      = 0; ///< messages sent: requests, ACKs and REPLYs
  std::uint64_t payload_bytes = 0; ///< payload sent (puts and replies)
  std::uint64_t copied_bytes  = 0; ///< payload bytes copied or cleared in this process's memory (not by the kernel)
  std::uint64_t reads         = 0; ///< receive system calls on the connections
  std::uint64_t sleeps = 0; ///< times a thread blocked: the progress thread in epoll, a wait on the condition variable
};

class Nic {
public:
  Nic(const Config& cfg, Segments mem, std::function<void(const std::string&)> fatal);
  ~Nic();
  Nic(const Nic&)            = delete;
  Nic& operator=(const Nic&) = delete;

  /// Listen, exchange addresses through the bootstrap service, connect to every peer (each
  /// presenting the job's token), start the progress thread.
  void connect(BootClient& boot);
  /// Stop the progress thread (every PE has finished: no message can come).
  void stop();

  /// How a message's payload is sent when the socket cannot take it all at once.
  enum class Payload {
    Copy,    ///< the rest is copied (the caller may reuse its buffer on return)
    InPlace, ///< the rest is sent from where it is: it stays unchanged until the message completes
  };
  /// Send a request to `pe` (its seq is assigned here), with `n` payload bytes from `payload`;
  /// `op`: the operation it belongs to (its id from the observer's op_issued; 0: none). `may_batch`: nothing waits
  /// for it at once (a put or a non-fetching AMO): when it follows another request to `pe`
  /// closely it is copied into that peer's batch, which goes out in one write (flush_batches(),
  /// or the progress thread, rung once per batch).
  void send_request(int pe, Header& h, const void* payload, std::size_t n, std::uint64_t op = 0, bool may_batch = false,
                    Payload how = Payload::Copy);
  /// Send every peer's batch now (before this thread waits).
  void flush_batches();

  /// Report messages, deliveries, completions and counters to `obs` (before connect(); null:
  /// nobody), as the simulated NIC and Portals model do. Messages are named by pair
  /// (pair_message_id: the initiator, the target, the pair's request sequence), so that both
  /// ends name them alike: `obs` must name the messages this PE issues so (traces::PartRecorder
  /// does). With an observer every request gets an ACK of its own, naming it (no shared ACKs).
  void set_observer(PortalsObserver* obs) { obs_ = obs; }
  /// The number counter `counter` (a completion counter whose address requests carry as their
  /// cookie) has in the observer's CT events.
  void name_counter(const void* counter, int ct);

  /// The calling PE's symmetric address as (segment, offset); false if [a, a+n) is not symmetric.
  bool translate(const void* a, std::size_t n, std::uint8_t* seg, std::uint64_t* off) const;
  /// This PE's address of (segment, offset), null if [offset, offset+n) is out of the segment.
  std::byte* at(std::uint8_t seg, std::uint64_t off, std::uint64_t n) const;
  const Segments& segments() const { return mem_; }

  /// Updates of this PE's memory by others (and by its own operations on itself).
  std::uint64_t updates() const { return updates_.load(std::memory_order_acquire); }
  void note_update();
  /// Block until `done()` holds. It is evaluated again after every completion and update counted
  /// here (and at least every 10 ms), so it may compare several counters, in the order it needs
  /// (EmuTransport::wait: a CT, then the issued count). It may only read atomics.
  template <class Done> void wait_until(const Done& done)
  {
    wait_until(
        +[](const void* d) { return (*static_cast<const Done*>(d))(); }, &done);
  }
  void wait_until(bool (*done)(const void*), const void* arg);
  /// Block until updates() exceeds `seen`, or at most `max_wait` (stores by this PE's own threads
  /// are not counted: the caller re-checks its condition either way).
  void wait_update(std::uint64_t seen, std::chrono::microseconds max_wait);

  /// What the collectives' signals left in this PE's synchronization words (recorded as they execute).
  front::SignalJournal& signal_journal() { return journal_; }

  /// Messages delivered and operations completed here (for the launcher's stall detection).
  std::uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }
  NicStats stats() const;
  /// Run `fn` every `period` on the progress thread (heartbeats).
  void every(std::chrono::milliseconds period, std::function<void()> fn);

private:
  struct Peer;
  struct Conn;
  /// A message (or the rest of one) queued on a connection: `bytes` (copied), then
  /// `in_place_len` bytes sent from `in_place` (Payload::InPlace).
  struct Out {
    std::vector<char> bytes;
    const char* in_place     = nullptr;
    std::size_t in_place_len = 0;
    std::size_t pushed       = 0; ///< bytes already in a shared-memory ring (ring_flush)
  };

  void progress_loop();
  // The shared-memory path (ShmRing.hpp): peers of this host sharing the launcher's segment.
  /// Map the segment (kShmFd) and give the peers in it their rings.
  void map_shared_segment();
  /// Handle what the rings brought and push what waits for room; returns whether anything moved.
  bool poll_rings();
  /// poll_rings() if no other thread does (the receive side's lock): true if something moved or
  /// another thread polls.
  bool try_poll_rings();
  /// A thread that waits in the library polls the rings while it spins (the NIC's code, under the
  /// receive side's lock: no hand-off to the progress thread), then hands them back.
  void drive_rings();
  void stop_driving_rings();
  bool poll_ring(Conn& c);
  /// Push the connection's queue into its ring while there is room (the progress thread).
  bool ring_flush(Conn& c);
  /// Copy `count` buffers into the connection's ring; returns the bytes it took.
  std::size_t ring_push(Conn& c, const iovec* iov, int count);
  /// Ring the peer's doorbell (a byte on the pair's TCP connection) if its progress thread sleeps.
  void wake_peer(Conn& c);
  /// Tell the producer of `c`'s incoming ring that there is room, if it waits for some.
  void wake_producer(Conn& c);
  /// Keep reading the doorbell bytes of a pair that talks through a ring (and its end).
  void read_doorbells(Conn& c);
  void accept_peers(int count);
  void refuse(boost::asio::ip::tcp::socket& s);
  void refuse_later();
  void start_reading(Conn& c);
  void process(Conn& c);
  /// Read the rest of the current message's payload, `left` bytes, straight into `dst`.
  void read_rest(Conn& c, char* dst, std::size_t left);
  void on_message(Conn& c);
  void deliver_ordered(Peer& p, const Header& h, std::vector<char>* payload);
  void deliver(Peer& p, const Header& h, const char* payload);
  void execute_amo(const Header& h, void* result);
  void respond(Peer& p, MsgType type, const Header& req, const void* payload, std::size_t n, Payload how);
  void ack(Peer& p, const Header& req);
  /// Counts a request's delivery (out of order if a later request of the pair came first) and
  /// reports it.
  void note_delivery(Peer& p, const Header& h);
  void flush_acks(Peer& p);
  void complete(std::uint64_t cookie, std::uint64_t count);
  /// The observer's number of the counter `cookie` names (name_counter; -1: not named).
  int counter_index(std::uint64_t cookie);
  /// The date of an event now (real picoseconds from the job's epoch).
  Ps now() const;
  /// Enqueue one message for `p`, header then payload (the peer's lock held).
  void send_locked(Peer& p, const Header& h, const void* payload, std::size_t n, bool request, Payload how);
  /// The connection (path) the peer's next message takes, as platform.fabric.routing says.
  Conn& route_locked(Peer& p);
  void write_locked(Conn& c, Out&& out);
  bool try_direct_locked(Conn& c, const Header& h, const void* payload, std::size_t n, Payload how);
  /// Send `count` buffers in one sendmsg if nothing is queued on the connection (the rest
  /// queued: copied, but the last buffer's sent from where it is with Payload::InPlace); false if
  /// it is busy or failed: nothing was sent.
  bool send_parts_locked(Conn& c, const iovec* iov, int count, Payload how = Payload::Copy);
  /// Append a request to the peer's batch (the peer's lock held); false if it must go at once.
  bool batch_locked(Peer& p, const Header& h, const void* payload, std::size_t n);
  /// Send the peer's batch, on `via` (null: the path routing picks).
  void flush_batch_locked(Peer& p, Conn* via);
  void start_write(Conn& c);
  void pump(Peer& p);
  void notify_waiters();
  [[noreturn]] void bad_message(const Peer& p, const std::string& what);

  Config cfg_;
  InjectedDelays delays_; ///< cfg_.emulator's, in nanoseconds
  Segments mem_;
  std::function<void(const std::string&)> fatal_;
  boost::asio::io_context io_;
  std::unique_ptr<boost::asio::ip::tcp::acceptor> acceptor_;
  std::vector<std::unique_ptr<Peer>> peers_; ///< indexed by PE (null: this PE)
  std::byte* shm_          = nullptr;        ///< the host's shared segment (null: none)
  std::size_t shm_bytes_   = 0;
  std::uint32_t* sleeping_ = nullptr;        ///< this PE's control word in it: its progress thread sleeps
  std::vector<Conn*> ring_conns_;            ///< the connections that talk through rings
  std::atomic<bool> progress_asleep_{false}; ///< the progress thread blocks (or is about to) in epoll
  std::mutex rx_mutex_; ///< the rings' receive side (poll_rings): the progress thread or a waiting thread
  /// Pushes into this PE's out-rings, counted with release; whichever thread handles what a ring
  /// brought loads it with acquire first. A reply is caused by a request this PE pushed, through
  /// the peer process's ring atomics, which order the two already; this edge inside the process
  /// makes that order visible to ThreadSanitizer, which cannot see the other process (without it,
  /// a reply landing in a caller's buffer races, to TSan, with the caller's writes before issue).
  std::atomic<std::uint64_t> pushed_{0};
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  std::atomic<std::uint64_t> updates_{0};
  std::atomic<std::uint64_t> progress_{0};
  std::atomic<int> waiters_{0};
  std::mutex wait_mutex_;
  std::condition_variable wait_cv_;

  std::atomic<std::uint64_t> deliveries_{0}, out_of_order_{0}, restored_{0}, held_{0};
  std::atomic<std::uint64_t> messages_{0}, payload_bytes_{0}, copied_{0}, reads_{0}, sleeps_{0};
  std::atomic<std::uint64_t> refused_{0};                         ///< data connections refused (refuse())
  std::atomic<std::uint64_t> requests_{0}, acks_{0}, replies_{0}; ///< NicStats
  void copied(std::size_t n) { copied_.fetch_add(n, std::memory_order_relaxed); }
  std::atomic<int> batched_peers_{0}; ///< peers whose batch is not empty
  std::vector<std::unique_ptr<boost::asio::steady_timer>> tickers_;
  PortalsObserver* obs_ = nullptr;
  std::mutex names_mutex_;
  std::map<std::uint64_t, int> counter_names_; ///< cookie -> CT number (name_counter)
  front::SignalJournal journal_;
};

} // namespace shmemsim::emulator
