// Seed 003's request handles (ORNL extensions, shmemx.h): the calling PE's outstanding requests,
// RMA/AMO ones (nb_request.cpp) and non-blocking collectives (nb_collectives.cpp), and the
// explicit active sets they and the active-set collectives run on (aset.cpp).
#pragma once

#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/PeList.hpp"

#include <shmemx.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

/// An explicit active set as one PE sees it (each member PE has its own object).
struct shmemx_aset {
  std::uint32_t magic = 0x41534554; // "ASET"
  int owner           = -1;         ///< world PE whose object this is
  shmemsim::front::PeList members;  ///< world PE of each index of the set
  int me                   = -1;    ///< the owner's index
  std::uint64_t nb_started = 0;     ///< non-blocking collectives started on it (their sequence numbers)
  int outstanding          = 0;     ///< of those, not yet completed
};

namespace shmemsim::front {

/// One outstanding request of the calling PE.
class Request {
public:
  explicit Request(const char* routine) : routine_(routine) {}
  virtual ~Request()                 = default;
  Request(const Request&)            = delete;
  Request& operator=(const Request&) = delete;
  /// Advance without blocking; true once complete.
  virtual bool test() = 0;
  /// Block until complete (`call` names the routine waiting, for deadlock reports).
  virtual void wait(const char* call) = 0;
  const char* routine() const { return routine_; }

private:
  const char* routine_;
};

/// The calling PE's outstanding requests by number (the handle's value), in issue order. Under
/// SHMEM_THREAD_MULTIPLE the PE's threads use it at once (in the emulator they are real threads):
/// every access takes the table's lock, never across a transport call (in the simulator a PE's
/// threads are coroutines of one OS thread, and a transport call may switch to another), and a
/// request in use stays alive (shared) if another thread releases it meanwhile.
class RequestTable {
public:
  using Item = std::pair<std::uint64_t, std::shared_ptr<Request>>;
  /// Register `r`; returns its number.
  std::uint64_t add(std::shared_ptr<Request> r);
  /// The request numbered `id`, null if there is none (released, or never issued).
  std::shared_ptr<Request> find(std::uint64_t id) const;
  /// Release request `id`; false if it was not in the table.
  bool erase(std::uint64_t id);
  /// The outstanding requests, in issue order.
  std::vector<Item> snapshot() const;
  /// Whether a request numbered `id` was ever issued.
  bool issued(std::uint64_t id) const;

private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::shared_ptr<Request>> live_;
  std::uint64_t next_ = 1;
};
RequestTable& request_table();

/// Register a request of the calling PE and store its handle in `*out`.
void add_request(std::unique_ptr<Request> r, shmemx_request_handle_t* out);

/// shmem_finalize: complete every outstanding request of the calling PE and report those the
/// program never waited for or tested to completion (one line on stderr).
void finalize_requests(const Entry& e);

/// The set behind a handle of the calling PE; misuse (NULL, foreign, deleted) is fatal.
shmemx_aset* check_aset(const Entry& e, shmemx_aset* aset);

/// Advance the calling PE's non-blocking collectives (issue order) without blocking (nb_collectives.cpp).
void progress_collectives();

} // namespace shmemsim::front
