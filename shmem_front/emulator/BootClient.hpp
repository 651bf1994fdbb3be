// A PE's side of the launcher's bootstrap service (docs/emulator.md): key-value exchange, barrier,
// exit and abort over one TCP connection, in the shape of Sandia OpenSHMEM's runtime interface.
// Lines of text; the first presents the job's token. Called by one thread at a time.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/streambuf.hpp>

#include <mutex>
#include <string>

namespace shmemsim::emulator {

class BootClient {
public:
  /// Connect to host:port and present `token` (64 hex digits) for PE `rank`; `kind` is "boot" or
  /// "monitor". Throws std::runtime_error naming what failed.
  BootClient(const std::string& host, int port, const std::string& token, int rank, const char* kind);

  void put(const std::string& key, const std::string& value);
  /// Blocks until some PE has put `key`.
  std::string get(const std::string& key);
  void barrier();
  /// This PE's main ended with `status`; `stats` is "key=value ..." for the launcher's report.
  /// Returns when every PE has ended (the launcher says DONE).
  void exit_and_wait(int status, const std::string& stats);
  /// Ends the job with `status` (the launcher stops every PE; does not wait); the launcher prints `line` ("PE k: what") unless empty (the PE
  /// printed its own) or another PE's came first.
  void abort(int status, const std::string& line = "");
  /// One line, no reply (monitor connections: heartbeats).
  void send_line(const std::string& line);

private:
  std::string read_line();

  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
  boost::asio::streambuf in_;
  std::mutex mutex_;
};

} // namespace shmemsim::emulator
