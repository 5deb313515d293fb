// coproc_drv.cpp: the aeskit C driver (sw/aeskit_coproc.c) against the co-processor
// RTL. One executable links the driver, the Verilated ak_coproc_sys (ak_coproc + one
// registry core, rendered by aeskit.hw.systems.coproc) and a main-memory model behind its
// AXI4 master (ak_axi_mem.h: latency, seeded random back-pressure on every channel,
// error regions). The driver's port is implemented here: aeskit_port_read32/write32
// drive the AXI4-Lite port cycle by cycle (with seeded random valid delays and
// ready stalls), aeskit_port_wait_irq steps the clock until irq_o is high.
//
// Built with -DAK_NODEV (host compiler only, no RTL): the same job protocol on the
// software fallback; the register port reads 0, so aeskit_init finds no device.
//
// Protocol: one command per stdin line, one answer line ("err <msg>" ends the process).
//   job <key=value ...>  -> "res status=<NAME> code=<n> out=<hex> tag=<hex> cycles=<n>
//                            total=<n> irqs=<n> irqhigh=<n> maxrd=<n> hw=<0|1>
//                            start2=<NAME or -> initw=<n>"
//     mode=ecb|cbc|ctr|cfb|ofb|ccm|gcm|cmac|xts  dir=enc|dec (CMAC: generate|verify)
//     wait=poll|irq  key=<hex 16/24/32 B; XTS: K1 || K2, 32/48/64 B, aeskit_set_xts_key>
//     iv=<hex> (16 B; CCM: the nonce; GCM: the IV -- not 12 bytes: put in memory at
//     ivaddr=<hex address>, default in the window, and read from there; XTS: the tweak)
//     data=<hex>
//     aad=<hex>  tag=<hex> (CCM/GCM dec, CMAC verify: the received tag, put after the
//     data)  taglen=<n>
//     api=1 (the job through the mode's own call -- aeskit_gcm_encrypt, aeskit_gmac
//     (GCM encryption without data), aeskit_cmac_generate, aeskit_xts, ... -- instead of
//     aeskit_start/aeskit_wait)
//     src=/dst=/aadaddr=<hex address> (default: in the memory window), len=<n> (the
//     job's LEN; default the data length: longer is allowed and reads what is there)
//     lat=<cycles> stall=<pct> seed=<n> (memory and AXI4-Lite back-pressure)
//     err=<r|w|rw>:<2|3>:<lo hex>:<hi hex> (an error region; repeatable)
//     fill=<byte hex> (the destination window before the job; default ee)
//     busy=1 (a second aeskit_start before the wait: the driver refuses it, BUSY in
//     start2=, and the job runs on) extstart=1 (RTL: "another bus master" writes
//     CTRL.START through the register port while the job runs: the co-processor
//     rejects it and the job ends with ERR_CODE BUSY)
//     soft=1 (the software fallback of the driver on the same memory)
//     nokey=1 (no key set before the job) clear=1 (aeskit_clear after the job)
//     waitonly=1 (aeskit_wait without aeskit_start: the driver answers NO_JOB)
//     fakeid=<hex> fakever=<hex> (RTL: while aeskit_init runs, the port answers reads
//     of ID / VERSION with this value instead of the co-processor's: "another device";
//     the driver must then select its software fallback)
//     split=<aad>.<len>,<aad>.<len>,... (gcm, cmac: the message in parts through
//     aeskit_gcm_init/update/final or aeskit_cmac_init/update/final: one update per
//     pair -- its AAD and payload bytes, taken in order from the job's AAD and data,
//     each part's buffers at the running offsets of src, dst, aadaddr -- then final
//     with the rest; the answer adds partst=<status of each update, comma-separated>
//     and ctxs=<the context after each update and after final, hex, comma-separated>)
//   out: the destination bytes (len, or len + taglen for CCM/GCM encryption: split
//   into out and tag; CMAC generation: the tag alone, in tag) read back after the job; cycles: the co-processor's CYCLES register;
//   total: clock cycles the driver spent from start to the end of wait; irqs: calls of
//   the interrupt hook; irqhigh: cycles irq_o was high during a poll job; maxrd: most
//   AXI4 read bursts the memory held at once during the job; initw: register writes
//   of aeskit_init (the device detection itself writes none); partst, ctxs: "-" without
//   split=.
//   quit
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ak_axi_mem.h"
#include "ak_harness_util.h"

extern "C" {
#include "aeskit_coproc.h"
#include "aeskit_port.h"
#include "ak_coproc_regs.h"
}

#ifndef AK_NODEV
#include "Vcoproc.h"
#include "verilated.h"
#endif

namespace {

constexpr uint32_t kMemBase = 0x80000000u;
constexpr uint32_t kMemSize = 1u << 20;
constexpr uint32_t kRegBase = 0x40000000u;  // CPU address of the registers (any)
constexpr uint64_t kHang = 2000000;         // cycles without progress: a hang
constexpr int kBeatBytes = AK_BEAT_BYTES;

using ak::fail;

std::unique_ptr<ak::AxiMem> g_mem;

#ifndef AK_NODEV
class Sim {
 public:
  Sim() : ctx_(new VerilatedContext), top_(new Vcoproc{ctx_.get()}) {
    top_->clk_i = 0;
    top_->rst_ni = 1;
    idle_lite();
    g_mem->reset(top_.get());
    top_->eval();
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 3; ++i) tick();
    top_->rst_ni = 1;
    top_->eval();
    tick();
  }
  ~Sim() { top_->final(); }

  uint64_t cycle = 0;
  uint64_t deadline = ~0ull;  // the job's watchdog (a hang in the driver's wait loops)
  int lite_stall = 0;
  uint64_t irq_high = 0;
  void seed(uint64_t s) { rng_ = ak::Rng(s ^ 0x5bd1e995u); }

  // One clock: sample the transfers (inputs as set after the last edge), the edge,
  // then the memory's outputs for the next cycle.
  void tick() {
    if (cycle > deadline) fail("job not finished after " + std::to_string(deadline) + " cycles");
    top_->eval();
    if (top_->irq_o) ++irq_high;
    g_mem->sample(top_.get(), cycle);
    top_->clk_i = 1;
    top_->eval();
    ++cycle;
    g_mem->drive(top_.get(), cycle);
    top_->clk_i = 0;
    top_->eval();
  }

  void write32(uint32_t addr, uint32_t value) {
    delay();
    top_->s_axil_awvalid = 1;
    top_->s_axil_awaddr = addr;
    top_->s_axil_awprot = 0;
    top_->s_axil_wvalid = 1;
    top_->s_axil_wdata = value;
    top_->s_axil_wstrb = 0xF;
    top_->s_axil_bready = !rng_.pct(lite_stall);
    bool aw = false, w = false;
    for (uint64_t n = 0;; ++n) {
      if (n > kHang) fail("AXI4-Lite write never answered");
      top_->eval();
      bool awf = top_->s_axil_awvalid && top_->s_axil_awready;
      bool wf = top_->s_axil_wvalid && top_->s_axil_wready;
      bool bf = top_->s_axil_bvalid && top_->s_axil_bready;
      uint32_t resp = top_->s_axil_bresp;
      tick();
      if (awf) { aw = true; top_->s_axil_awvalid = 0; }
      if (wf) { w = true; top_->s_axil_wvalid = 0; }
      if (bf) {
        if (!aw || !w) fail("AXI4-Lite: write response before address and data");
        top_->s_axil_bready = 0;
        if (resp != 0) fail("AXI4-Lite write error response at " + hex32(addr));
        return;
      }
      top_->s_axil_bready = !rng_.pct(lite_stall);
    }
  }

  uint32_t read32(uint32_t addr) {
    delay();
    top_->s_axil_arvalid = 1;
    top_->s_axil_araddr = addr;
    top_->s_axil_arprot = 0;
    top_->s_axil_rready = !rng_.pct(lite_stall);
    bool ar = false;
    for (uint64_t n = 0;; ++n) {
      if (n > kHang) fail("AXI4-Lite read never answered");
      top_->eval();
      bool arf = top_->s_axil_arvalid && top_->s_axil_arready;
      bool rf = top_->s_axil_rvalid && top_->s_axil_rready;
      uint32_t data = top_->s_axil_rdata, resp = top_->s_axil_rresp;
      tick();
      if (arf) { ar = true; top_->s_axil_arvalid = 0; }
      if (rf) {
        if (!ar) fail("AXI4-Lite: read data before address");
        top_->s_axil_rready = 0;
        if (resp != 0) fail("AXI4-Lite read error response at " + hex32(addr));
        return data;
      }
      top_->s_axil_rready = !rng_.pct(lite_stall);
    }
  }

  void wait_irq() {
    for (uint64_t n = 0; !irq(); ++n) {
      if (n > kHang) fail("irq_o never rose");
      tick();
    }
  }
  bool irq() {
    top_->eval();
    return top_->irq_o;
  }
  // Run until the memory has no burst in flight (after a job ends with an error, the
  // co-processor may still drain its bus transfers: the next job must not see them).
  void drain() {
    for (int n = 0; n < 64 || !g_mem->idle(); ++n) {
      if (n > 100000) fail("AXI4 transfers still in flight long after the job");
      tick();
    }
  }

 private:
  static std::string hex32(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "%08x", v);
    return b;
  }
  void idle_lite() {
    top_->s_axil_awvalid = 0;
    top_->s_axil_wvalid = 0;
    top_->s_axil_bready = 0;
    top_->s_axil_arvalid = 0;
    top_->s_axil_rready = 0;
  }
  void delay() {
    while (rng_.pct(lite_stall)) tick();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcoproc> top_;
  ak::Rng rng_{7};
};

std::unique_ptr<Sim> g_sim;
#endif

int g_irqs = 0;
int g_reg_writes = 0;
// fakeid=/fakever=: what reads of ID / VERSION answer while set
bool g_fake_id = false, g_fake_ver = false;
uint32_t g_fake_id_val = 0, g_fake_ver_val = 0;

}  // namespace

extern "C" {

uint32_t aeskit_port_read32(uintptr_t addr) {
  if (g_fake_id && addr == kRegBase + offsetof(ak_coproc_regs_t, ID)) return g_fake_id_val;
  if (g_fake_ver && addr == kRegBase + offsetof(ak_coproc_regs_t, VERSION))
    return g_fake_ver_val;
#ifndef AK_NODEV
  if (g_sim) return g_sim->read32(static_cast<uint32_t>(addr - kRegBase));
#endif
  (void)addr;
  return 0;  // no device: the bus reads zero
}

void aeskit_port_write32(uintptr_t addr, uint32_t value) {
  ++g_reg_writes;
#ifndef AK_NODEV
  if (g_sim) {
    g_sim->write32(static_cast<uint32_t>(addr - kRegBase), value);
    return;
  }
#endif
  (void)addr;
  (void)value;
}

void aeskit_port_wait_irq(void) {
  ++g_irqs;
#ifndef AK_NODEV
  if (g_sim) {
    g_sim->wait_irq();
    return;
  }
#endif
  fail("aeskit_port_wait_irq called without a device");
}

void* aeskit_port_mem(uint32_t addr, size_t len) { return g_mem->host(addr, len); }

}  // extern "C"

namespace {

std::vector<uint8_t> unhex(const std::string& s) {
  if (s.size() % 2) fail("odd hex length");
  std::vector<uint8_t> v(s.size() / 2);
  for (size_t i = 0; i < v.size(); ++i) {
    int h = ak::hexval(s[2 * i]), l = ak::hexval(s[2 * i + 1]);
    if (h < 0 || l < 0) fail("bad hex: " + s.substr(0, 40));
    v[i] = static_cast<uint8_t>(h << 4 | l);
  }
  return v;
}

std::string tohex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = d[p[i] >> 4];
    s[2 * i + 1] = d[p[i] & 15];
  }
  return s;
}

uint64_t num(const std::map<std::string, std::string>& kv, const std::string& k, uint64_t dflt,
             int base = 10) {
  auto it = kv.find(k);
  if (it == kv.end()) return dflt;
  return std::strtoull(it->second.c_str(), nullptr, base);
}

void put(uint32_t addr, const std::vector<uint8_t>& b) {
  if (b.empty()) return;
  // a buffer outside the window (an address error test) is not placed
  if (uint8_t* p = g_mem->host(addr, b.size())) std::memcpy(p, b.data(), b.size());
}

void run_job(const std::string& line) {
  std::map<std::string, std::string> kv;
  std::vector<ak::ErrRegion> errs;
  std::istringstream is(line);
  std::string tok;
  is >> tok;  // "job"
  while (is >> tok) {
    size_t eq = tok.find('=');
    if (eq == std::string::npos) fail("expected key=value: " + tok);
    std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
    if (k == "err") {
      ak::ErrRegion e{};
      char kind[4] = {0};
      unsigned resp = 0;
      unsigned lo = 0, hi = 0;
      if (std::sscanf(v.c_str(), "%3[rw]:%u:%x:%x", kind, &resp, &lo, &hi) != 4)
        fail("bad err=" + v);
      e.lo = lo;
      e.hi = hi;
      e.resp = static_cast<uint8_t>(resp);
      e.on_read = std::strchr(kind, 'r') != nullptr;
      e.on_write = std::strchr(kind, 'w') != nullptr;
      errs.push_back(e);
    } else {
      kv[k] = v;
    }
  }
  static const std::map<std::string, aeskit_mode> modes = {
      {"ecb", AESKIT_ECB}, {"cbc", AESKIT_CBC}, {"ctr", AESKIT_CTR},
      {"cfb", AESKIT_CFB}, {"ofb", AESKIT_OFB}, {"ccm", AESKIT_CCM},
      {"gcm", AESKIT_GCM}, {"cmac", AESKIT_CMAC}, {"xts", AESKIT_XTS}};
  auto m = modes.find(kv["mode"]);
  if (m == modes.end()) fail("bad mode " + kv["mode"]);
  bool dec = kv["dir"] == "dec";
  bool irq = kv["wait"] == "irq";
  bool soft = num(kv, "soft", 0) != 0;
  std::vector<uint8_t> key = unhex(kv["key"]), iv = unhex(kv["iv"]), data = unhex(kv["data"]),
                       aad = unhex(kv["aad"]), rtag = unhex(kv["tag"]);
  size_t taglen = num(kv, "taglen", 0);
  uint32_t src = static_cast<uint32_t>(num(kv, "src", kMemBase + 0x01000, 16));
  uint32_t aad_addr = static_cast<uint32_t>(num(kv, "aadaddr", kMemBase + 0x40000, 16));
  uint32_t dst = static_cast<uint32_t>(num(kv, "dst", kMemBase + 0x80000, 16));
  uint32_t iv_addr = static_cast<uint32_t>(num(kv, "ivaddr", kMemBase + 0x60000, 16));
  uint32_t len = static_cast<uint32_t>(num(kv, "len", data.size()));
  uint8_t fill = static_cast<uint8_t>(num(kv, "fill", 0xee, 16));
  bool aead = m->second == AESKIT_CCM || m->second == AESKIT_GCM;
  bool cmac = m->second == AESKIT_CMAC;
  size_t out_len = (cmac ? 0 : len) + ((aead || cmac) && !dec ? taglen : 0);

  g_mem->latency = static_cast<int>(num(kv, "lat", 1));
  g_mem->stall_pct = static_cast<int>(num(kv, "stall", 0));
  g_mem->seed(num(kv, "seed", 1));
  g_mem->errors = errs;
  g_mem->max_reads_seen = 0;
#ifndef AK_NODEV
  g_sim->lite_stall = static_cast<int>(num(kv, "stall", 0));
  g_sim->seed(num(kv, "seed", 1));
#endif

  // memory: the destination window filled, then the inputs
  if (uint8_t* p = g_mem->host(dst, out_len)) std::memset(p, fill, out_len);
  std::vector<uint8_t> in = data;
  if ((aead || cmac) && dec) in.insert(in.end(), rtag.begin(), rtag.end());
  put(src, in);
  put(aad_addr, aad);
  const bool iv_mem = m->second == AESKIT_GCM && iv.size() != 12;
  if (iv_mem) put(iv_addr, iv);

  aeskit_dev dev;
  g_fake_id = kv.count("fakeid") != 0;
  g_fake_ver = kv.count("fakever") != 0;
  g_fake_id_val = static_cast<uint32_t>(num(kv, "fakeid", 0, 16));
  g_fake_ver_val = static_cast<uint32_t>(num(kv, "fakever", 0, 16));
  g_reg_writes = 0;
#ifndef AK_NODEV
  if (soft) {
    aeskit_init_soft(&dev);
  } else {
    aeskit_init(&dev, kRegBase);
    if (!aeskit_has_hw(&dev) && !g_fake_id && !g_fake_ver)
      fail("aeskit_init did not find the co-processor");
  }
#else
  if (aeskit_init(&dev, kRegBase) != AESKIT_OK || aeskit_has_hw(&dev))
    fail("aeskit_init found a device where there is none");
  (void)soft;
#endif
  const int init_writes = g_reg_writes;
  g_fake_id = g_fake_ver = false;
  if (!num(kv, "nokey", 0)) {
    aeskit_status ks = m->second == AESKIT_XTS ? aeskit_set_xts_key(&dev, key.data(), key.size())
                                               : aeskit_set_key(&dev, key.data(), key.size());
    if (ks != AESKIT_OK) {
      std::printf("res status=%s code=%d out= tag= cycles=0 total=0 irqs=0 irqhigh=0 maxrd=0 hw=%d "
                  "start2=- initw=%d partst=- ctxs=-\n",
                  aeskit_status_name(ks), static_cast<int>(ks), aeskit_has_hw(&dev), init_writes);
      return;
    }
  }
  aeskit_job job;
  std::memset(&job, 0, sizeof job);
  job.mode = m->second;
  job.dir = dec ? AESKIT_DECRYPT : AESKIT_ENCRYPT;
  job.iv = iv.empty() ? nullptr : iv.data();
  job.iv_len = iv.size();
  job.src = src;
  job.dst = dst;
  job.len = len;
  job.aad = aad_addr;
  job.aad_len = static_cast<uint32_t>(num(kv, "aadlen", aad.size()));
  job.tag_len = taglen;
  job.iv_addr = iv_addr;

  g_irqs = 0;
  uint64_t t0 = 0;
#ifndef AK_NODEV
  t0 = g_sim->cycle;
  g_sim->irq_high = 0;
  // generous: 64 cycles per byte with every stall, plus the set-up
  g_sim->deadline = t0 + 200000 + 64ull * (len + job.aad_len) * (1 + g_mem->latency);
#endif
  aeskit_status st = AESKIT_OK;
  const aeskit_wait_style ws = irq ? AESKIT_IRQ : AESKIT_POLL;
  const bool api = num(kv, "api", 0) != 0;
  std::string partst = "-", ctxs = "-";
  if (kv.count("split")) {
    // the message in parts: init, one update per pair of split=, final with the rest
    if (m->second != AESKIT_GCM && m->second != AESKIT_CMAC) fail("split= is for gcm, cmac");
    const bool gcm = m->second == AESKIT_GCM;
    aeskit_part_ctx pc;
    st = gcm ? aeskit_gcm_init(&dev, &pc, job.dir, job.iv, job.iv_len, iv_addr, taglen)
             : aeskit_cmac_init(&dev, &pc, job.dir, taglen);
    partst.clear();
    ctxs.clear();
    uint32_t ao = 0, po = 0;
    std::istringstream sp(kv["split"]);
    std::string pair;
    while (st == AESKIT_OK && std::getline(sp, pair, ',')) {
      unsigned a = 0, p = 0;
      if (std::sscanf(pair.c_str(), "%u.%u", &a, &p) != 2) fail("bad split=" + kv["split"]);
      st = gcm ? aeskit_gcm_update(&dev, &pc, job.aad + ao, a, src + po, dst + po, p, ws)
               : aeskit_cmac_update(&dev, &pc, src + po, p, ws);
      partst += std::string(partst.empty() ? "" : ",") + aeskit_status_name(st);
      ctxs += std::string(ctxs.empty() ? "" : ",") + tohex(pc.ctx, sizeof pc.ctx);
      ao += a;
      po += p;
    }
    if (st == AESKIT_OK) {
      st = gcm ? aeskit_gcm_final(&dev, &pc, job.aad + ao, job.aad_len - ao, src + po,
                                  dst + po, len - po, ws)
               : aeskit_cmac_final(&dev, &pc, src + po, len - po, dst, ws);
      ctxs += std::string(ctxs.empty() ? "" : ",") + tohex(pc.ctx, sizeof pc.ctx);
    }
    if (partst.empty()) partst = "-";
    if (ctxs.empty()) ctxs = "-";
  } else if (api) {
    const uint8_t* ivp = job.iv;
    switch (job.mode) {
      case AESKIT_GCM:
        if (!dec && len == 0) {
          st = aeskit_gmac(&dev, ivp, job.iv_len, job.aad, job.aad_len, dst, taglen, ws);
        } else {
          st = (dec ? aeskit_gcm_decrypt : aeskit_gcm_encrypt)(
              &dev, ivp, job.iv_len, job.aad, job.aad_len, src, dst, len, taglen, ws);
        }
        break;
      case AESKIT_CMAC:
        st = dec ? aeskit_cmac_verify(&dev, src, len, taglen, ws)
                 : aeskit_cmac_generate(&dev, src, len, dst, taglen, ws);
        break;
      case AESKIT_XTS:
        st = aeskit_xts(&dev, job.dir, ivp, src, dst, len, ws);
        break;
      default:
        fail("api=1 is for gcm, cmac, xts");
    }
  } else if (!num(kv, "waitonly", 0)) {
    st = aeskit_start(&dev, &job);
  }
  std::string start2 = "-";
  const bool split = kv.count("split") != 0;
  if (st == AESKIT_OK && !api && !split && num(kv, "busy", 0))
    start2 = aeskit_status_name(aeskit_start(&dev, &job));
  if (st == AESKIT_OK && !api && !split && num(kv, "extstart", 0))
    aeskit_port_write32(kRegBase + offsetof(ak_coproc_regs_t, CTRL), AK_COPROC_REGS__CTRL__START_bm);
  if (st == AESKIT_OK && !api && !split) st = aeskit_wait(&dev, ws);
  uint64_t total = 0, irq_high = 0;
#ifndef AK_NODEV
  total = g_sim->cycle - t0;
  irq_high = g_sim->irq_high;
  g_sim->deadline = ~0ull;
#endif
  (void)t0;
  uint32_t cycles = aeskit_cycles(&dev);
  if (num(kv, "clear", 0)) aeskit_clear(&dev);
#ifndef AK_NODEV
  if (aeskit_has_hw(&dev)) g_sim->drain();
#endif
  std::string out, tag;
  if (const uint8_t* p = g_mem->host(dst, out_len)) {
    if (cmac) {
      if (!dec) tag = tohex(p, taglen);
    } else {
      out = tohex(p, len);
      if (aead && !dec) tag = tohex(p + len, taglen);
    }
  }
  std::printf("res status=%s code=%d out=%s tag=%s cycles=%u total=%llu irqs=%d irqhigh=%llu "
              "maxrd=%d hw=%d start2=%s initw=%d partst=%s ctxs=%s\n",
              aeskit_status_name(st), static_cast<int>(st), out.c_str(), tag.c_str(), cycles,
              static_cast<unsigned long long>(total), g_irqs,
              static_cast<unsigned long long>(irq_high), g_mem->max_reads_seen,
              aeskit_has_hw(&dev), start2.c_str(), init_writes, partst.c_str(), ctxs.c_str());
}

}  // namespace

int main(int argc, char** argv) {
#ifndef AK_NODEV
  Verilated::commandArgs(argc, argv);
#else
  (void)argc;
  (void)argv;
#endif
  g_mem.reset(new ak::AxiMem(kMemBase, kMemSize, kBeatBytes));
#ifndef AK_NODEV
  g_sim.reset(new Sim);
#endif
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    if (line == "quit") break;
    if (line.rfind("job", 0) == 0) {
      run_job(line);
    } else {
      fail("unknown command: " + line.substr(0, 40));
    }
    std::fflush(stdout);
  }
  return 0;
}
