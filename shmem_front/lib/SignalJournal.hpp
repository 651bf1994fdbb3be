// What the last remote write left in each synchronization word of one PE, so that a deadlock report
// can say when the program overwrote a signal that a collective waits for.
//
// The active-set collectives signal on the words of the caller's pSync: atomic adds into the
// receiver's pSync, which the receiver waits for and takes back (coll_team.hpp). If the receiving
// program stores into its pSync after another PE's signal landed there (it re-initialises pSync
// while a faster PE is already in the collective), the signal is lost and the collective waits
// forever. The program's own stores are not observed, but their effect is: the backend records
// every signal as it lands (remote: when, from which PE, what the word held before and after), the
// collectives record their own changes of the word (own). A remote write whose value the word no
// longer held when the next remote write landed, or does not hold now, was replaced by a store of
// the PE's program: nothing else changes a word between the library's own changes.
//
// One journal per PE, kept by the transport (it sees the deliveries); the emulator's NIC thread
// records while the PE's threads read: every member takes the lock.
#pragma once

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>

namespace shmemsim::front {

class SignalJournal {
public:
  /// A remote write into a word that a store of the PE's program replaced.
  struct Overwrite {
    double date        = 0;  ///< when the write landed (the backend's clock, seconds)
    int from           = -1; ///< the PE that wrote
    std::uint64_t left = 0;  ///< what the word held after it
    std::uint64_t by   = 0;  ///< what replaced it
    double seen        = -1; ///< when a later remote write found the replacement (-1: it holds it now)
  };

  /// A write by PE `from` landed in `word` at `date` (seconds): the word held `*before` (null:
  /// unknown, a put) and holds `left` now. If the word held something else than the last recorded
  /// write left there, the program replaced that write meanwhile: kept as the word's loss.
  void remote(const std::uint64_t* word, double date, int from, const std::uint64_t* before, std::uint64_t left)
  {
    std::lock_guard<std::mutex> g(mutex_);
    Entry& e = words_[word];
    if (e.remote && !e.lost && before != nullptr && *before != e.left) {
      e.lost = true;
      e.loss = Overwrite{e.date, e.from, e.left, *before, date};
    }
    e.remote = true;
    e.date   = date;
    e.from   = from;
    e.left   = left;
  }

  /// The library changed `word` itself (took the signals it waited for): what the word holds now
  /// is accounted for, and an earlier loss is history. Only words that ever received a recorded
  /// write are tracked.
  void own(const std::uint64_t* word)
  {
    std::lock_guard<std::mutex> g(mutex_);
    const auto it = words_.find(word);
    if (it != words_.end())
      it->second = Entry{};
  }

  /// Whether a remote write into `word` was replaced by a store of the PE's program: found by a
  /// later remote write, or the word holds something else than the last one left (nothing but
  /// remote writes and the library may change a word a collective uses).
  bool overwritten(const std::uint64_t* word, Overwrite* out) const
  {
    std::lock_guard<std::mutex> g(mutex_);
    const auto it = words_.find(word);
    if (it == words_.end() || !it->second.remote)
      return false;
    const Entry& e = it->second;
    if (e.lost) {
      *out = e.loss;
      return true;
    }
    const std::uint64_t now = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    if (now == e.left)
      return false;
    *out = Overwrite{e.date, e.from, e.left, now, -1};
    return true;
  }

  /// "12.345 us": a date for reports.
  static std::string format_date(double seconds)
  {
    char b[48];
    if (seconds < 1e-3)
      std::snprintf(b, sizeof b, "%.3f us", seconds * 1e6);
    else if (seconds < 1)
      std::snprintf(b, sizeof b, "%.6f ms", seconds * 1e3);
    else
      std::snprintf(b, sizeof b, "%.9f s", seconds);
    return b;
  }

  /// The report's sentence about `o`: `word` names the word ("pSync[19]"), `pe` the PE whose word
  /// it is, `routine` the collective that waits for it.
  static std::string describe(const Overwrite& o, const std::string& word, int pe, const char* routine)
  {
    const std::string p = "PE " + std::to_string(pe);
    std::string s       = p + "'s " + routine + " waits for " + word + " to change; PE " + std::to_string(o.from) +
                    " wrote " + std::to_string(o.left) + " into it at t=" + format_date(o.date) +
                    ", but a later store of " + p + "'s own program overwrote that remote write with " +
                    std::to_string(o.by);
    if (o.seen >= 0)
      s += " (found at t=" + format_date(o.seen) + ")";
    return s + ": pSync was changed while another PE was already using it (initialise pSync on every PE before "
               "any PE calls the collective, e.g. with a barrier in between)";
  }

private:
  struct Entry {
    bool remote        = false; ///< the last recorded write came from another PE (else: the library's)
    double date        = 0;
    int from           = -1;
    std::uint64_t left = 0;
    bool lost          = false; ///< a remote write was replaced (`loss` says which)
    Overwrite loss;
  };
  mutable std::mutex mutex_;
  std::unordered_map<const std::uint64_t*, Entry> words_;
};

} // namespace shmemsim::front
