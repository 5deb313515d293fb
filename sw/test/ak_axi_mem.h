// ak_axi_mem.h: a main-memory model behind an AXI4 master port, for the driver test
// executable (coproc_drv.cpp). Cycle based: the owner calls sample() with the signal
// values just before a rising clock edge (a transfer happens where valid && ready),
// then, after the edge, drive() to set the slave's outputs for the next cycle.
//
// * Memory: one flat window [base, base + size); a beat outside it answers DECERR,
//   a beat inside an error region answers that region's response (SLVERR or DECERR)
//   and its write is dropped. Byte order: byte i of a beat is data bits [8i+7:8i]
//   (the byte at the lowest address in the lowest bits).
// * Latency: a read burst's first beat is offered `latency` cycles after its address
//   transfer at the earliest; a write response `latency` cycles after the last data beat.
// * Back-pressure, seeded: each cycle arready/awready/wready drop with probability
//   stall_pct, and a beat due on R or B is held back with probability stall_pct (a valid
//   once raised stays up, with its payload, until taken).
// * Protocol checks (a violation calls ak::fail): INCR bursts of 1..16 beats of the full
//   bus width that do not cross a 4 KiB boundary, WLAST on the last beat only, and a
//   master's valid and payload stable while stalled; READY never waits for VALID here.
//   Reads in flight are counted (max_reads_seen) to show the master's outstanding reads.
#ifndef AK_AXI_MEM_H_
#define AK_AXI_MEM_H_

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "ak_harness_util.h"

namespace ak {

struct ErrRegion {
  uint32_t lo, hi;  // [lo, hi)
  uint8_t resp;     // 2 SLVERR, 3 DECERR
  bool on_read, on_write;
};

// Data signals of 32 bits or less are integers in Verilator, wider ones VlWide arrays.
inline void put_beat(uint32_t& sig, const uint8_t* b, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[i];
  sig = v;
}
inline void get_beat(uint32_t sig, uint8_t* b, int n) {
  for (int i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(sig >> (8 * i));
}
template <class W>
inline void put_beat(W& sig, const uint8_t* b, int n) {
  for (int w = 0; w < n / 4; ++w) {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | b[4 * w + i];
    sig[w] = v;
  }
}
template <class W>
inline void get_beat(const W& sig, uint8_t* b, int n) {
  for (int i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(sig[i / 4] >> (8 * (i % 4)));
}

class AxiMem {
 public:
  AxiMem(uint32_t base, uint32_t size, int bytes_per_beat)
      : base_(base), mem_(size, 0), nb_(bytes_per_beat) {}

  // configuration of the next job
  int latency = 1;
  int stall_pct = 0;
  std::vector<ErrRegion> errors;
  void seed(uint64_t s) { rng_ = Rng(s); }

  // statistics
  int max_reads_seen = 0;
  uint64_t beats_read = 0, beats_written = 0;

  uint32_t base() const { return base_; }
  uint32_t size() const { return static_cast<uint32_t>(mem_.size()); }
  // CPU view of [addr, addr + len) or nullptr when it is not all inside the window.
  uint8_t* host(uint32_t addr, uint64_t len) {
    if (addr < base_) return nullptr;
    uint64_t off = addr - base_;
    if (off + len > mem_.size()) return nullptr;
    return mem_.data() + off;
  }

  template <class T>
  void reset(T* t) {
    ar_.clear(); aw_.clear(); w_.clear(); b_.clear();
    r_up_ = b_up_ = false;
    prev_ar_ = prev_aw_ = prev_w_ = Held{};
    t->m_axi_arready = 0; t->m_axi_awready = 0; t->m_axi_wready = 0;
    t->m_axi_rvalid = 0; t->m_axi_bvalid = 0;
  }

  // Before the edge: take the transfers of this cycle.
  template <class T>
  void sample(T* t, uint64_t cyc) {
    check_stable("AR", prev_ar_, t->m_axi_arvalid, t->m_axi_arready, t->m_axi_araddr,
                 t->m_axi_arlen, t->m_axi_arid);
    check_stable("AW", prev_aw_, t->m_axi_awvalid, t->m_axi_awready, t->m_axi_awaddr,
                 t->m_axi_awlen, t->m_axi_awid);
    if (t->m_axi_arvalid && t->m_axi_arready) {
      ar_.push_back(burst("AR", t->m_axi_araddr, t->m_axi_arlen, t->m_axi_arsize,
                          t->m_axi_arburst, t->m_axi_arid, cyc + latency));
      if (static_cast<int>(ar_.size()) > max_reads_seen) max_reads_seen = static_cast<int>(ar_.size());
    }
    if (t->m_axi_awvalid && t->m_axi_awready) {
      aw_.push_back(burst("AW", t->m_axi_awaddr, t->m_axi_awlen, t->m_axi_awsize,
                          t->m_axi_awburst, t->m_axi_awid, 0));
    }
    // W stability: payload compared as bytes
    uint8_t wb[64];
    get_beat(t->m_axi_wdata, wb, nb_);
    if (prev_w_.valid && !prev_w_.ready) {
      if (!t->m_axi_wvalid) fail("AXI W: wvalid dropped before wready");
      if (std::string(reinterpret_cast<char*>(wb), nb_) != prev_wdata_ ||
          t->m_axi_wstrb != prev_wstrb_ || t->m_axi_wlast != prev_wlast_)
        fail("AXI W: payload changed while stalled");
    }
    prev_w_.valid = t->m_axi_wvalid;
    prev_w_.ready = t->m_axi_wready;
    prev_wdata_.assign(reinterpret_cast<char*>(wb), nb_);
    prev_wstrb_ = t->m_axi_wstrb;
    prev_wlast_ = t->m_axi_wlast;
    if (t->m_axi_wvalid && t->m_axi_wready) {
      WBeat beat;
      beat.data.assign(wb, wb + nb_);
      beat.strb = static_cast<uint64_t>(t->m_axi_wstrb);
      beat.last = t->m_axi_wlast;
      w_.push_back(beat);
    }
    if (r_up_ && t->m_axi_rready) {
      r_up_ = false;
      Burst& b = ar_.front();
      ++beats_read;
      if (++b.beat > b.len) ar_.pop_front();
    }
    if (b_up_ && t->m_axi_bready) {
      b_up_ = false;
      b_.pop_front();
    }
    while (match_write(cyc)) {
    }
  }

  // After the edge: the slave's outputs for the next cycle.
  template <class T>
  void drive(T* t, uint64_t cyc) {
    t->m_axi_arready = !rng_.pct(stall_pct);
    t->m_axi_awready = !rng_.pct(stall_pct);
    t->m_axi_wready = !rng_.pct(stall_pct);
    if (!r_up_ && !ar_.empty() && ar_.front().due <= cyc && !rng_.pct(stall_pct)) {
      Burst& b = ar_.front();
      uint32_t a = b.addr + static_cast<uint32_t>(b.beat * nb_);
      uint8_t data[64] = {0};
      uint8_t resp = resp_of(a, true);
      if (resp == 0) {
        uint8_t* p = host(a, nb_);
        for (int i = 0; i < nb_; ++i) data[i] = p[i];
      }
      put_beat(t->m_axi_rdata, data, nb_);
      t->m_axi_rresp = resp;
      t->m_axi_rid = b.id;
      t->m_axi_rlast = b.beat == b.len;
      r_up_ = true;
    }
    t->m_axi_rvalid = r_up_;
    if (!b_up_ && !b_.empty() && b_.front().due <= cyc && !rng_.pct(stall_pct)) {
      t->m_axi_bresp = b_.front().resp;
      t->m_axi_bid = b_.front().id;
      b_up_ = true;
    }
    t->m_axi_bvalid = b_up_;
  }

  bool idle() const { return ar_.empty() && aw_.empty() && w_.empty() && b_.empty(); }

 private:
  struct Burst {
    uint32_t addr;
    int len;  // beats - 1
    uint32_t id;
    uint64_t due;
    int beat;
  };
  struct WBeat {
    std::vector<uint8_t> data;
    uint64_t strb;
    bool last;
  };
  struct BResp {
    uint32_t id;
    uint8_t resp;
    uint64_t due;
  };
  struct Held {
    bool valid = false, ready = false;
    uint64_t addr = 0, len = 0, id = 0;
  };

  template <class A, class L, class I>
  void check_stable(const char* ch, Held& h, bool valid, bool ready, A addr, L len, I id) {
    if (h.valid && !h.ready) {
      if (!valid) fail(std::string("AXI ") + ch + ": valid dropped before ready");
      if (h.addr != static_cast<uint64_t>(addr) || h.len != static_cast<uint64_t>(len) ||
          h.id != static_cast<uint64_t>(id))
        fail(std::string("AXI ") + ch + ": address payload changed while stalled");
    }
    h.valid = valid;
    h.ready = ready;
    h.addr = addr;
    h.len = len;
    h.id = id;
  }

  Burst burst(const char* ch, uint32_t addr, int len, int size, int type, uint32_t id,
              uint64_t due) {
    int bytes = 1 << size;
    if (bytes != nb_) fail(std::string("AXI ") + ch + ": size is not the bus width");
    if (type != 1) fail(std::string("AXI ") + ch + ": burst type is not INCR");
    if (len > 15) fail(std::string("AXI ") + ch + ": more than 16 beats");
    if (addr % nb_) fail(std::string("AXI ") + ch + ": unaligned address");
    uint64_t end = static_cast<uint64_t>(addr) + static_cast<uint64_t>(len + 1) * nb_ - 1;
    if ((end >> 12) != (addr >> 12)) fail(std::string("AXI ") + ch + ": burst crosses 4 KiB");
    return Burst{addr, len, id, due, 0};
  }

  uint8_t resp_of(uint32_t a, bool read) const {
    for (const ErrRegion& e : errors)
      if (a >= e.lo && a < e.hi && (read ? e.on_read : e.on_write)) return e.resp;
    if (a < base_ || static_cast<uint64_t>(a - base_) + nb_ > mem_.size()) return 3;
    return 0;
  }

  // A write burst whose address and all data beats are here is applied.
  bool match_write(uint64_t cyc) {
    if (aw_.empty()) return false;
    Burst& b = aw_.front();
    if (static_cast<int>(w_.size()) < b.len + 1) return false;
    uint8_t resp = 0;
    for (int k = 0; k <= b.len; ++k) {
      const WBeat& w = w_[k];
      if (w.last != (k == b.len)) fail("AXI W: wlast not on the burst's last beat");
      uint32_t a = b.addr + static_cast<uint32_t>(k * nb_);
      uint8_t r = resp_of(a, false);
      if (r) {
        resp = resp ? resp : r;
        continue;
      }
      uint8_t* p = host(a, nb_);
      for (int i = 0; i < nb_; ++i)
        if ((w.strb >> i) & 1u) p[i] = w.data[i];
      ++beats_written;
    }
    w_.erase(w_.begin(), w_.begin() + b.len + 1);
    b_.push_back(BResp{b.id, resp, cyc + latency});
    aw_.pop_front();
    return true;
  }

  uint32_t base_;
  std::vector<uint8_t> mem_;
  int nb_;
  Rng rng_{1};
  std::deque<Burst> ar_, aw_;
  std::deque<WBeat> w_;
  std::deque<BResp> b_;
  bool r_up_ = false, b_up_ = false;
  Held prev_ar_, prev_aw_, prev_w_;
  std::string prev_wdata_;
  uint64_t prev_wstrb_ = 0;
  bool prev_wlast_ = false;
};

}  // namespace ak

#endif  // AK_AXI_MEM_H_
