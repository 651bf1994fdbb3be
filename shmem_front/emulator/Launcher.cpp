#include "shmem_front/emulator/Launcher.hpp"
#include "shmem_front/emulator/ShmRing.hpp"
#include "shmem_front/lib/SignalText.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <istream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace shmemsim::emulator {

namespace asio = boost::asio;
using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

std::string make_token()
{
  unsigned char bytes[32];
  const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || ::read(fd, bytes, sizeof bytes) != static_cast<ssize_t>(sizeof bytes)) {
    if (fd >= 0)
      ::close(fd);
    throw std::runtime_error(std::string("cannot read /dev/urandom for the job's token: ") + std::strerror(errno));
  }
  ::close(fd);
  static const char* hex = "0123456789abcdef";
  std::string t;
  for (unsigned char b : bytes) {
    t += hex[b >> 4];
    t += hex[b & 15];
  }
  return t;
}

bool is_local_host(const std::string& host)
{
  boost::system::error_code ec;
  asio::io_context io;
  tcp::resolver resolver(io);
  const auto found = resolver.resolve(tcp::v4(), host, "0", ec);
  if (ec)
    return false;
  for (const auto& e : found) {
    if (e.endpoint().address().is_loopback())
      return true;
    tcp::acceptor probe(io);
    probe.open(tcp::v4(), ec);
    if (!ec)
      probe.bind(tcp::endpoint(e.endpoint().address(), 0), ec);
    if (!ec)
      return true; // an address of this machine
  }
  return false;
}

namespace {

struct Session : std::enable_shared_from_this<Session> {
  explicit Session(tcp::socket s) : socket(std::move(s)) {}
  tcp::socket socket;
  asio::streambuf in;
  int rank     = -1;
  bool monitor = false;
  void send(const std::string& line)
  {
    auto text = std::make_shared<std::string>(line + "\n");
    asio::async_write(socket, asio::buffer(*text), [text, self = shared_from_this()](auto, auto) {});
  }
};

struct PeSlot {
  pid_t pid      = -1;
  bool announced = false; ///< sent EXIT
  bool reaped    = false;
  int status     = 0;
  std::string stats;              ///< "key=value ...": from EXIT, then the final figures (STATS, after its NIC stopped)
  bool closed            = false; ///< its boot connection reached its end: every line of it was read
  std::uint64_t progress = 0;
  double cpu             = 0;
  std::string routine    = "-";
  std::string note; ///< what its wait adds to a deadlock report (heartbeats)
  std::shared_ptr<Session> boot;
};

class Job {
public:
  explicit Job(const LaunchSpec& spec)
      : spec_(spec), acceptor_(io_), signals_(io_, SIGCHLD, SIGINT, SIGTERM), wall_(io_), watchdog_(io_)
  {
    pes_.resize(static_cast<std::size_t>(spec.job.npes));
    signals_.add(SIGHUP);
  }

  int run();
  const LaunchReport& outcome() const { return outcome_; }

private:
  void spawn();
  /// The shared-memory segments of the hosts whose PEs are forked here (ShmRing.hpp): one per
  /// such host with two PEs or more, unless emulator.transport is tcp or emulator.paths > 1.
  void make_segments(const std::map<std::string, bool>& local);
  pid_t start_pe(int rank, const std::string& host, bool remote);
  void accept();
  void read(const std::shared_ptr<Session>& s);
  void handle(const std::shared_ptr<Session>& s, const std::string& line);
  void hello(const std::shared_ptr<Session>& s, std::istringstream& words);
  /// Closes a connection without the job's token: a line for each of the first kRefusedShown,
  /// then a count when the job ends (a flood of connections is not a flood of lines).
  void refuse(const std::shared_ptr<Session>& s);
  void on_exit_message(int rank, int status, const std::string& stats);
  void reap();
  void on_reaped(int rank, int wstatus);
  void on_signal(int sig);
  void arm_watchdog();
  /// End the job with `status` after printing `lines`: every PE is killed and reaped.
  void end(int status, const std::vector<std::string>& lines);
  void maybe_done();
  void report();
  void tally();

  LaunchSpec spec_;
  std::string token_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
  asio::steady_timer wall_, watchdog_;
  std::vector<PeSlot> pes_;
  pid_t pgid_ = 0;
  /// A shared segment of PEs of one host: its memfd (closed once they are forked), its PEs.
  struct Segment {
    int fd = -1;
    std::string ranks;
    std::size_t ring = 0;
  };
  std::map<std::string, Segment> segments_; ///< by host
  std::map<std::string, std::string> kv_;
  std::multimap<std::string, std::shared_ptr<Session>> waiting_gets_;
  std::vector<std::shared_ptr<Session>> barrier_;
  bool done_sent_ = false, ending_ = false, failing_ = false, lingering_ = false;
  int result_ = 0;
  Clock::time_point start_, last_progress_;
  std::map<std::string, int> nodes_; ///< host -> node number (traces), in order of first appearance
  static constexpr std::uint64_t kRefusedShown = 3;
  std::uint64_t refused_                       = 0; ///< bootstrap connections refused
  LaunchReport outcome_;
};

int Job::run()
{
  token_          = make_token();
  spec_.job.token = token_;
  acceptor_.open(tcp::v4());
  acceptor_.set_option(tcp::acceptor::reuse_address(true));
  acceptor_.bind(tcp::endpoint(asio::ip::make_address(spec_.job.boot_host), 0));
  acceptor_.listen();
  spec_.job.boot_port = acceptor_.local_endpoint().port();
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  spec_.job.epoch    = static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  spec_.job.epoch_ns = static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
  for (const std::string& h : spec_.pe_hosts)
    nodes_.emplace(h, static_cast<int>(nodes_.size()));
  signals_.async_wait([this](const boost::system::error_code& ec, int sig) {
    if (!ec)
      on_signal(sig);
  });
  start_ = last_progress_ = Clock::now();
  spawn();
  accept();
  if (spec_.wall_limit > 0) {
    wall_.expires_after(std::chrono::milliseconds(static_cast<long long>(spec_.wall_limit * 1000)));
    wall_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec)
        end(4, {"wall-clock time limit reached (--wall-time-limit); a PE may be spinning without calling the library"});
    });
  }
  arm_watchdog();
  io_.run();
  tally();
  if (refused_ > kRefusedShown)
    std::fprintf(stderr,
                 "shmemsim-run: refused %llu bootstrap connections without the job's token in all (%llu shown)\n",
                 static_cast<unsigned long long>(refused_), static_cast<unsigned long long>(kRefusedShown));
  if (!ending_)
    report();
  return result_;
}

namespace {
/// `word` for a POSIX shell, in single quotes.
std::string shell_quoted(const std::string& word)
{
  std::string q = "'";
  for (char c : word)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
} // namespace

pid_t Job::start_pe(int rank, const std::string& host, bool remote)
{
  Config c = spec_.job;
  c.rank   = rank;
  if (!host.empty()) {
    c.listen_host = remote ? "0.0.0.0" : host;
    c.advertise   = host;
    c.node        = nodes_.at(host);
  }
  if (!spec_.trace_dir.empty())
    c.trace_file = pe_trace_file(spec_.trace_dir, rank);
  const auto seg  = remote ? segments_.end() : segments_.find(host);
  const int shmfd = seg != segments_.end() ? seg->second.fd : -1;
  if (shmfd >= 0) {
    c.shm_ranks = seg->second.ranks;
    c.shm_ring  = seg->second.ring;
  }
  std::vector<std::string> words;
  if (remote) {
    // ssh HOST exec shmemsim-emu-pe --config-fd 0 PROGRAM ARGS: the configuration (and its
    // token) goes through ssh's standard input.
    std::string command = "exec " + shell_quoted(spec_.pe_program) + " --config-fd 0 " + shell_quoted(spec_.program);
    for (const auto& a : spec_.args)
      command += " " + shell_quoted(a);
    words = spec_.ssh;
    words.push_back(host);
    words.push_back(command);
  } else {
    words = {spec_.pe_program, "--config-fd", std::to_string(kConfigFd), spec_.program};
    words.insert(words.end(), spec_.args.begin(), spec_.args.end());
  }
  std::vector<char*> argv;
  for (auto& w : words)
    argv.push_back(w.data());
  argv.push_back(nullptr);
  // The configuration (and its token) goes through a pipe: never on a command line nor in the
  // environment (the initial environment stays readable in /proc/PID/environ whatever the
  // process does to its own). Written whole before the fork: no PE that fails to start can leave
  // the launcher writing to a pipe nobody reads.
  const std::string text = c.serialize() + "\n";
  int in[2]              = {-1, -1};
  if (pipe2(in, O_CLOEXEC | O_NONBLOCK) != 0)
    throw std::runtime_error(std::string("cannot start PE ") + std::to_string(rank) +
                             ": pipe: " + std::strerror(errno));
  fcntl(in[0], F_SETFL, 0); // the PE's end blocks as usual; the launcher's never does
  if (fcntl(in[1], F_GETPIPE_SZ) < static_cast<int>(text.size()))
    fcntl(in[1], F_SETPIPE_SZ, static_cast<int>(text.size()));
  const ssize_t wrote = write(in[1], text.data(), text.size());
  close(in[1]);
  if (wrote != static_cast<ssize_t>(text.size())) {
    close(in[0]);
    throw std::runtime_error(std::string("cannot start PE ") + std::to_string(rank) +
                             ": cannot pass its configuration through a pipe: " + std::strerror(errno));
  }
  const pid_t launcher = getpid();
  const pid_t pid      = fork();
  if (pid < 0)
    throw std::runtime_error(std::string("cannot start PE ") + std::to_string(rank) +
                             ": fork: " + std::strerror(errno));
  if (pid == 0) {
    // The PE dies with the launcher, whatever kills it; all PEs share one process group.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != launcher)
      _exit(137);
    setpgid(0, pgid_);
    // The configuration's pipe as standard input of ssh, else as descriptor kConfigFd (dup2
    // clears close-on-exec on the copy).
    const int to = remote ? 0 : kConfigFd;
    if (in[0] == to)
      fcntl(to, F_SETFD, 0);
    else
      dup2(in[0], to);
    if (shmfd >= 0) // above kShmFd (make_segments): the pipe's copy is not in the way
      dup2(shmfd, kShmFd);
    // Nothing of the launcher's (its listening socket above all) leaks into the PEs.
    close_range(remote ? 3 : shmfd >= 0 ? kShmFd + 1 : kConfigFd + 1, ~0U, 0);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "shmemsim-run: cannot start %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  close(in[0]);
  return pid;
}

void Job::spawn()
{
  std::map<std::string, bool> local;
  for (const std::string& h : spec_.pe_hosts)
    if (!local.count(h))
      local[h] = !spec_.ssh_every_host && is_local_host(h);
  make_segments(local);
  for (int rank = 0; rank < spec_.job.npes; ++rank) {
    const std::string host = spec_.pe_hosts.empty() ? "" : spec_.pe_hosts[static_cast<std::size_t>(rank)];
    const pid_t pid        = start_pe(rank, host, !host.empty() && !local[host]);
    if (pgid_ == 0)
      pgid_ = pid;
    setpgid(pid, pgid_);
    pes_[static_cast<std::size_t>(rank)].pid = pid;
  }
  for (auto& [host, seg] : segments_) { // the PEs hold their copies
    close(seg.fd);
    seg.fd = -1;
  }
}

void Job::make_segments(const std::map<std::string, bool>& local)
{
  if (spec_.job.emulator.tcp_only || spec_.job.emulator.paths > 1)
    return;
  std::map<std::string, std::vector<int>> ranks;
  for (int rank = 0; rank < spec_.job.npes; ++rank) {
    const std::string host = spec_.pe_hosts.empty() ? "" : spec_.pe_hosts[static_cast<std::size_t>(rank)];
    if (host.empty() || local.at(host))
      ranks[host].push_back(rank);
  }
  for (const auto& [host, list] : ranks) {
    if (list.size() < 2)
      continue;
    ShmLayout layout;
    layout.pes        = static_cast<int>(list.size());
    layout.ring_bytes = ShmLayout::ring_for(layout.pes);
    // Anonymous (no name in /dev/shm, nothing to remove however the job ends); sparse: only the
    // rings PEs write to get pages. Above kShmFd, so that start_pe's dup2s never overwrite it.
    const int made = memfd_create("shmemsim-emu", MFD_CLOEXEC);
    Segment seg;
    if (made >= 0 && ftruncate(made, static_cast<off_t>(layout.total())) == 0)
      seg.fd = fcntl(made, F_DUPFD_CLOEXEC, kShmFd + 1);
    const int error = errno;
    if (made >= 0)
      close(made);
    if (seg.fd < 0)
      throw std::runtime_error("cannot make the shared-memory segment of the PEs on " +
                               (host.empty() ? spec_.job.boot_host : host) + ": " + std::strerror(error) +
                               " (--set emulator.transport=tcp avoids it)");
    seg.ring = layout.ring_bytes;
    for (int r : list)
      seg.ranks += (seg.ranks.empty() ? "" : ",") + std::to_string(r);
    segments_[host] = seg;
  }
}

void Job::accept()
{
  acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    if (ec)
      return;
    auto s = std::make_shared<Session>(std::move(socket));
    s->socket.set_option(tcp::no_delay(true));
    read(s);
    accept();
  });
}

void Job::read(const std::shared_ptr<Session>& s)
{
  asio::async_read_until(s->socket, s->in, '\n', [this, s](const boost::system::error_code& ec, std::size_t) {
    if (ec) { // closed: a PE that ends is reaped through SIGCHLD
      if (s->rank >= 0 && !s->monitor) {
        pes_[static_cast<std::size_t>(s->rank)].closed = true;
        maybe_done();
      }
      return;
    }
    std::istream is(&s->in);
    std::string line;
    std::getline(is, line);
    handle(s, line);
    if (s->socket.is_open())
      read(s);
  });
}

void Job::refuse(const std::shared_ptr<Session>& s)
{
  boost::system::error_code ec;
  if (++refused_ <= kRefusedShown) {
    const auto peer = s->socket.remote_endpoint(ec);
    std::fprintf(stderr, "shmemsim-run: refused a bootstrap connection from %s without the job's token%s\n",
                 ec ? "an unknown address" : peer.address().to_string().c_str(),
                 refused_ == kRefusedShown ? " (further ones are counted, not shown)" : "");
  }
  s->socket.close(ec);
}

void Job::hello(const std::shared_ptr<Session>& s, std::istringstream& words)
{
  std::string token, kind;
  int rank = -1;
  words >> token >> rank >> kind;
  if (token != token_ || rank < 0 || rank >= spec_.job.npes || (kind != "boot" && kind != "monitor")) {
    refuse(s);
    return;
  }
  s->rank    = rank;
  s->monitor = kind == "monitor";
  if (!s->monitor)
    pes_[static_cast<std::size_t>(rank)].boot = s;
}

void Job::handle(const std::shared_ptr<Session>& s, const std::string& line)
{
  std::istringstream words(line);
  std::string cmd;
  words >> cmd;
  if (s->rank < 0) {
    if (cmd == "HELLO")
      hello(s, words);
    else
      refuse(s);
    return;
  }
  PeSlot& pe = pes_[static_cast<std::size_t>(s->rank)];
  if (cmd == "PUT") {
    std::string k, v;
    words >> k >> v;
    kv_[k] = v;
    for (auto [it, end] = waiting_gets_.equal_range(k); it != end; it = waiting_gets_.erase(it))
      it->second->send("VAL " + v);
  } else if (cmd == "GET") {
    std::string k;
    words >> k;
    if (auto it = kv_.find(k); it != kv_.end())
      s->send("VAL " + it->second);
    else
      waiting_gets_.emplace(k, s);
  } else if (cmd == "BARRIER") {
    barrier_.push_back(s);
    if (static_cast<int>(barrier_.size()) == spec_.job.npes) {
      for (auto& w : barrier_)
        w->send("GO");
      barrier_.clear();
    }
  } else if (cmd == "EXIT") {
    int status = 0;
    words >> status;
    std::string rest;
    std::getline(words, rest);
    on_exit_message(s->rank, status, rest);
  } else if (cmd == "STATS") { // the PE's final figures, once every PE has ended and its NIC stopped
    std::getline(words >> std::ws, pe.stats);
  } else if (cmd == "ABORT") {
    int status = 2;
    words >> status;
    std::string why; // the PE's line, if it left it to the launcher (the first PE's only is printed)
    std::getline(words >> std::ws, why);
    end(status, why.empty() ? std::vector<std::string>{} : std::vector<std::string>{why});
  } else if (cmd == "HB") {
    std::uint64_t progress = 0;
    double cpu             = 0;
    words >> progress >> cpu >> pe.routine;
    std::string note;
    std::getline(words >> std::ws, note);
    // Progress: a library call, a message, or computation (CPU time) since the last heartbeat.
    if (progress != pe.progress || cpu > pe.cpu + 0.05)
      last_progress_ = Clock::now();
    // The note of the PE's wait (EmuTransport::wait_note) holds until the PE progresses: a
    // heartbeat sent between two of its short waits has none.
    if (progress != pe.progress || !note.empty())
      pe.note = note;
    pe.progress = progress;
    pe.cpu      = cpu;
  }
}

void Job::on_exit_message(int rank, int status, const std::string& stats)
{
  PeSlot& pe     = pes_[static_cast<std::size_t>(rank)];
  pe.announced   = true;
  pe.status      = status;
  pe.stats       = stats;
  last_progress_ = Clock::now();
  bool all       = true;
  for (const PeSlot& p : pes_)
    all = all && p.announced;
  if (status != 0 && !all) {
    // The others may be ending too (a program that checks its arguments on every PE, PE 0 saying
    // why): a moment for them to finish, so that no PE's last lines are lost, then the job ends.
    if (!failing_) {
      failing_               = true;
      const std::string line = "PE " + std::to_string(rank) + " exited with status " + std::to_string(status) +
                               " while other PEs were running: the job ends";
      auto t = std::make_shared<asio::steady_timer>(io_, std::chrono::seconds(1));
      t->async_wait([this, t, status, line](const boost::system::error_code&) {
        if (!ending_ && !done_sent_)
          end(status, {line});
      });
    }
    return;
  }
  maybe_done();
}

void Job::maybe_done()
{
  for (const PeSlot& p : pes_)
    if (!p.announced)
      return;
  if (!done_sent_) {
    done_sent_ = true;
    for (const PeSlot& p : pes_) {
      if (p.status != 0 && result_ == 0)
        result_ = p.status; // the first non-zero status, in PE order
      if (p.boot)
        p.boot->send("DONE");
    }
  }
  for (const PeSlot& p : pes_)
    if (!p.reaped)
      return;
  // Their final figures (STATS) are read once each boot connection has ended; a PE's ends with
  // its process (a remote one's soon after its ssh: it loses the launcher's heartbeat).
  for (const PeSlot& p : pes_)
    if (p.boot && !p.closed) {
      if (!lingering_) {
        lingering_ = true;
        auto t     = std::make_shared<asio::steady_timer>(io_, std::chrono::seconds(1));
        t->async_wait([this, t](const boost::system::error_code&) { io_.stop(); });
      }
      return;
    }
  io_.stop();
}

void Job::on_signal(int sig)
{
  if (sig == SIGCHLD) {
    reap();
  } else {
    const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    end(128 + sig, {std::string("interrupted by ") + name + "; the run did not finish"});
  }
  if (!io_.stopped())
    signals_.async_wait([this](const boost::system::error_code& ec, int s) {
      if (!ec)
        on_signal(s);
    });
}

void Job::reap()
{
  int wstatus = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0)
    for (std::size_t r = 0; r < pes_.size(); ++r)
      if (pes_[r].pid == pid)
        on_reaped(static_cast<int>(r), wstatus);
}

void Job::on_reaped(int rank, int wstatus)
{
  PeSlot& pe = pes_[static_cast<std::size_t>(rank)];
  pe.reaped  = true;
  if (ending_) {
    maybe_done();
    return;
  }
  const std::string who = "PE " + std::to_string(rank);
  if (WIFSIGNALED(wstatus)) {
    const int sig = WTERMSIG(wstatus);
    // A crash signal: the PE has said where it crashed (shmemsim-emu-pe's handler).
    const bool said = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
    end(128 + sig, said ? std::vector<std::string>{}
                        : std::vector<std::string>{who + " was killed: " + shmemsim::front::signal_text(sig)});
    return;
  }
  const int status = WEXITSTATUS(wstatus);
  if (!pe.announced) {
    // It ended without saying so: an ABORT may still be on its way (same instant): decide a
    // moment later.
    auto t = std::make_shared<asio::steady_timer>(io_, std::chrono::milliseconds(100));
    t->async_wait([this, t, who, status](const boost::system::error_code&) {
      if (!ending_)
        end(status != 0 ? status : 1, {who + " ended (exit status " + std::to_string(status) +
                                       ") without finishing its part of the job: the job ends"});
    });
    return;
  }
  if (pe.announced && status != pe.status && status != 0 && result_ == 0)
    result_ = status;
  maybe_done();
}

void Job::arm_watchdog()
{
  watchdog_.expires_after(std::chrono::milliseconds(250));
  watchdog_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || ending_)
      return;
    const double idle = std::chrono::duration<double>(Clock::now() - last_progress_).count();
    if (spec_.stall_timeout > 0 && idle > spec_.stall_timeout && !done_sent_) {
      char head[160];
      std::snprintf(head, sizeof head, "deadlock: no PE progressed for %.0f s (emulator.stall_timeout)",
                    spec_.stall_timeout);
      std::vector<std::string> lines = {head};
      for (std::size_t r = 0; r < pes_.size(); ++r)
        lines.push_back("PE " + std::to_string(r) +
                        (pes_[r].announced        ? " has ended (exit status " + std::to_string(pes_[r].status) + ")"
                         : pes_[r].routine == "-" ? " is blocked in the program's own code (no thread in the library)"
                                                  : " waits in " + pes_[r].routine +
                                                        (pes_[r].note.empty() ? std::string() : ". " + pes_[r].note)));
      end(3, lines);
      return;
    }
    arm_watchdog();
  });
}

void Job::end(int status, const std::vector<std::string>& lines)
{
  if (ending_)
    return;
  ending_ = true;
  result_ = status;
  std::fflush(stdout);
  for (const std::string& l : lines)
    std::fprintf(stderr, "shmemsim-run: %s\n", l.c_str());
  std::fflush(stderr);
  if (pgid_ > 0)
    kill(-pgid_, SIGKILL);
  for (PeSlot& p : pes_)
    if (!p.reaped && p.pid > 0) {
      kill(p.pid, SIGKILL);
      while (waitpid(p.pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      p.reaped = true;
    }
  io_.stop();
}

void Job::tally()
{
  LaunchReport& r = outcome_;
  r.epoch_ns      = spec_.job.epoch_ns;
  for (const PeSlot& p : pes_) {
    r.exit_status.push_back(p.announced ? p.status : -1);
    std::istringstream in(p.stats);
    std::string item;
    while (in >> item) {
      const auto eq         = item.find('=');
      const std::string k   = item.substr(0, eq);
      const std::uint64_t v = std::stoull(item.substr(eq + 1));
      if (k == "deliveries")
        r.deliveries += v;
      else if (k == "out_of_order")
        r.out_of_order += v;
      else if (k == "restored")
        r.restored += v;
      else if (k == "held")
        r.held += v;
      else if (k == "requests")
        r.requests += v;
      else if (k == "acks")
        r.acks += v;
      else if (k == "replies")
        r.replies += v;
      else
        r.work[k] += v;
    }
  }
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start_).count();
}

void Job::report()
{
  if (spec_.quiet)
    return;
  const std::uint64_t deliveries = outcome_.deliveries, ooo = outcome_.out_of_order, restored = outcome_.restored,
                      held = outcome_.held;
  const double wall        = outcome_.wall_seconds;
  std::fprintf(
      stderr,
      "shmemsim-run: %d PEs finished (emulated) in %.3f s of wall time, exit status %d; %llu deliveries, %llu out of "
      "order, %llu held back by the injector, %llu restored to order\n",
      spec_.job.npes, wall, result_, static_cast<unsigned long long>(deliveries), static_cast<unsigned long long>(ooo),
      static_cast<unsigned long long>(held), static_cast<unsigned long long>(restored));
}

} // namespace

int launch(const LaunchSpec& spec, LaunchReport* report)
{
  Job job(spec);
  const int status = job.run();
  if (report != nullptr)
    *report = job.outcome();
  return status;
}

std::string pe_trace_file(const std::string& dir, int rank)
{
  return dir + "/.pe-" + std::to_string(rank) + ".evt";
}

} // namespace shmemsim::emulator
