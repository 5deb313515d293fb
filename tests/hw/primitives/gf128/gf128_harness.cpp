// gf128_harness.cpp: compiled Verilator bench of ak_gf128_mul (tests/hw/primitives/gf128).
//
// stdin : "seed steps" then one line per product "a b gap" (a, b: 32 hex digits, GCM
//         port values; gap: idle cycles between the cycle ready_o allows the start and
//         the start itself, 0 = back-to-back with the previous done_o).
// stdout: one line per product "z latency" (z: z_o in the cycle of done_o; latency:
//         cycles from the start cycle to the done_o cycle), then "ok <cycles>";
//         "err <message>" and exit 2 on a broken handshake.
//
// Checked every cycle: done_o only for a product in flight; ready_o low from the start
// until done_o when steps > 1 (high always when steps == 1); z_o unchanged from done_o
// until the edge of the next start; no done_o later than steps + 4 cycles. While a
// product runs, start_i is driven at random with random a_i/b_i (must be ignored), and
// a_i/b_i carry random values in every cycle without a start.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "Vgf128.h"
#include "ak_harness_util.h"
#include "verilated.h"

namespace {

struct Stim {
  uint32_t a[4], b[4];
  int gap;
};

void set128(VlWide<4>& port, const uint32_t* w) {
  for (int i = 0; i < 4; ++i) port[i] = w[i];
}

void rnd128(VlWide<4>& port, ak::Rng& r) {
  for (int i = 0; i < 4; ++i) port[i] = r.next() ^ (r.next() << 21);
}

bool same128(const VlWide<4>& x, const VlWide<4>& y) {
  for (int i = 0; i < 4; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

std::string hex128(const VlWide<4>& port) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08x%08x%08x%08x", port[3], port[2], port[1], port[0]);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  uint64_t seed = 1;
  int steps = 0;
  if (!(std::cin >> seed >> steps)) ak::fail("expected 'seed steps'");
  std::vector<Stim> stim;
  std::string a, b;
  int gap;
  while (std::cin >> a >> b >> gap) {
    Stim s;
    ak::parse_hex(a, s.a, 4);
    ak::parse_hex(b, s.b, 4);
    s.gap = gap;
    stim.push_back(s);
  }
  ak::Rng rng(seed);
  Vgf128 top;
  top.clk_i = 0;
  top.rst_ni = 0;
  top.start_i = 0;
  top.eval();
  top.clk_i = 1;
  top.eval();
  top.clk_i = 0;
  top.eval();
  if (top.done_o || !top.ready_o) ak::fail("after reset: done_o high or ready_o low");
  top.rst_ni = 1;

  const size_t n = stim.size();
  size_t next = 0;
  long pending = -1;
  uint64_t start_cycle = 0, cycle = 0;
  int wait_gap = n ? stim[0].gap : 0;
  bool held = false;
  VlWide<4> held_z;
  std::string out;
  out.reserve(n * 40);
  while (next < n || pending >= 0) {
    // this cycle's inputs
    bool start = false;
    if (pending < 0 && next < n && wait_gap == 0) {
      start = true;
    }
    // outputs are registers (settled by the last eval): read them before deciding
    top.start_i = 0;
    const bool done = top.done_o;
    const bool ready = top.ready_o;
    if (done) {
      if (pending < 0) ak::fail("done_o with no product in flight, cycle " + std::to_string(cycle));
      char buf[64];
      std::snprintf(buf, sizeof buf, " %llu\n",
                    static_cast<unsigned long long>(cycle - start_cycle));
      out += hex128(top.z_o);
      out += buf;
      held = true;
      held_z = top.z_o;
      pending = -1;
      if (next < n && wait_gap == 0) start = true;
    } else if (pending >= 0) {
      if (ready && steps > 1) ak::fail("ready_o high while a product runs, cycle " +
                                       std::to_string(cycle));
      if (cycle - start_cycle > static_cast<uint64_t>(steps) + 4) ak::fail("no done_o");
    } else if (held && !same128(top.z_o, held_z)) {
      ak::fail("z_o changed after done_o without a start, cycle " + std::to_string(cycle) +
               ": " + hex128(held_z) + " -> " + hex128(top.z_o));
    }
    if (!ready && start) ak::fail("ready_o low when a start is due, cycle " + std::to_string(cycle));
    if (start) {
      top.start_i = 1;
      set128(top.a_i, stim[next].a);
      set128(top.b_i, stim[next].b);
      pending = static_cast<long>(next);
      start_cycle = cycle;
      ++next;
      wait_gap = next < n ? stim[next].gap : 0;
    } else {
      if (pending < 0 && next < n && wait_gap > 0) --wait_gap;
      // a start while busy must be ignored; without one, a_i/b_i are don't-care
      top.start_i = (pending >= 0 && !ready) ? (rng.next() & 1) : 0;
      rnd128(top.a_i, rng);
      rnd128(top.b_i, rng);
    }
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
    ++cycle;
    if (out.size() > (1u << 20)) {
      std::fputs(out.c_str(), stdout);
      out.clear();
    }
  }
  std::fputs(out.c_str(), stdout);
  std::printf("ok %llu\n", static_cast<unsigned long long>(cycle));
  return 0;
}
