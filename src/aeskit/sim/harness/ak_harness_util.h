// ak_harness_util.h: what the compiled harnesses (ak_harness.cpp for a bare core,
// ak_mode_harness.cpp for the mode engine) share: the error exit of the line
// protocol, hex parsing in FIPS-197 order, and the generator of random gaps/stalls.
#ifndef AK_HARNESS_UTIL_H_
#define AK_HARNESS_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

}  // namespace ak

#endif  // AK_HARNESS_UTIL_H_
