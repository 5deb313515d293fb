// ak_harness_util.h: what the compiled harnesses (ak_harness.cpp for a bare core,
// ak_mode_harness.cpp for the mode engine) share: the error exit of the line
// protocol, hex parsing in FIPS-197 order, the generator of random gaps/stalls, and
// the file side of their bulk commands (blocks to and from bytes, positioned reads
// and writes, the process CPU clock).
#ifndef AK_HARNESS_UTIL_H_
#define AK_HARNESS_UTIL_H_

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace ak {

// Answer "err <msg>" and exit with status 2 (the Python side raises HarnessError).
[[noreturn]] inline void fail(const std::string& msg) {
  std::printf("err %s\n", msg.c_str());
  std::fflush(stdout);
  std::exit(2);
}

inline int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Parse `nwords` 32-bit words of hex, most significant first, into out[nwords-1..0]
// (so out[nwords-1] holds the first eight hex digits: FIPS-197 byte 0 on top).
inline void parse_hex(const std::string& s, uint32_t* out, int nwords) {
  if (static_cast<int>(s.size()) != nwords * 8) fail("bad hex length: " + s);
  for (int i = 0; i < nwords; ++i) {
    uint32_t v = 0;
    for (int j = 0; j < 8; ++j) {
      int h = hexval(s[i * 8 + j]);
      if (h < 0) fail("bad hex digit: " + s);
      v = (v << 4) | static_cast<uint32_t>(h);
    }
    out[nwords - 1 - i] = v;
  }
}

// xorshift generator: reproducible gaps and stalls from the seed of a run command.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return static_cast<uint32_t>(s >> 11);
  }
  bool pct(int p) { return p > 0 && static_cast<int>(next() % 100) < p; }
};

// Process CPU time in nanoseconds (what a bulk command reports beside wall-clock time).
inline uint64_t cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000000ull + static_cast<uint64_t>(t.tv_nsec);
}

inline int open_file(const char* path, int flags) {
  int fd = ::open(path, flags);
  if (fd < 0) fail(std::string("cannot open ") + path);
  return fd;
}

// Exactly `n` bytes at `off` of `fd` into `buf` (a short file is an error).
inline void read_at(int fd, unsigned char* buf, uint64_t n, uint64_t off) {
  uint64_t got = 0;
  while (got < n) {
    ssize_t r = ::pread(fd, buf + got, n - got, static_cast<off_t>(off + got));
    if (r <= 0) fail("input file shorter than the message");
    got += static_cast<uint64_t>(r);
  }
}

// All `n` bytes of `buf` to `fd` at `off`.
inline void write_at(int fd, const unsigned char* buf, uint64_t n, uint64_t off) {
  uint64_t done = 0;
  while (done < n) {
    ssize_t r = ::pwrite(fd, buf + done, n - done, static_cast<off_t>(off + done));
    if (r <= 0) fail("cannot write the output file");
    done += static_cast<uint64_t>(r);
  }
}

// 16 bytes in FIPS-197 order to four 32-bit words, w[3] = bytes 0..3 (the top of a
// 128-bit port), and back.
inline void bytes_to_words(const unsigned char* p, uint32_t w[4]) {
  for (int j = 0; j < 4; ++j)
    w[3 - j] = (uint32_t(p[4 * j]) << 24) | (uint32_t(p[4 * j + 1]) << 16) |
               (uint32_t(p[4 * j + 2]) << 8) | uint32_t(p[4 * j + 3]);
}

inline void words_to_bytes(const uint32_t w[4], unsigned char* p) {
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k) p[4 * j + k] = static_cast<unsigned char>(w[3 - j] >> (24 - 8 * k));
}

}  // namespace ak

#endif  // AK_HARNESS_UTIL_H_
