// aeskit compiled harness: drives ANY core that speaks the aeskit core contract
// (docs/core-contract.md) from a Verilator model, without waking Python per cycle.
//
// Protocol: text lines on stdin, answers on stdout (one answer per command).
//   reset                          -> "ok"
//   key <len_code> <64 hex>        -> "ok <setup_cycles>"  (cycles from the key handshake
//                                     edge until in_ready_o is high again)
//   run <dec> <n> <gap_pct> <stall_pct> <seed>
//        then n lines of 32 hex    -> n lines of 32 hex (results, in order), then
//                                     "ok <cycles> <lat_first> <lat_min> <lat_max>
//                                          <accept_first> <accept_last>"
//   file <dec> <n> <gap_pct> <stall_pct> <seed> <in_path> <in_off> <out_path> <out_off>
//                                  -> "ok <cycles> <wall_ns> <cpu_ns>": the n 16-byte
//                                     blocks at in_off of in_path through the core, their
//                                     results to out_path at out_off (the bulk ECB path of
//                                     aeskit encrypt/decrypt: Python never sees a block;
//                                     paths without spaces, both files must exist). One
//                                     cycle is two evaluations (inputs with clk_i = 0, then
//                                     the rising edge), against three in run.
//   quit
// Any protocol or contract violation answers "err <message>" and exits with status 2.
// Byte order: hex text is FIPS-197 order (in0 first); in_data_i[127:120] = in0.
// Tags: TagWidth must be >= 8 at build time; the harness numbers blocks mod 256 and
// checks every output tag, so a dropped, duplicated or reordered block is caught.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <array>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "Vcore.h"
#include "verilated.h"
#include "ak_harness_util.h"

namespace {

constexpr uint64_t kHangCycles = 100000;
// blocks a file command reads or writes at a time
constexpr uint64_t kChunkBlocks = 1 << 16;

struct Block {
  uint32_t w[4];  // w[3] = bits 127:96 (bytes 0..3)
};

using ak::fail;
using ak::parse_hex;
using ak::Rng;

class Harness {
 public:
  Harness() : ctx_(new VerilatedContext), top_(new Vcore{ctx_.get()}) {
    idle_inputs();
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
  }
  ~Harness() { top_->final(); }

  void reset() {
    idle_inputs();
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 2; ++i) tick();
    top_->rst_ni = 1;
    top_->eval();
    tick();
  }

  uint64_t load_key(int len_code, const uint32_t key[8]) {
    idle_inputs();
    top_->key_valid_i = 1;
    top_->key_len_i = static_cast<uint8_t>(len_code);
    for (int i = 0; i < 8; ++i) top_->key_i[i] = key[i];
    uint64_t waited = 0;
    for (;;) {
      top_->eval();
      bool fire = top_->key_valid_i && top_->key_ready_o;
      tick();
      if (fire) break;
      if (++waited > kHangCycles) fail("key_ready_o never rose");
    }
    top_->key_valid_i = 0;
    uint64_t setup = 1;
    for (;;) {
      top_->eval();
      if (top_->in_ready_o) break;
      tick();
      if (++setup > kHangCycles) fail("in_ready_o never rose after key load");
    }
    return setup;
  }

  void run(int dec, const std::vector<Block>& in, std::vector<Block>& out, int gap_pct,
           int stall_pct, uint64_t seed) {
    Rng rng(seed);
    const size_t n = in.size();
    out.assign(n, Block{});
    size_t next_in = 0, next_out = 0;
    uint64_t start = cycle_, last_progress = cycle_;
    int64_t lat_first = -1, lat_min = INT64_MAX, lat_max = -1;
    uint64_t acc_first = 0, acc_last = 0;
    std::vector<uint64_t> accepted(n, 0);
    bool seen_valid = false;  // out_valid_o already seen for block next_out
    while (next_out < n) {
      bool offer = next_in < n && !rng.pct(gap_pct);
      top_->in_valid_i = offer ? 1 : 0;
      if (offer) {
        for (int i = 0; i < 4; ++i) top_->in_data_i[i] = in[next_in].w[i];
        top_->in_decrypt_i = static_cast<uint8_t>(dec);
        top_->in_tag_i = static_cast<uint8_t>(next_in & 0xff);
      }
      top_->out_ready_i = rng.pct(stall_pct) ? 0 : 1;
      top_->eval();
      bool fire_in = offer && top_->in_ready_o;
      bool fire_out = top_->out_valid_o && top_->out_ready_i;
      if (top_->out_valid_o && !seen_valid) {
        if (next_out >= next_in) fail("out_valid_o with no block in flight");
        int64_t lat = static_cast<int64_t>(cycle_ - accepted[next_out]);
        if (next_out == 0) lat_first = lat;
        if (lat < lat_min) lat_min = lat;
        if (lat > lat_max) lat_max = lat;
        seen_valid = true;
      }
      if (fire_out) {
        if ((top_->out_tag_o & 0xff) != (next_out & 0xff))
          fail("tag mismatch at output " + std::to_string(next_out) + ": got " +
               std::to_string(top_->out_tag_o & 0xff));
        for (int i = 0; i < 4; ++i) out[next_out].w[i] = top_->out_data_o[i];
        ++next_out;
        seen_valid = false;
        last_progress = cycle_;
      }
      if (fire_in) {
        accepted[next_in] = cycle_;
        if (next_in == 0) acc_first = cycle_;
        acc_last = cycle_;
        ++next_in;
        last_progress = cycle_;
      }
      tick();
      if (cycle_ - last_progress > kHangCycles)
        fail("no progress for " + std::to_string(kHangCycles) + " cycles at block " +
             std::to_string(next_out));
    }
    idle_inputs();
    top_->eval();
    stats_ = {cycle_ - start, static_cast<uint64_t>(lat_first), static_cast<uint64_t>(lat_min),
              static_cast<uint64_t>(lat_max), acc_first - start, acc_last - start};
  }

  // The file command: n blocks from in_fd at in_off, results to out_fd at out_off,
  // read and written kChunkBlocks at a time; tags and order checked as in run.
  void run_file(int dec, uint64_t n, int gap_pct, int stall_pct, uint64_t seed, int in_fd,
                uint64_t in_off, int out_fd, uint64_t out_off) {
    Rng rng(seed);
    std::vector<unsigned char> ibuf, obuf;
    obuf.reserve(16 * kChunkBlocks);
    uint64_t chunk_first = 0, next_in = 0, next_out = 0, written = 0;
    uint64_t start = cycle_, last_progress = cycle_;
    auto t0 = std::chrono::steady_clock::now();
    uint64_t c0 = ak::cpu_ns();
    top_->in_decrypt_i = static_cast<uint8_t>(dec);
    while (next_out < n) {
      bool offer = next_in < n && !rng.pct(gap_pct);
      top_->in_valid_i = offer ? 1 : 0;
      if (offer) {
        if (next_in == chunk_first + ibuf.size() / 16 || ibuf.empty()) {
          chunk_first = next_in;
          uint64_t k = std::min(kChunkBlocks, n - next_in);
          ibuf.resize(16 * k);
          ak::read_at(in_fd, ibuf.data(), 16 * k, in_off + 16 * next_in);
        }
        uint32_t w[4];
        ak::bytes_to_words(&ibuf[16 * (next_in - chunk_first)], w);
        for (int i = 0; i < 4; ++i) top_->in_data_i[i] = w[i];
        top_->in_tag_i = static_cast<uint8_t>(next_in & 0xff);
      }
      top_->out_ready_i = rng.pct(stall_pct) ? 0 : 1;
      top_->clk_i = 0;
      top_->eval();
      bool fire_in = offer && top_->in_ready_o;
      if (top_->out_valid_o && next_out >= next_in) fail("out_valid_o with no block in flight");
      if (top_->out_valid_o && top_->out_ready_i) {
        if ((top_->out_tag_o & 0xff) != (next_out & 0xff))
          fail("tag mismatch at output " + std::to_string(next_out) + ": got " +
               std::to_string(top_->out_tag_o & 0xff));
        uint32_t w[4];
        for (int i = 0; i < 4; ++i) w[i] = top_->out_data_o[i];
        unsigned char b[16];
        ak::words_to_bytes(w, b);
        obuf.insert(obuf.end(), b, b + 16);
        if (obuf.size() == 16 * kChunkBlocks) {
          ak::write_at(out_fd, obuf.data(), obuf.size(), out_off + written);
          written += obuf.size();
          obuf.clear();
        }
        ++next_out;
        last_progress = cycle_;
      }
      if (fire_in) {
        ++next_in;
        last_progress = cycle_;
      }
      top_->clk_i = 1;
      top_->eval();
      ++cycle_;
      if (cycle_ - last_progress > kHangCycles)
        fail("no progress for " + std::to_string(kHangCycles) + " cycles at block " +
             std::to_string(next_out));
    }
    ak::write_at(out_fd, obuf.data(), obuf.size(), out_off + written);
    idle_inputs();
    top_->clk_i = 0;
    top_->eval();
    file_stats_ = {cycle_ - start,
                   static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - t0).count()),
                   ak::cpu_ns() - c0};
  }

  std::array<uint64_t, 6> stats_{};
  std::array<uint64_t, 3> file_stats_{};

 private:
  void idle_inputs() {
    top_->key_valid_i = 0;
    top_->in_valid_i = 0;
    top_->out_ready_i = 1;
  }
  void tick() {
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
    ++cycle_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcore> top_;
  uint64_t cycle_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  Harness h;
  h.reset();
  std::string line;
  std::string out_buf;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    char cmd[16] = {0};
    if (std::sscanf(line.c_str(), "%15s", cmd) != 1) fail("empty command");
    if (!std::strcmp(cmd, "quit")) break;
    if (!std::strcmp(cmd, "reset")) {
      h.reset();
      std::printf("ok\n");
    } else if (!std::strcmp(cmd, "key")) {
      int len_code;
      char hex[80];
      if (std::sscanf(line.c_str(), "key %d %70s", &len_code, hex) != 2) fail("bad key command");
      uint32_t key[8];
      parse_hex(hex, key, 8);
      std::printf("ok %llu\n", static_cast<unsigned long long>(h.load_key(len_code, key)));
    } else if (!std::strcmp(cmd, "run")) {
      int dec, gap, stall;
      unsigned long long n, seed;
      if (std::sscanf(line.c_str(), "run %d %llu %d %d %llu", &dec, &n, &gap, &stall, &seed) != 5)
        fail("bad run command");
      std::vector<Block> in(n), out;
      for (unsigned long long i = 0; i < n; ++i) {
        if (!std::getline(std::cin, line)) fail("missing block line");
        parse_hex(line, in[i].w, 4);
      }
      h.run(dec, in, out, gap, stall, seed);
      out_buf.clear();
      out_buf.reserve(n * 33 + 128);
      char tmp[40];
      for (const Block& b : out) {
        std::snprintf(tmp, sizeof tmp, "%08x%08x%08x%08x\n", b.w[3], b.w[2], b.w[1], b.w[0]);
        out_buf += tmp;
      }
      std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
      std::printf("ok %llu %llu %llu %llu %llu %llu\n",
                  static_cast<unsigned long long>(h.stats_[0]),
                  static_cast<unsigned long long>(h.stats_[1]),
                  static_cast<unsigned long long>(h.stats_[2]),
                  static_cast<unsigned long long>(h.stats_[3]),
                  static_cast<unsigned long long>(h.stats_[4]),
                  static_cast<unsigned long long>(h.stats_[5]));
    } else if (!std::strcmp(cmd, "file")) {
      int dec, gap, stall;
      unsigned long long n, seed, in_off, out_off;
      char in_path[4096], out_path[4096];
      if (std::sscanf(line.c_str(), "file %d %llu %d %d %llu %4095s %llu %4095s %llu", &dec, &n,
                      &gap, &stall, &seed, in_path, &in_off, out_path, &out_off) != 9)
        fail("bad file command");
      int in_fd = ak::open_file(in_path, O_RDONLY);
      int out_fd = ak::open_file(out_path, O_WRONLY);
      h.run_file(dec, n, gap, stall, seed, in_fd, in_off, out_fd, out_off);
      ::close(in_fd);
      ::close(out_fd);
      std::printf("ok %llu %llu %llu\n", static_cast<unsigned long long>(h.file_stats_[0]),
                  static_cast<unsigned long long>(h.file_stats_[1]),
                  static_cast<unsigned long long>(h.file_stats_[2]));
    } else {
      fail(std::string("unknown command ") + cmd);
    }
    std::fflush(stdout);
  }
  (void)argc;
  (void)argv;
  return 0;
}
