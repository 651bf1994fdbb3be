// Quantities as text with units: times, bandwidths, sizes and speeds ("1.3us", "32Gbps", "4KiB",
// "13.32Gf"), as scenarios and command lines write them. Times, bandwidths and sizes are parsed
// exactly (decimal arithmetic on integers), so "1.3us" is 1'300'000 ps on every machine. The
// scenario layer reads its keys with them; the emulator reads emulator.bandwidth with them.
#pragma once

#include "base/Time.hpp"

#include <cstdint>
#include <string>

namespace shmemsim {

// Each parser throws std::invalid_argument with a short reason naming the text.
Ps parse_time(const std::string& s);                 ///< "1.3us", "100ns", "2ms", "0.5s", "500ps"
std::uint64_t parse_bandwidth(const std::string& s); ///< bit/s from "40Gbps", "32Gb/s", "3.2GBps", "25.6Gbit/s"
std::uint64_t parse_size(const std::string& s);      ///< bytes from "4KiB", "2048B", "1MB", "1MiB"
double parse_speed(const std::string& s);            ///< flop/s from "13.32Gf", "1e9f"
/// bytes from SHMEM_SYMMETRIC_SIZE's forms (the OpenSHMEM specification's: "512m", "1G", "3.1m",
/// "1024"; at least the ceiling of number x 2^10/2^20/2^30/2^40), or parse_size's ("64MiB").
std::uint64_t parse_symmetric_size(const std::string& s);

// The shortest exact text of a value, in the largest unit that keeps it exact ("1.3us", "32Gbps",
// "4KiB", "13.32Gf"); each parses back to the same value.
std::string format_time(Ps t);
std::string format_bandwidth(std::uint64_t bps);
std::string format_size(std::uint64_t bytes);
std::string format_speed(double flops);

// What each unit kind accepts, for messages ("use a number with ps, ns, ...").
const char* time_forms();
const char* bandwidth_forms();
const char* size_forms();
const char* symmetric_size_forms();
const char* speed_forms();

} // namespace shmemsim
