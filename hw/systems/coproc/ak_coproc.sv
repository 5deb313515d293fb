// ak_coproc: the AES co-processor of paper 003 (Chaves et al., Sec. 3) as an SoC
// peripheral, for ANY core of the registry. Software writes the exchange registers
// (AXI4-Lite slave s_axil_*, map hw/systems/coproc/coproc.rdl, generated regblock
// ak_coproc_regs) and START; the co-processor loads the key from the KEY registers into
// the core (which expands it in hardware; the paper fetched a pre-expanded key from
// memory), reads the source buffer through its AXI4 master (m_axi_*, ak_coproc_rd),
// runs it through one stream of the mode engine (ECB, CBC, CTR, CFB-128, OFB, CCM,
// GCM/GMAC, CMAC, XTS: the mode code is CTRL.{MODE_HI, MODE}) and the core (core_* ports, the core contract's master side; ak_coproc_sys.sv.tpl wires a
// registry core to them), writes the result to the destination buffer (ak_coproc_wr),
// and ends with STATUS.DONE, STATUS.ERR_CODE and the interrupt.
//
// Job parameters: the accepted START copies every register a job uses (CTRL's DECRYPT,
// MODE, MODE_HI, KEY_LEN, PART; KEY; TWEAK_KEY; IV; CCM; LEN; AAD_LEN; SRC_ADDR; DST_ADDR;
// AAD_ADDR; IV_LEN; IV_ADDR; CTX for MIDDLE and LAST) into job
// registers (*_q below), and the job uses only those: software may write the next
// job's registers while BUSY. CLEAR and reset zero them.
// Job (state machine, see docs/coproc.md): CHECK the parameters (illegal mode/key
// length/CCM, GCM, CMAC, XTS parameters, zero length, ECB/CBC length, buffers crossing
// 2^32: the job ends at once with the code, no bus access); KEY: load the key (XTS: KEY
// is K1, TWEAK_KEY K2, the engine swaps them per data unit); CMD: the engine command;
// RUN: the DMA and the engine until the engine's status and the last B response.
// GCM with IV_LEN not 0 or 12 reads the IV from IV_ADDR first, in a read of its own
// (SIvRd; SIvGo starts the reader again for the rest); otherwise the 12-byte IV is IV.
// The reader reads the AAD (CCM, GCM), the payload (CMAC: the message; XTS: the data
// unit, LEN bytes = 8*LEN bits to the engine) and the received tag (CCM/GCM decryption,
// CMAC verification; TAG_LEN bytes after the payload); the writer writes the payload
// and the tag (CCM/GCM encryption; CMAC generation: the tag alone). The tag beat the
// engine outputs is also kept in TAG (zeroed at START and CLEAR).
// CCM and GCM decryption are verify-first: pass 1 reads AAD, payload and received tag and
// writes nothing; only if the tag matched (and no read failed) pass 2 runs the message
// again and writes the plaintext. If pass 2 fails anyway (memory changed between the
// passes, read error) the written range is overwritten with zeros (ZERO) before DONE.
// CMAC verification writes nothing: its result is the code (0 or TAG).
// Messages in parts (CTRL.PART: 0 WHOLE, 1 FIRST, 2 MIDDLE, 3 LAST; GCM/GMAC and CMAC;
// the engine's Parts = 1): MIDDLE and LAST start from CTX (copied at START); FIRST and
// MIDDLE take whole blocks, run once (GCM decryption too: its plaintext is released),
// read no tag and write none; their state beat goes to the context only (not to memory,
// not to TAG), and at DONE (ERR_CODE 0 or 4) CTX takes the state with the counts plus
// this part's (payload blocks, AAD bytes, payload bytes), so the next part starts from
// CTX as it is. LAST runs as WHOLE (verify-first GCM decryption) and zeroes CTX at its
// DONE. A part that breaks the engine's rules ends in CHECK with ILLEGAL (no bus
// access, CTX unchanged). CLEAR zeroes CTX and, after a part's state went through the
// engine's output FIFO (a RAM without reset), runs as many zero blocks as it has
// entries (InFlight + 2) instead of one.
// A START while BUSY is rejected (the job is not disturbed): STATUS.REJECTED, and the
// job's code becomes 4 (BUSY) unless it has its own error. CLEAR (waits for the end of a
// running job) resets the engine, zeroes KEY, TWEAK_KEY, IV, TAG, the DMA's buffers,
// loads a zero key into the core and runs one zero block through it, so no key, round
// key or data is left in a register or a round-key RAM.
//
// Latency (tbox_folded, AES-128, ECB/CTR, memory answering without stalls): docs/coproc.md
// gives the exact formula from START to DONE (and the measured cycles of GCM, CMAC and
// XTS jobs); CYCLES reports it per job.
// Byte order: FIPS-197; the byte at the lowest address (of a register group or a memory
// buffer) is byte 0, in bits [7:0] of its 32-bit word; byte 0 is [127:120] / [255:248]
// on the engine and core ports.
//
// Parameters: AddrWidth (32; both buses), DataWidth (AXI4 master data, 32 only),
// IdWidth (AXI4 IDs; ID 0 is used), MaxReads (read bursts outstanding, >= 2),
// MaxWrites (write bursts awaiting B), InFlight (the mode engine's: blocks of an
// independent flow kept in the core; ak_coproc_sys sets it from the core's registry
// latency and interval, plus the two of the engine's input slice, CoreInReg = 2),
// CoreDirections (2'b11: bit 0 the core encrypts, bit 1 it decrypts) and CoreKeySizes
// (3'b111: bit k the core takes KEY_LEN = k): the core's configuration as the registry
// declares it (docs/core-contract.md, "Configurations"; ak_coproc_sys sets both). A job
// the core cannot run (a KEY_LEN it leaves out; ECB, CBC or XTS decryption on an
// encrypt-only core) ends in CHECK with ERR_CODE ILLEGAL, like an illegal mode; CLEAR
// loads its zero key at the largest key size the core builds. Modes (9'h1ff): the modes
// built, bit m for mode code m (the engine's Modes; without GCM, CMAC and XTS their
// logic is left out); a job in a mode left out ends in CHECK with ERR_CODE ILLEGAL.

`default_nettype none

module ak_coproc
  import ak_mode_codes_pkg::*;  // mode codes (ak_mode_e), STATUS.ERR_CODE (ak_coproc_err_e)
#(
  parameter int AddrWidth = 32,
  parameter int DataWidth = 32,
  parameter int IdWidth   = 4,
  parameter int MaxReads  = 4,
  parameter int MaxWrites = 4,
  parameter int InFlight  = 4,
  parameter logic [1:0] CoreDirections = 2'b11,
  parameter logic [2:0] CoreKeySizes   = 3'b111,
  parameter logic [8:0] Modes          = 9'h1ff
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // AXI4-Lite slave: exchange registers
  input  logic [AddrWidth-1:0]   s_axil_awaddr,
  input  logic [2:0]             s_axil_awprot,
  input  logic                   s_axil_awvalid,
  output logic                   s_axil_awready,
  input  logic [31:0]            s_axil_wdata,
  input  logic [3:0]             s_axil_wstrb,
  input  logic                   s_axil_wvalid,
  output logic                   s_axil_wready,
  output logic [1:0]             s_axil_bresp,
  output logic                   s_axil_bvalid,
  input  logic                   s_axil_bready,
  input  logic [AddrWidth-1:0]   s_axil_araddr,
  input  logic [2:0]             s_axil_arprot,
  input  logic                   s_axil_arvalid,
  output logic                   s_axil_arready,
  output logic [31:0]            s_axil_rdata,
  output logic [1:0]             s_axil_rresp,
  output logic                   s_axil_rvalid,
  input  logic                   s_axil_rready,
  // AXI4 master: main memory
  output logic [IdWidth-1:0]     m_axi_awid,
  output logic [AddrWidth-1:0]   m_axi_awaddr,
  output logic [7:0]             m_axi_awlen,
  output logic [2:0]             m_axi_awsize,
  output logic [1:0]             m_axi_awburst,
  output logic                   m_axi_awlock,
  output logic [3:0]             m_axi_awcache,
  output logic [2:0]             m_axi_awprot,
  output logic                   m_axi_awvalid,
  input  logic                   m_axi_awready,
  output logic [DataWidth-1:0]   m_axi_wdata,
  output logic [DataWidth/8-1:0] m_axi_wstrb,
  output logic                   m_axi_wlast,
  output logic                   m_axi_wvalid,
  input  logic                   m_axi_wready,
  input  logic [IdWidth-1:0]     m_axi_bid,
  input  logic [1:0]             m_axi_bresp,
  input  logic                   m_axi_bvalid,
  output logic                   m_axi_bready,
  output logic [IdWidth-1:0]     m_axi_arid,
  output logic [AddrWidth-1:0]   m_axi_araddr,
  output logic [7:0]             m_axi_arlen,
  output logic [2:0]             m_axi_arsize,
  output logic [1:0]             m_axi_arburst,
  output logic                   m_axi_arlock,
  output logic [3:0]             m_axi_arcache,
  output logic [2:0]             m_axi_arprot,
  output logic                   m_axi_arvalid,
  input  logic                   m_axi_arready,
  input  logic [IdWidth-1:0]     m_axi_rid,
  input  logic [DataWidth-1:0]   m_axi_rdata,
  input  logic [1:0]             m_axi_rresp,
  input  logic                   m_axi_rlast,
  input  logic                   m_axi_rvalid,
  output logic                   m_axi_rready,
  // interrupt (level): CTRL.IRQ_EN & |INTR_STATE
  output logic                   irq_o,
  // the core (core contract, master side; TagWidth 1)
  output logic                   core_key_valid_o,
  input  logic                   core_key_ready_i,
  output logic [255:0]           core_key_o,
  output logic [1:0]             core_key_len_o,
  output logic                   core_in_valid_o,
  input  logic                   core_in_ready_i,
  output logic [127:0]           core_in_data_o,
  output logic                   core_in_decrypt_o,
  output logic [0:0]             core_in_tag_o,
  input  logic                   core_out_valid_i,
  output logic                   core_out_ready_o,
  input  logic [127:0]           core_out_data_i,
  input  logic [0:0]             core_out_tag_i
);

  if (AddrWidth != 32) begin : g_bad_addr
    $fatal(1, "ak_coproc: AddrWidth must be 32, got %0d", AddrWidth);
  end

  // ------------------------------------------------------------------------------
  // Register block; an address outside the 256-byte map goes to an unmapped offset
  // (0xFC), so it gets SLVERR instead of aliasing a register
  // ------------------------------------------------------------------------------
  ak_coproc_regs_pkg::ak_coproc_regs__in_t  hwif_in;
  ak_coproc_regs_pkg::ak_coproc_regs__out_t hwif_out;
  logic [7:0] rb_awaddr, rb_araddr;

  assign rb_awaddr = (|s_axil_awaddr[AddrWidth-1:8]) ? 8'hfc : s_axil_awaddr[7:0];
  assign rb_araddr = (|s_axil_araddr[AddrWidth-1:8]) ? 8'hfc : s_axil_araddr[7:0];

  ak_coproc_regs u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (s_axil_awready),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awaddr  (rb_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arready (s_axil_arready),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_araddr  (rb_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // key and IV in engine byte order (byte 0 of KEY[0] = key byte 0 -> [255:248])
  logic [255:0] reg_key, reg_key2, reg_ctx;
  logic [127:0] reg_iv;
  always_comb begin : key_iv
    for (int i = 0; i < 8; i++) begin
      for (int b = 0; b < 4; b++) begin
        reg_key[255 - 32*i - 8*b -: 8]  = hwif_out.KEY[i].W.value[8*b +: 8];
        reg_key2[255 - 32*i - 8*b -: 8] = hwif_out.TWEAK_KEY[i].W.value[8*b +: 8];
        reg_ctx[255 - 32*i - 8*b -: 8]  = hwif_out.CTX[i].W.value[8*b +: 8];
      end
    end
    for (int i = 0; i < 4; i++) begin
      for (int b = 0; b < 4; b++) begin
        reg_iv[127 - 32*i - 8*b -: 8] = hwif_out.IV[i].W.value[8*b +: 8];
      end
    end
  end

  logic start_p, clear_p;
  assign start_p = hwif_out.CTRL.START.value;
  assign clear_p = hwif_out.CTRL.CLEAR.value;

  // ------------------------------------------------------------------------------
  // Job state
  // ------------------------------------------------------------------------------
  typedef enum logic [3:0] {
    SIdle, SCheck, SKey, SCmd, SRun, SZero, SZeroWait, SDone, SClrKey, SClrCmd, SClrRun,
    SIvRd, SIvGo
  } state_e;

  state_e      state_q, state_d;
  logic [3:0]  mode_q, mode_d;       // a mode code: {MODE_HI, MODE}
  logic        dec_q, dec_d;
  logic [1:0]  klen_q, klen_d;
  logic [3:0]  nlen_q, nlen_d;
  logic [4:0]  tlen_q, tlen_d;
  logic [31:0] len_q, len_d, alen_q, alen_d;
  logic [31:0] src_q, src_d, dst_q, dst_d, aad_q, aad_d;
  logic [31:0] ivlen_q, ivlen_d, ivaddr_q, ivaddr_d;  // GCM: IV_LEN, IV_ADDR
  logic        ivph_q, ivph_d;        // the reader reads the GCM IV (SIvRd)
  logic        iverr_q, iverr_d;      // a read of the IV failed (this pass)
  logic [255:0] key_q, key_d;         // KEY, TWEAK_KEY and IV of the running job (engine order)
  logic [255:0] key2_q, key2_d;
  logic [127:0] tag_q, tag_d;         // the last tag the engine output (TAG)
  logic [127:0] iv_q, iv_d;
  logic [1:0]  part_q, part_d;        // CTRL.PART of the running job (ak_part_e)
  logic [255:0] ctx_q, ctx_d;         // its context (MIDDLE, LAST: CTX; else 0); the
                                      // state a FIRST/MIDDLE part returns replaces [255:128]
  logic        wpass_q, wpass_d;      // this pass writes (0: CCM verify pass)
  logic        sts_seen_q, sts_seen_d;
  logic        sts_pass_q, sts_pass_d, sts_err_q, sts_err_d;
  logic [31:0] left_q, left_d;        // payload (SZero: zero) bytes still to come
  // CLEAR's zero blocks: one, or (after a FIRST / MIDDLE part's state passed the
  // engine's output FIFO, whose RAM has no reset) as many as that FIFO has entries
  // (the engine's InFlight + 2), so each entry is overwritten
  localparam int ScrubBlocks = InFlight + 2;
  localparam int ScrubW      = $clog2(ScrubBlocks + 1);
  logic [ScrubW-1:0] scrub_n_q, scrub_n_d;  // SClrRun: zero blocks not yet taken
  logic        dirty_q, dirty_d;      // a part's state went through the engine since CLEAR
  logic        ran_q, ran_d;          // the job passed CHECK (it ran)
  logic [3:0]  code_q, code_d;        // result of the running job
  logic        done_q, done_d, rej_q, rej_d, rej_job_q, rej_job_d;
  logic [3:0]  err_code_q, err_code_d;
  logic        clr_pend_q, clr_pend_d;
  logic        eng_rst_nq, eng_rst_nd;
  logic [31:0] cyc_q, cyc_d, cycles_q, cycles_d;
  logic        set_done, set_error, wipe;
  logic        ccm, gcm, cmac, xts;
  logic        aad_mode;   // CCM, GCM: AAD read from AAD_ADDR first
  logic        has_tag;     // CCM, GCM, CMAC: a tag (TAG_LEN bytes) written or read
  logic        two_pass;   // CCM, GCM decryption: verify first, then write
  logic        mid;        // a FIRST or MIDDLE part: no tag; ends with the state (CTX)
  logic        tag_rd;     // a received tag is read (CCM/GCM decryption, CMAC verification)
  logic        tag_wr;     // the tag is written (CCM/GCM encryption, CMAC generation)
  logic [255:0] ctx_next;  // CTX after a FIRST / MIDDLE part
  logic        ctx_we;     // SDone: CTX takes ctx_next (FIRST/MIDDLE passed) or 0 (LAST)
  logic        iv_mem;     // GCM: the IV is read from IV_ADDR (IV_LEN not 0 or 12)
  logic        rd_err_any; // the reader failed in this pass (the IV read included)
  logic [3:0]  check_code;

  // engine ports
  logic         e_key_valid, e_key_ready, e_cmd_valid, e_cmd_ready;
  logic [255:0] e_key;
  logic [1:0]   e_key_len;
  logic [3:0]   e_mode;  // a mode code (ak_mode_e)
  logic [1:0]   e_part;  // a part code (ak_part_e)
  logic         e_dec;
  logic [127:0] e_iv;
  logic [31:0]  e_msg_len, e_aad_len;
  logic         e_in_valid, e_in_ready, e_out_valid, e_out_ready, e_out_tag;
  logic [127:0] e_in_data, e_out_data;
  logic         e_sts_valid, e_sts_ready, e_sts_pass, e_sts_error;
  // DMA
  logic         rd_start, rd_busy, rd_err, rd_beat_valid, rd_beat_ready;
  logic [127:0] rd_beat_data;
  logic         wr_start, wr_busy, wr_err, wr_beat_valid, wr_beat_ready;
  logic [127:0] wr_beat_data;
  logic [4:0]   wr_beat_bytes;
  logic [31:0]  wr_len;
  logic [4:0]   pay_bytes;

  assign ccm      = (mode_q == ModeCcm);
  assign gcm      = (mode_q == ModeGcm);
  assign cmac     = (mode_q == ModeCmac);
  assign xts      = (mode_q == ModeXts);
  assign aad_mode = ccm || gcm;
  assign has_tag   = ccm || gcm || cmac;
  assign mid      = (part_q == PartFirst) || (part_q == PartMiddle);
  assign tag_rd   = has_tag && dec_q && !mid;
  assign tag_wr   = has_tag && !dec_q && !mid;
  // (a FIRST / MIDDLE GCM decryption runs once: its plaintext is released before the
  // message's tag is known, docs/coproc.md "Messages in parts")
  assign two_pass = aad_mode && dec_q && !mid;
  assign iv_mem   = gcm && ivlen_q != '0 && ivlen_q != 32'd12;
  assign rd_err_any = rd_err || iverr_q;

  // the key lengths the core takes (code 3: none), and CLEAR's: the largest
  localparam logic [3:0] KeysBuilt   = {1'b0, CoreKeySizes};
  // the modes this build offers (codes 9..15: none)
  localparam logic [15:0] ModesBuilt = {7'd0, Modes};
  localparam logic [1:0] ClearKeyLen = CoreKeySizes[2] ? 2'd2 : CoreKeySizes[1] ? 2'd1 : 2'd0;

  // [a0, a1) and [b0, b1) share a byte (34-bit ends: no wrap)
  function automatic logic overlaps(input logic [33:0] a0, input logic [33:0] a1,
                                    input logic [33:0] b0, input logic [33:0] b1);
    return a0 < b1 && b0 < a1;
  endfunction

  // parameter check of a started job (priority: illegal, zero, align, wrap, overlap).
  // Messages in parts: the engine's rules (ak_mode_cmd), checked here before any bus
  // access: parts only for GCM and CMAC; FIRST / MIDDLE whole blocks, at least one
  // (CMAC: of payload); CMAC: at least one byte in every part; GCM MIDDLE / LAST: no
  // AAD after payload, a consistent context (whole-block byte counts, payload bytes =
  // 16 x payload blocks). And the co-processor's own: a FIRST / MIDDLE part whose
  // totals would not fit CTX's 32-bit counts (only LAST may pass 4 GiB).
  logic        part_bad;
  logic [32:0] aad_tot, pay_tot;
  always_comb begin : check_parts
    aad_tot  = {1'b0, ctx_q[95:64]} + {1'b0, alen_q};
    pay_tot  = {1'b0, ctx_q[63:32]} + {1'b0, len_q};
    part_bad = 1'b0;
    if (part_q != PartWhole) begin
      if (!(gcm || cmac)) part_bad = 1'b1;
      if (mid && ((gcm && alen_q[3:0] != '0) || len_q[3:0] != '0)) part_bad = 1'b1;
      if (cmac && len_q == '0) part_bad = 1'b1;
      if (gcm && mid && alen_q == '0 && len_q == '0) part_bad = 1'b1;
      if (gcm && part_q[1]
          && ((alen_q != '0 && ctx_q[63:32] != '0) || ctx_q[67:64] != '0
              || ctx_q[35:32] != '0 || ctx_q[127:124] != '0
              || ctx_q[63:36] != ctx_q[123:96])) part_bad = 1'b1;
      if (gcm && mid && (aad_tot[32] || pay_tot[32])) part_bad = 1'b1;
    end
  end

  always_comb begin : check
    logic illegal, q_small, wrap, overlap;
    logic [33:0] src_end, dst_end, aad_end, iv_end;
    q_small = (nlen_q == 4'd13 && len_q[31:16] != '0) || (nlen_q == 4'd12 && len_q[31:24] != '0);
    illegal = !ModesBuilt[mode_q] || !KeysBuilt[klen_q]
              || (dec_q && !CoreDirections[1]
                  && (mode_q == ModeEcb || mode_q == ModeCbc || xts))
              || (ccm && (nlen_q < 4'd7 || nlen_q > 4'd13 || tlen_q < 5'd4 || tlen_q > 5'd16
                          || tlen_q[0] || q_small))
              || ((gcm || cmac) && (tlen_q < 5'd4 || tlen_q > 5'd16))
              || (gcm && ivlen_q[31:29] != '0)
              // XTS: AES-128/256 keys; a data unit of 16 bytes or more whose bit count
              // fits 32 bits (LEN = 0 is LEN_ZERO)
              || (xts && (klen_q == 2'd1 || (len_q != '0 && len_q < 32'd16)
                          || len_q[31:29] != '0))
              || part_bad;
    src_end = {2'b00, src_q} + {2'b00, len_q} + (tag_rd ? 34'(tlen_q) : 34'd0);
    dst_end = {2'b00, dst_q} + (cmac ? 34'd0 : {2'b00, len_q}) + (tag_wr ? 34'(tlen_q) : 34'd0);
    aad_end = aad_mode ? {2'b00, aad_q} + {2'b00, alen_q} : 34'd0;
    iv_end  = iv_mem ? {2'b00, ivaddr_q} + {2'b00, ivlen_q} : 34'd0;
    wrap    = src_end > 34'h1_0000_0000 || dst_end > 34'h1_0000_0000
              || aad_end > 34'h1_0000_0000 || iv_end > 34'h1_0000_0000;
    // a two-pass decryption reads its source (with the tag), AAD and IV twice: its
    // destination may be its source exactly (each block is read before it is written
    // over), never any other range it reads
    overlap = two_pass && len_q != '0
              && ((dst_q != src_q && overlaps({2'b00, dst_q}, dst_end, {2'b00, src_q}, src_end))
                  || (alen_q != '0 && overlaps({2'b00, dst_q}, dst_end, {2'b00, aad_q},
                                               aad_end))
                  || (iv_mem && overlaps({2'b00, dst_q}, dst_end, {2'b00, ivaddr_q}, iv_end)));
    if (illegal) begin
      check_code = CoprocErrIllegal;
    end else if (!has_tag && len_q == '0) begin
      check_code = CoprocErrLenZero;
    end else if ((mode_q == ModeEcb || mode_q == ModeCbc) && len_q[3:0] != '0) begin
      check_code = CoprocErrLenAlign;
    end else if (wrap) begin
      check_code = CoprocErrAddrWrap;
    end else if (overlap) begin
      check_code = CoprocErrOverlap;
    end else begin
      check_code = CoprocErrOk;
    end
  end

  // bytes of the next payload beat
  assign pay_bytes = (left_q >= 32'd16) ? 5'd16 : left_q[4:0];
  // writer range: nothing in a verify pass; the payload (none for CMAC), + the tag for
  // CCM/GCM encryption and CMAC generation
  assign wr_len    = !wpass_q ? 32'd0 :
                     (cmac ? 32'd0 : len_q) + (tag_wr ? 32'(tlen_q) : 32'd0);

  // the context after a FIRST / MIDDLE part: the state it returned and, for GCM, the
  // counts plus this part's (payload blocks, AAD bytes, payload bytes); CMAC counts 0
  assign ctx_next = {ctx_q[255:128],
                     gcm ? ctx_q[127:96] + {4'd0, len_q[31:4]} : 32'd0,
                     gcm ? aad_tot[31:0] : 32'd0,
                     gcm ? pay_tot[31:0] : 32'd0,
                     32'd0};

  always_comb begin : fsm
    state_d    = state_q;
    mode_d     = mode_q;
    dec_d      = dec_q;
    klen_d     = klen_q;
    nlen_d     = nlen_q;
    tlen_d     = tlen_q;
    len_d      = len_q;
    alen_d     = alen_q;
    src_d      = src_q;
    dst_d      = dst_q;
    aad_d      = aad_q;
    ivlen_d    = ivlen_q;
    ivaddr_d   = ivaddr_q;
    ivph_d     = ivph_q;
    iverr_d    = iverr_q;
    key_d      = key_q;
    key2_d     = key2_q;
    tag_d      = tag_q;
    iv_d       = iv_q;
    part_d     = part_q;
    ctx_d      = ctx_q;
    ctx_we     = 1'b0;
    wpass_d    = wpass_q;
    sts_seen_d = sts_seen_q;
    sts_pass_d = sts_pass_q;
    sts_err_d  = sts_err_q;
    left_d     = left_q;
    scrub_n_d  = scrub_n_q;
    dirty_d    = dirty_q;
    ran_d      = ran_q;
    code_d     = code_q;
    done_d     = done_q;
    rej_d      = rej_q;
    rej_job_d  = rej_job_q;
    err_code_d = err_code_q;
    clr_pend_d = clr_pend_q || clear_p;
    eng_rst_nd = 1'b1;
    cyc_d      = (state_q == SIdle) ? cyc_q : cyc_q + 32'd1;
    cycles_d   = cycles_q;
    set_done   = 1'b0;
    set_error  = 1'b0;
    wipe       = 1'b0;
    rd_start   = 1'b0;
    wr_start   = 1'b0;
    e_key_valid = 1'b0;
    e_key       = key_q;
    e_key_len   = klen_q;
    e_cmd_valid = 1'b0;
    e_mode      = mode_q;
    e_dec       = dec_q;
    e_msg_len   = xts ? {len_q[28:0], 3'b000} : len_q;  // XTS: the data unit in bits
    e_aad_len   = aad_mode ? alen_q : 32'd0;
    e_sts_ready = 1'b0;

    unique case (state_q)
      SIdle: begin
        if (clear_p || clr_pend_q) begin
          // wipe: engine reset, key/IV/DMA buffers and job registers zeroed
          clr_pend_d = 1'b0;
          eng_rst_nd = 1'b0;
          wipe       = 1'b1;
          rej_d      = 1'b0;
          mode_d = '0; dec_d = 1'b0; klen_d = '0; nlen_d = '0; tlen_d = '0;
          len_d  = '0; alen_d = '0; src_d = '0; dst_d = '0; aad_d = '0;
          ivlen_d = '0; ivaddr_d = '0;
          key_d  = '0; key2_d = '0; tag_d = '0; iv_d = '0;
          part_d = PartWhole; ctx_d = '0; ran_d = 1'b0;
          state_d    = SClrKey;
        end else if (start_p) begin
          mode_d     = {hwif_out.CTRL.MODE_HI.value, hwif_out.CTRL.MODE.value};
          dec_d      = hwif_out.CTRL.DECRYPT.value;
          klen_d     = hwif_out.CTRL.KEY_LEN.value;
          nlen_d     = hwif_out.CCM.NONCE_LEN.value;
          tlen_d     = hwif_out.CCM.TAG_LEN.value;
          len_d      = hwif_out.LEN.LEN.value;
          alen_d     = hwif_out.AAD_LEN.LEN.value;
          src_d      = hwif_out.SRC_ADDR.ADDR.value;
          dst_d      = hwif_out.DST_ADDR.ADDR.value;
          aad_d      = hwif_out.AAD_ADDR.ADDR.value;
          ivlen_d    = hwif_out.IV_LEN.LEN.value;
          ivaddr_d   = hwif_out.IV_ADDR.ADDR.value;
          key_d      = reg_key;
          key2_d     = reg_key2;
          tag_d      = '0;
          iv_d       = reg_iv;
          part_d     = hwif_out.CTRL.PART.value;
          ctx_d      = hwif_out.CTRL.PART.value[1] ? reg_ctx : '0;  // MIDDLE, LAST
          done_d     = 1'b0;
          ran_d      = 1'b0;
          rej_d      = 1'b0;
          rej_job_d  = 1'b0;
          cyc_d      = 32'd1;
          state_d    = SCheck;
        end
      end
      SCheck: begin
        code_d  = check_code;
        wpass_d = !two_pass;
        ran_d   = (check_code == CoprocErrOk);
        state_d = (check_code != CoprocErrOk) ? SDone : SKey;
      end
      SKey: begin
        e_key_valid = 1'b1;
        if (e_key_ready) begin
          state_d = SCmd;
        end
      end
      SCmd: begin
        e_cmd_valid = 1'b1;
        if (e_cmd_ready) begin
          // GCM with the IV in memory: the reader reads it first (SIvRd), then the
          // AAD, payload and tag
          rd_start   = 1'b1;
          wr_start   = 1'b1;
          left_d     = len_q;
          sts_seen_d = 1'b0;
          ivph_d     = iv_mem;
          iverr_d    = 1'b0;
          state_d    = iv_mem ? SIvRd : SRun;
        end
      end
      SIvRd: begin
        // the IV's beats go to the engine; the reader's error flag restarts below
        if (!rd_busy) begin
          iverr_d = rd_err;
          ivph_d  = 1'b0;
          state_d = SIvGo;
        end
      end
      SIvGo: begin
        rd_start = 1'b1;
        state_d  = SRun;
      end
      SRun: begin
        e_sts_ready = 1'b1;
        if (e_sts_valid) begin
          sts_seen_d = 1'b1;
          sts_pass_d = e_sts_pass;
          sts_err_d  = e_sts_error;
        end
        if (e_out_valid && e_out_ready && !e_out_tag) begin
          left_d = left_q - 32'(pay_bytes);
        end
        if (e_out_valid && e_out_ready && e_out_tag) begin
          // FIRST / MIDDLE: the state beat, to the context only (not TAG, not memory)
          if (mid) begin
            ctx_d[255:128] = e_out_data;
            dirty_d        = 1'b1;
          end else begin
            tag_d = e_out_data;
          end
        end
        if (sts_seen_q && !rd_busy && !wr_busy) begin
          if (rd_err_any) begin
            code_d = CoprocErrDmaRead;
          end else if (wr_err) begin
            code_d = CoprocErrDmaWrite;
          end else if (sts_err_q) begin
            code_d = CoprocErrIllegal;
          end else if (!sts_pass_q) begin
            code_d = CoprocErrTag;
          end
          if (!wpass_q) begin
            // CCM/GCM verify pass: run again, writing, only if everything passed
            if (rd_err_any || !sts_pass_q || sts_err_q) begin
              state_d = SDone;
            end else begin
              wpass_d = 1'b1;
              state_d = SCmd;
            end
          end else if (two_pass && (rd_err_any || !sts_pass_q || sts_err_q)) begin
            // pass 2 failed after all: overwrite the plaintext written
            wr_start = 1'b1;
            left_d   = len_q;
            state_d  = SZero;
          end else begin
            state_d = SDone;
          end
        end
      end
      SZero: begin
        if (wr_beat_valid && wr_beat_ready) begin
          left_d = left_q - 32'(pay_bytes);
        end
        if (left_q == '0) begin
          state_d = SZeroWait;
        end
      end
      SZeroWait: begin
        if (!wr_busy) begin
          state_d = SDone;
        end
      end
      SDone: begin
        // a START sampled in this cycle (BUSY still reads 1) is rejected like any
        // other START while BUSY (the check below): it counts for this job's code
        done_d     = 1'b1;
        err_code_d = (code_q == CoprocErrOk && (rej_job_q || start_p)) ? CoprocErrBusy : code_q;
        set_done   = 1'b1;
        set_error  = (code_q != CoprocErrOk) || rej_job_q || start_p;
        cycles_d   = cyc_q;
        // CTX: a FIRST / MIDDLE part that passed leaves the next part's context; a
        // LAST part zeroes it; a failed FIRST / MIDDLE part leaves it as it was
        ctx_we     = ran_q && ((mid && code_q == CoprocErrOk) || part_q == PartLast);
        ctx_d      = '0;
        state_d    = SIdle;
      end
      // CLEAR: a zero key into the core, then one zero block through it. The key is a
      // 256-bit one, so that its schedule rewrites every round-key slot (a 128-bit
      // zero key left round keys 11..14 of an old 256-bit key in the core's RAM); on
      // a core built without AES-256, the largest size it takes
      SClrKey: begin
        e_key_valid = 1'b1;
        e_key       = '0;
        e_key_len   = ClearKeyLen;
        if (e_key_ready) begin
          state_d = SClrCmd;
        end
      end
      SClrCmd: begin
        e_cmd_valid = 1'b1;
        e_mode      = ModeEcb;
        e_dec       = 1'b0;
        e_msg_len   = dirty_q ? 32'(16 * ScrubBlocks) : 32'd16;
        e_aad_len   = '0;
        if (e_cmd_ready) begin
          scrub_n_d  = dirty_q ? ScrubW'(ScrubBlocks) : ScrubW'(1);
          dirty_d    = 1'b0;
          state_d    = SClrRun;
        end
      end
      SClrRun: begin
        // the status waits for the write FIFO's zero walk (17 cycles from the wipe;
        // it has always ended by then: the zero key's setup alone takes longer)
        e_sts_ready = !wr_busy;
        if (e_in_valid && e_in_ready) begin
          scrub_n_d = scrub_n_q - ScrubW'(1);
        end
        if (e_sts_valid && !wr_busy) begin
          state_d = SIdle;
        end
      end
      default: state_d = SIdle;
    endcase

    // a START while busy (or together with a CLEAR) is rejected
    if (start_p && (state_q != SIdle || clear_p || clr_pend_q)) begin
      rej_d     = 1'b1;
      rej_job_d = 1'b1;
    end
  end

  // engine data paths: the reader feeds it (CLEAR: one zero block); its output goes to
  // the writer in a writing pass, is dropped in the CCM verify pass and in CLEAR
  assign e_iv          = (state_q == SClrCmd) ? '0 : iv_q;
  assign e_part        = (state_q == SClrCmd) ? PartWhole : part_q;
  assign e_in_valid    = (state_q == SClrRun) ? (scrub_n_q != '0) : rd_beat_valid;
  assign e_in_data     = (state_q == SClrRun) ? '0 : rd_beat_data;
  assign rd_beat_ready = e_in_ready && (state_q != SClrRun);
  // (a FIRST / MIDDLE part's state beat is taken without the writer)
  assign e_out_ready   = (state_q == SRun && wpass_q && !(mid && e_out_tag)) ? wr_beat_ready
                         : 1'b1;
  assign wr_beat_valid = (state_q == SRun && wpass_q && e_out_valid && !(mid && e_out_tag))
                         || (state_q == SZero && left_q != '0);
  assign wr_beat_data  = (state_q == SZero) ? '0 : e_out_data;
  assign wr_beat_bytes = (state_q == SRun && e_out_tag) ? tlen_q : pay_bytes;

  // ------------------------------------------------------------------------------
  // Status, interrupt
  // ------------------------------------------------------------------------------
  always_comb begin : status
    hwif_in.STATUS.BUSY.next     = (state_q != SIdle) || clr_pend_q;
    hwif_in.STATUS.DONE.next     = done_q;
    hwif_in.STATUS.REJECTED.next = rej_q;
    hwif_in.STATUS.ERR_CODE.next = err_code_q;
    hwif_in.INTR_STATE.DONE.hwset  = set_done;
    hwif_in.INTR_STATE.ERROR.hwset = set_error;
    hwif_in.CYCLES.COUNT.next    = cycles_q;
    for (int i = 0; i < 4; i++) begin
      hwif_in.IV[i].W.hwclr = wipe;
    end
    for (int i = 0; i < 8; i++) begin
      hwif_in.KEY[i].W.hwclr  = wipe;
      hwif_in.TWEAK_KEY[i].W.hwclr = wipe;
      hwif_in.CTX[i].W.hwclr  = wipe;
      hwif_in.CTX[i].W.we     = ctx_we;
      // CTX[0] holds context bytes 0..3 (byte 0 in [7:0]); LAST writes 0
      for (int b = 0; b < 4; b++) begin
        hwif_in.CTX[i].W.next[8*b +: 8] = (part_q == PartLast) ? 8'd0
                                          : ctx_next[255 - 32*i - 8*b -: 8];
      end
    end
    // TAG[0] holds tag bytes 0..3 (byte 0 in [7:0])
    for (int i = 0; i < 4; i++) begin
      for (int b = 0; b < 4; b++) begin
        hwif_in.TAG[i].W.next[8*b +: 8] = tag_q[127 - 32*i - 8*b -: 8];
      end
    end
  end

  assign irq_o = hwif_out.CTRL.IRQ_EN.value
                 && (hwif_out.INTR_STATE.DONE.value || hwif_out.INTR_STATE.ERROR.value);

  // ------------------------------------------------------------------------------
  // Engine (one stream), reset again by CLEAR
  // ------------------------------------------------------------------------------
  logic eng_rst_n;
  assign eng_rst_n = rst_ni && eng_rst_nq;

  // the modes of Modes; without GCM, CMAC and XTS their logic is not built
  ak_mode_engine #(.Streams(1), .CoreTagWidth(1), .Modes(Modes), .AeadModes(|Modes[8:6]),
                   .CoreInReg(2), .InFlight(InFlight), .Parts(1'b1),
                   .CoreDirections(CoreDirections),
                   .CoreKeySizes(CoreKeySizes)) u_engine (
    .clk_i            (clk_i),
    .rst_ni           (eng_rst_n),
    .key_valid_i      (e_key_valid),
    .key_ready_o      (e_key_ready),
    .key_i            (e_key),
    .key2_i           (key2_q),
    .key_len_i        (e_key_len),
    .cmd_valid_i      (e_cmd_valid),
    .cmd_ready_o      (e_cmd_ready),
    .cmd_mode_i       (e_mode),
    .cmd_decrypt_i    (e_dec),
    .cmd_iv_i         (e_iv),
    .cmd_iv_len_i     (iv_mem ? ivlen_q : 32'd12),
    .cmd_nonce_len_i  (nlen_q),
    .cmd_tag_len_i    (tlen_q),
    .cmd_aad_len_i    (e_aad_len),
    .cmd_msg_len_i    (e_msg_len),
    .cmd_part_i       (e_part),
    .cmd_ctx_i        (ctx_q),
    .in_valid_i       (e_in_valid),
    .in_ready_o       (e_in_ready),
    .in_data_i        (e_in_data),
    .out_valid_o      (e_out_valid),
    .out_ready_i      (e_out_ready),
    .out_data_o       (e_out_data),
    .out_tag_o        (e_out_tag),
    .sts_valid_o      (e_sts_valid),
    .sts_ready_i      (e_sts_ready),
    .sts_pass_o       (e_sts_pass),
    .sts_error_o      (e_sts_error),
    .core_key_valid_o (core_key_valid_o),
    .core_key_ready_i (core_key_ready_i),
    .core_key_o       (core_key_o),
    .core_key_len_o   (core_key_len_o),
    .core_in_valid_o  (core_in_valid_o),
    .core_in_ready_i  (core_in_ready_i),
    .core_in_data_o   (core_in_data_o),
    .core_in_decrypt_o(core_in_decrypt_o),
    .core_in_tag_o    (core_in_tag_o),
    .core_out_valid_i (core_out_valid_i),
    .core_out_ready_o (core_out_ready_o),
    .core_out_data_i  (core_out_data_i),
    .core_out_tag_i   (core_out_tag_i)
  );

  // ------------------------------------------------------------------------------
  // DMA
  // ------------------------------------------------------------------------------
  logic [2:0][31:0] seg_addr, seg_len;
  // segments: AAD, payload, received tag; in SIvRd only the GCM IV (as segment 0)
  assign seg_addr[0] = ivph_q ? ivaddr_q : aad_q;
  assign seg_len[0]  = ivph_q ? ivlen_q : aad_mode ? alen_q : 32'd0;
  assign seg_addr[1] = src_q;
  assign seg_len[1]  = ivph_q ? 32'd0 : len_q;
  assign seg_addr[2] = src_q + len_q;
  assign seg_len[2]  = (tag_rd && !ivph_q) ? 32'(tlen_q) : 32'd0;

  ak_coproc_rd #(.DataWidth(DataWidth), .IdWidth(IdWidth), .MaxReads(MaxReads)) u_rd (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (rd_start),
    .seg_addr_i   (seg_addr),
    .seg_len_i    (seg_len),
    .wipe_i       (wipe),
    .busy_o       (rd_busy),
    .err_o        (rd_err),
    .beat_valid_o (rd_beat_valid),
    .beat_ready_i (rd_beat_ready),
    .beat_data_o  (rd_beat_data),
    .m_axi_arid   (m_axi_arid),
    .m_axi_araddr (m_axi_araddr),
    .m_axi_arlen  (m_axi_arlen),
    .m_axi_arsize (m_axi_arsize),
    .m_axi_arburst(m_axi_arburst),
    .m_axi_arvalid(m_axi_arvalid),
    .m_axi_arready(m_axi_arready),
    .m_axi_rid    (m_axi_rid),
    .m_axi_rdata  (m_axi_rdata),
    .m_axi_rresp  (m_axi_rresp),
    .m_axi_rlast  (m_axi_rlast),
    .m_axi_rvalid (m_axi_rvalid),
    .m_axi_rready (m_axi_rready)
  );

  ak_coproc_wr #(.DataWidth(DataWidth), .IdWidth(IdWidth), .MaxWrites(MaxWrites)) u_wr (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .start_i      (wr_start),
    .addr_i       (dst_q),
    .len_i        (wr_len),
    .wipe_i       (wipe),
    .busy_o       (wr_busy),
    .err_o        (wr_err),
    .beat_valid_i (wr_beat_valid),
    .beat_ready_o (wr_beat_ready),
    .beat_data_i  (wr_beat_data),
    .beat_bytes_i (wr_beat_bytes),
    .m_axi_awid   (m_axi_awid),
    .m_axi_awaddr (m_axi_awaddr),
    .m_axi_awlen  (m_axi_awlen),
    .m_axi_awsize (m_axi_awsize),
    .m_axi_awburst(m_axi_awburst),
    .m_axi_awvalid(m_axi_awvalid),
    .m_axi_awready(m_axi_awready),
    .m_axi_wdata  (m_axi_wdata),
    .m_axi_wstrb  (m_axi_wstrb),
    .m_axi_wlast  (m_axi_wlast),
    .m_axi_wvalid (m_axi_wvalid),
    .m_axi_wready (m_axi_wready),
    .m_axi_bid    (m_axi_bid),
    .m_axi_bresp  (m_axi_bresp),
    .m_axi_bvalid (m_axi_bvalid),
    .m_axi_bready (m_axi_bready)
  );

  assign m_axi_awlock  = 1'b0;
  assign m_axi_awcache = 4'b0011;
  assign m_axi_awprot  = 3'b000;
  assign m_axi_arlock  = 1'b0;
  assign m_axi_arcache = 4'b0011;
  assign m_axi_arprot  = 3'b000;

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      state_q    <= SIdle;
      mode_q     <= '0;
      dec_q      <= 1'b0;
      klen_q     <= '0;
      nlen_q     <= '0;
      tlen_q     <= '0;
      len_q      <= '0;
      alen_q     <= '0;
      src_q      <= '0;
      dst_q      <= '0;
      aad_q      <= '0;
      ivlen_q    <= '0;
      ivaddr_q   <= '0;
      ivph_q     <= 1'b0;
      iverr_q    <= 1'b0;
      key_q      <= '0;
      key2_q     <= '0;
      tag_q      <= '0;
      iv_q       <= '0;
      part_q     <= PartWhole;
      ctx_q      <= '0;
      wpass_q    <= 1'b0;
      sts_seen_q <= 1'b0;
      sts_pass_q <= 1'b0;
      sts_err_q  <= 1'b0;
      left_q     <= '0;
      scrub_n_q  <= '0;
      dirty_q    <= 1'b0;
      ran_q      <= 1'b0;
      code_q     <= '0;
      done_q     <= 1'b0;
      rej_q      <= 1'b0;
      rej_job_q  <= 1'b0;
      err_code_q <= '0;
      clr_pend_q <= 1'b0;
      eng_rst_nq <= 1'b1;
      cyc_q      <= '0;
      cycles_q   <= '0;
    end else begin
      state_q    <= state_d;
      mode_q     <= mode_d;
      dec_q      <= dec_d;
      klen_q     <= klen_d;
      nlen_q     <= nlen_d;
      tlen_q     <= tlen_d;
      len_q      <= len_d;
      alen_q     <= alen_d;
      src_q      <= src_d;
      dst_q      <= dst_d;
      aad_q      <= aad_d;
      ivlen_q    <= ivlen_d;
      ivaddr_q   <= ivaddr_d;
      ivph_q     <= ivph_d;
      iverr_q    <= iverr_d;
      key_q      <= key_d;
      key2_q     <= key2_d;
      tag_q      <= tag_d;
      iv_q       <= iv_d;
      part_q     <= part_d;
      ctx_q      <= ctx_d;
      wpass_q    <= wpass_d;
      sts_seen_q <= sts_seen_d;
      sts_pass_q <= sts_pass_d;
      sts_err_q  <= sts_err_d;
      left_q     <= left_d;
      scrub_n_q  <= scrub_n_d;
      dirty_q    <= dirty_d;
      ran_q      <= ran_d;
      code_q     <= code_d;
      done_q     <= done_d;
      rej_q      <= rej_d;
      rej_job_q  <= rej_job_d;
      err_code_q <= err_code_d;
      clr_pend_q <= clr_pend_d;
      eng_rst_nq <= eng_rst_nd;
      cyc_q      <= cyc_d;
      cycles_q   <= cycles_d;
    end
  end

endmodule
`default_nettype wire
