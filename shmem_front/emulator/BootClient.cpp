#include "shmem_front/emulator/BootClient.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include <istream>
#include <stdexcept>

namespace shmemsim::emulator {

namespace asio = boost::asio;
using asio::ip::tcp;

BootClient::BootClient(const std::string& host, int port, const std::string& token, int rank, const char* kind)
    : socket_(io_)
{
  boost::system::error_code ec;
  tcp::resolver resolver(io_);
  const auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (!ec)
    asio::connect(socket_, endpoints, ec);
  if (ec)
    throw std::runtime_error("cannot reach the launcher's bootstrap service at " + host + ":" + std::to_string(port) +
                             ": " + ec.message());
  socket_.set_option(tcp::no_delay(true));
  send_line("HELLO " + token + " " + std::to_string(rank) + " " + kind);
}

void BootClient::send_line(const std::string& line)
{
  std::lock_guard lock(mutex_);
  const std::string text = line + "\n";
  boost::system::error_code ec;
  asio::write(socket_, asio::buffer(text), ec);
  if (ec)
    throw std::runtime_error("lost the launcher's bootstrap service: " + ec.message());
}

std::string BootClient::read_line()
{
  boost::system::error_code ec;
  asio::read_until(socket_, in_, '\n', ec);
  if (ec)
    throw std::runtime_error("lost the launcher's bootstrap service: " + ec.message());
  std::istream is(&in_);
  std::string line;
  std::getline(is, line);
  return line;
}

void BootClient::put(const std::string& key, const std::string& value)
{
  send_line("PUT " + key + " " + value);
}

std::string BootClient::get(const std::string& key)
{
  send_line("GET " + key);
  const std::string line = read_line();
  if (line.rfind("VAL ", 0) != 0)
    throw std::runtime_error("bootstrap: unexpected answer '" + line + "' to GET " + key);
  return line.substr(4);
}

void BootClient::barrier()
{
  send_line("BARRIER");
  const std::string line = read_line();
  if (line != "GO")
    throw std::runtime_error("bootstrap: unexpected answer '" + line + "' to BARRIER");
}

void BootClient::exit_and_wait(int status, const std::string& stats)
{
  send_line("EXIT " + std::to_string(status) + " " + stats);
  const std::string line = read_line();
  if (line != "DONE")
    throw std::runtime_error("bootstrap: unexpected answer '" + line + "' to EXIT");
}

void BootClient::abort(int status, const std::string& line)
{
  std::string one = line;
  for (char& ch : one)
    if (ch == '\n' || ch == '\r')
      ch = ' ';
  send_line("ABORT " + std::to_string(status) + (one.empty() ? "" : " " + one));
}

} // namespace shmemsim::emulator
