// ak_axis_core: AES over AXI4-Stream for ANY contract core (docs/axis_core.md).
//
// s_axis_* takes plaintext (or ciphertext) packets, m_axis_* returns the result
// packets; one packet is one message of the mode set in the AXI4-Lite register block
// (s_axil_*, generated from axis_core.rdl): ECB, CBC, CTR, CFB-128 or OFB (chunked,
// below) or CCM, GCM/GMAC, CMAC, XTS (lengths from LEN, below), encryption or
// decryption (CMAC: generation or verification), key (XTS: and TWEAK_KEY) and IV from
// the registers. The mode engine (ak_mode_engine, one stream) runs the mode; the core
// is outside, on the core contract master ports core_* (docs/core-contract.md), so any
// registry core fits (ak_axis_sys.sv.tpl).
//
// Packets and chunks (ECB..OFB). The mode engine needs a message length at command
// time; an AXI4-Stream packet announces its end only with tlast. So the packet goes to
// the engine in chunks: beats are buffered in an input FIFO (FifoDepth beats); when
// the engine is idle, the beats in the FIFO up to the packet's tlast (and before a bad
// beat) form one engine command (msg_len = their bytes), and the chaining value
// (CBC/CFB: last ciphertext, OFB: last keystream block, CTR: counter + beats) is
// carried from chunk to chunk here, so a packet of any length is exactly one message
// of its mode. The chunk former does not read every FIFO entry: at push time the beats
// are cut into segments (ending at tlast or at a bad beat), whose lengths wait in a
// small ak_fifo beside the beats (the open segment's in a counter), so FifoDepth can
// be large (above 64 the FIFO reads registered: block RAM). PlainStream = 1 (for deep
// pipelines): while a chunk runs, the packet's beats that arrive extend it (the
// engine's PlainStream), so a packet fed without gaps is ONE engine message, at one
// block per cycle into the core, paying the core's latency once per packet instead of
// once per chunk; a chunk ends where the FIFO runs dry before tlast.
//
// Whole packets (CCM 5, GCM/GMAC 6, CMAC 7, XTS 8 = MODE_HI): CCM needs the lengths at
// its start and no state carries between engine messages, so the packet is ONE engine
// message of the lengths in LEN (payload p, AAD a, tag t; CCM: CCM.NONCE_LEN, the nonce
// in IV; XTS: one data unit of p >= 16 bytes, the tweak in IV, the engine's length in
// bits, no tag), issued at its first beat. The packet carries the AAD beats (CCM, GCM),
// the payload beats, then (decryption / verification) the tag beat, each part from a
// fresh beat, its last beat partial (tkeep contiguous from lane 0); an empty message
// is one null beat (tkeep 0, tlast). Each beat is checked against the lengths (its
// tkeep, and tlast only on the last one); one that disagrees (ERROR.LENGTH) ends the
// packet's input: the engine message is completed with zero beats (output discarded,
// at most ceil(a/16) + ceil(p/16) + 1 beats at the engine's rate), then the packet
// error rule below. Output: the payload beats, then (encryption / generation) the tag
// beat (tkeep lanes 0..t-1, tlast); decryption / verification hold the last payload
// beat until the engine's verdict and send it with tlast and m_axis_tuser = tag failed
// (ERROR.TAG; no payload: a null beat): released plaintext cannot be taken back
// (HoldBeats > 0 holds a packet that fits until its verdict, below). XTS:
// the payload beats, the last with tlast; refused (ERROR.MODE) with a 192-bit key
// loaded or when decrypting on an encrypt-only core.
// MODE, MODE_HI, DECRYPT, IV, LEN and CCM are taken at the first beat of every packet
// (every packet starts from IV); KEY, TWEAK_KEY and KEY_LEN at CTRL.LOAD_KEY, between
// packets.
//
// Key slots (KeySlots > 1). KeySlots keys (KEY, TWEAK_KEY, KEY_LEN) are kept in a slot
// memory (distributed RAM, no reset; valid flags and lengths in flip-flops); a packet's
// slot is the s_axis_tdest of its first beat, and every output beat carries it on
// m_axis_tdest. LOAD_KEY stores into slot CTRL.KEY_SLOT: at once if that slot's key is
// not in the core, else at the packet boundary, into the core and the slot at once. A
// packet on a slot without a key is refused (ERROR.NO_KEY); on a slot other than the
// core's, the control first loads that slot's key into the core (StKey: the engine's
// key port, the core's key setup), then starts the packet as usual. Switch latency per
// core: docs/axis_core.md, "Key slots". There is no key wipe (no CLEAR); reset empties
// the slots (valid flags), not the memory. KeySlots = 1 is the wrapper without slots,
// cycle for cycle (KEY straight into the core, no memory, s_axis_tdest ignored).
//
// tkeep (ECB..OFB). Every beat has tkeep all ones except the tlast beat, which may be
// partial (contiguous from lane 0, at least one byte) in CTR, CFB and OFB: its output
// beat has the same tkeep (unused lanes zero). Anything else is a packet error
// (ERROR.KEEP, a partial beat in ECB/CBC: ERROR.PARTIAL, a packet in an unsupported
// mode: ERROR.MODE, a packet without a key: ERROR.NO_KEY; whole packets: ERROR.LENGTH
// above): the output beats of the packet already sent stay sent, the rest of the input
// packet (through its tlast) is dropped, and the output packet is closed by one
// all-zero beat with tkeep all ones, tlast and m_axis_tuser = 1. So every input packet
// gives exactly one output packet, and nothing hangs. m_axis_tuser is 0 on every other
// beat but a failed tag's last beat.
//
// Byte order (AXI4-Stream byte lanes): lane i (tdata[8i+7:8i], tkeep[i]) holds byte
// i of the block, i.e. FIPS-197 byte 0 is in tdata[7:0]; the core contract's order
// (byte 0 in [127:120]) is made here. Registers: the byte at the lowest address is
// byte 0, in bits [7:0] of its word (KEY[0] = key bytes 0..3).
//
// Timing. s_axis_tready = FIFO (and segment FIFO) not full (registered); m_axis_*
// come from the engine's output FIFO (registered). Per chunk: one cycle to form it, the
// engine command, the blocks at the engine's rate for the mode (docs/modes.md), the
// status; a new packet costs one cycle more (sampling MODE/IV). PlainStream: an
// extension costs no cycle; ttable_unrolled: latency 90, one beat per cycle. Whole packets: the command one cycle after
// the first beat is taken, then the engine's rate; decryption's last beat one cycle
// after the status. Latency and throughput on the tested cores: docs/axis_core.md. Every
// register is reset by rst_ni (asynchronous, active low).
//
// Parameters:
//   DataWidth     tdata width, 128 only (checked at elaboration).
//   AddrWidth     s_axil address width (>= 7); the low 7 bits select the register.
//   FifoDepth     input FIFO beats (>= 1; 4 by default): the largest chunk without
//                 PlainStream; above 64 a registered-read ak_fifo (block RAM, one
//                 cycle more from push to the FIFO head, hidden by the packet start).
//   InFlight      the mode engine's: blocks of an independent flow kept in the core
//                 (ak_axis_sys sets it from the core's registry latency and interval,
//                 plus the two of the engine's input slice).
//   CoreTagWidth  width of the core's tag ports (build the core with it).
//   KeyLens       key sizes the core has, bit i for KEY_LEN code i (0 128, 1 192,
//                 2 256 bits); LOAD_KEY of another size is refused (ERROR.KEY_LEN),
//                 so a core never gets a key it cannot use (the template sets it
//                 from the registry).
//   Decrypts      the core decrypts (its Directions has bit 1; the template sets it
//                 from the registry): 0 refuses an ECB or CBC decryption packet with
//                 ERROR.MODE, as an XTS decryption packet (CTR, CFB, OFB, CCM, GCM and
//                 CMAC use the forward cipher only).
//   Modes         the modes built, bit i for mode code i: 9'h1ff (all) by default,
//                 9'h01f the small ECB..OFB wrapper (the engine without CCM, GHASH,
//                 the MAC and XTS units). A packet in a mode left out: ERROR.MODE.
//   HoldBeats     0 (default): decryption's plaintext streams out before the tag is
//                 checked (the last beat flagged). H = 1..4095: a CCM/GCM decryption
//                 packet of up to H payload beats is held in an ak_fifo (held entries)
//                 until the verdict: released after a matching tag, dropped after a
//                 failed one (the output packet is one null beat, tuser = 1).
//   PlainStream   0 (default): ECB..OFB chunks as above, the engine one beat every
//                 two cycles at most. 1: the engine's PlainStream (a beat per cycle)
//                 and chunks extended while they run (a packet as one message);
//                 ak_axis_sys sets it on cores of more than two blocks in flight.
//   KeySlots      1 (default), 2, 4 or 8: key slots picked per packet by s_axis_tdest
//                 (SlotW = max(1, log2 KeySlots) bits, as m_axis_tdest); ak_axis_sys: 4.

`default_nettype none

module ak_axis_core
  import ak_axis_core_regs_pkg::*;
  import ak_mode_codes_pkg::*;  // mode codes (ak_mode_e)
#(
  parameter int DataWidth    = 128,
  parameter int AddrWidth    = 32,
  parameter int FifoDepth    = 4,
  parameter int InFlight     = 4,
  parameter int CoreTagWidth = 1,
  parameter logic [2:0] KeyLens = 3'b111,
  parameter bit         Decrypts = 1'b1,
  parameter logic [8:0] Modes = 9'h1ff,
  parameter int         HoldBeats = 0,
  parameter bit         PlainStream = 1'b0,
  parameter int         KeySlots = 1,
  localparam int        SlotW = (KeySlots > 1) ? $clog2(KeySlots) : 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // AXI4-Lite register slave
  output logic                    s_axil_awready,
  input  logic                    s_axil_awvalid,
  input  logic [AddrWidth-1:0]    s_axil_awaddr,
  input  logic [2:0]              s_axil_awprot,
  output logic                    s_axil_wready,
  input  logic                    s_axil_wvalid,
  input  logic [31:0]             s_axil_wdata,
  input  logic [3:0]              s_axil_wstrb,
  input  logic                    s_axil_bready,
  output logic                    s_axil_bvalid,
  output logic [1:0]              s_axil_bresp,
  output logic                    s_axil_arready,
  input  logic                    s_axil_arvalid,
  input  logic [AddrWidth-1:0]    s_axil_araddr,
  input  logic [2:0]              s_axil_arprot,
  input  logic                    s_axil_rready,
  output logic                    s_axil_rvalid,
  output logic [31:0]             s_axil_rdata,
  output logic [1:0]              s_axil_rresp,
  // AXI4-Stream in
  input  logic                    s_axis_tvalid,
  output logic                    s_axis_tready,
  input  logic [DataWidth-1:0]    s_axis_tdata,
  input  logic [DataWidth/8-1:0]  s_axis_tkeep,
  input  logic                    s_axis_tlast,
  input  logic [SlotW-1:0]        s_axis_tdest,   // the packet's key slot (first beat)
  // AXI4-Stream out
  output logic                    m_axis_tvalid,
  input  logic                    m_axis_tready,
  output logic [DataWidth-1:0]    m_axis_tdata,
  output logic [DataWidth/8-1:0]  m_axis_tkeep,
  output logic                    m_axis_tlast,
  output logic                    m_axis_tuser,
  output logic [SlotW-1:0]        m_axis_tdest,   // the packet's key slot
  // the core (core contract, master side)
  output logic                    core_key_valid_o,
  input  logic                    core_key_ready_i,
  output logic [255:0]            core_key_o,
  output logic [1:0]              core_key_len_o,
  output logic                    core_in_valid_o,
  input  logic                    core_in_ready_i,
  output logic [127:0]            core_in_data_o,
  output logic                    core_in_decrypt_o,
  output logic [CoreTagWidth-1:0] core_in_tag_o,
  input  logic                    core_out_valid_i,
  output logic                    core_out_ready_o,
  input  logic [127:0]            core_out_data_i,
  input  logic [CoreTagWidth-1:0] core_out_tag_i
);

  localparam int RegAddrWidth = AK_AXIS_CORE_REGS_MIN_ADDR_WIDTH;
  localparam int CntWidth     = $clog2(FifoDepth + 1);
  // a chunk's beats: at most the FIFO's, or (PlainStream: extended while it runs) any
  localparam int KWidth       = PlainStream ? 32 : CntWidth;

  if (DataWidth != 128) begin : g_bad_width
    $fatal(1, "ak_axis_core: DataWidth must be 128, got %0d", DataWidth);
  end
  if (AddrWidth < RegAddrWidth) begin : g_bad_addr
    $fatal(1, "ak_axis_core: AddrWidth must be >= %0d, got %0d", RegAddrWidth, AddrWidth);
  end
  if (HoldBeats < 0 || HoldBeats > 4095) begin : g_bad_hold
    $fatal(1, "ak_axis_core: HoldBeats must be 0..4095, got %0d", HoldBeats);
  end
  if (FifoDepth < 1) begin : g_bad_depth
    $fatal(1, "ak_axis_core: FifoDepth must be >= 1, got %0d", FifoDepth);
  end
  if (KeySlots != 1 && KeySlots != 2 && KeySlots != 4 && KeySlots != 8) begin : g_bad_slots
    $fatal(1, "ak_axis_core: KeySlots must be 1, 2, 4 or 8, got %0d", KeySlots);
  end

  import ak_mode_pkg::lanes_swap, ak_mode_pkg::keep_of;

  // register word (byte 0 in [7:0]) -> core order (byte 0 in [31:24])
  function automatic logic [31:0] bswap(input logic [31:0] w);
    return {w[7:0], w[15:8], w[23:16], w[31:24]};
  endfunction

  // ------------------------------------------------------------------------------
  // Register block
  // ------------------------------------------------------------------------------
  ak_axis_core_regs__in_t  hwif_in;
  ak_axis_core_regs__out_t hwif_out;

  ak_axis_core_regs u_regs (
    .clk           (clk_i),
    .arst_n        (rst_ni),
    .s_axil_awready(s_axil_awready),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awaddr (s_axil_awaddr[RegAddrWidth-1:0]),
    .s_axil_awprot (s_axil_awprot),
    .s_axil_wready (s_axil_wready),
    .s_axil_wvalid (s_axil_wvalid),
    .s_axil_wdata  (s_axil_wdata),
    .s_axil_wstrb  (s_axil_wstrb),
    .s_axil_bready (s_axil_bready),
    .s_axil_bvalid (s_axil_bvalid),
    .s_axil_bresp  (s_axil_bresp),
    .s_axil_arready(s_axil_arready),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_araddr (s_axil_araddr[RegAddrWidth-1:0]),
    .s_axil_arprot (s_axil_arprot),
    .s_axil_rready (s_axil_rready),
    .s_axil_rvalid (s_axil_rvalid),
    .s_axil_rdata  (s_axil_rdata),
    .s_axil_rresp  (s_axil_rresp),
    .hwif_in       (hwif_in),
    .hwif_out      (hwif_out)
  );

  logic [255:0] key_regs, tkey_regs;
  logic [127:0] iv_regs;
  for (genvar i = 0; i < 8; i++) begin : g_key
    assign key_regs[255 - 32*i -: 32]  = bswap(hwif_out.KEY[i].W.value);
    assign tkey_regs[255 - 32*i -: 32] = bswap(hwif_out.TWEAK_KEY[i].W.value);
  end
  for (genvar i = 0; i < 4; i++) begin : g_iv
    assign iv_regs[127 - 32*i -: 32] = bswap(hwif_out.IV[i].W.value);
  end

  // ------------------------------------------------------------------------------
  // Input FIFO: each beat (core order) with its flags -- valid bytes, tlast, tkeep
  // contiguous from lane 0 -- in ak_fifo u_fd (head hd_*: what the whole-packet
  // checks and the drop read). Beside it, written at push time, the bookkeeping the
  // chunk former reads instead of every entry: beats form segments, a segment ending
  // at a tlast beat or at a bad beat (tkeep not contiguous, empty, or partial without
  // tlast); the closed segments' lengths (beats still in the FIFO), end flag and last
  // beat's bytes wait in ak_fifo u_sg, the open segment's beats are counted in open_q.
  // A pop takes the head segment's first beat (used_q counts those taken from the
  // closed head segment). Deep FIFOs (FifoDepth > 64) read registered: block RAM.
  // ------------------------------------------------------------------------------
  localparam bit FifoRegRead = (FifoDepth > 64);

  localparam int SegDepth    = (FifoDepth < 16) ? FifoDepth : 16;
  localparam int SegWidth    = CntWidth + 6;  // {beats, bad end, bytes of the last beat}

  logic [127:0]        hd_data;
  logic [4:0]          hd_n;                 // head beat: valid bytes
  logic                hd_last, hd_contig;   // head beat: tlast, tkeep contiguous
  logic                fd_valid, fd_full;
  logic [CntWidth-1:0] fd_count;
  logic                push, pop;
  logic [4:0]          in_n;
  logic                in_bad, in_contig;

  always_comb begin : keep_check
    in_n = '0;
    for (int i = 0; i < 16; i++) in_n = in_n + 5'(s_axis_tkeep[i]);
    in_contig = (s_axis_tkeep == keep_of(in_n));  // all zero counts as contiguous
    in_bad = (in_n == 5'd0) || !in_contig ||
             ((in_n != 5'd16) && !s_axis_tlast);
  end

  logic sg_valid, sg_full, sg_push, sg_pop, unused_sg;
  logic [SegWidth-1:0] sg_in, sg_head;
  logic [$clog2(SegDepth + 1)-1:0] sg_count;
  logic [CntWidth-1:0] sg_len;               // head segment: its beats in the FIFO
  logic                sg_bad;               // it ends at a bad beat (else at tlast)
  logic [4:0]          sg_n;                 // its last beat's bytes
  logic [CntWidth-1:0] open_q, open_d, used_q, used_d, open_left;

  assign s_axis_tready = !fd_full && !sg_full;
  assign push          = s_axis_tvalid && s_axis_tready;

  // KeySlots > 1: each beat carries its tdest (only a packet's first beat's is used)
  localparam int DestW = (KeySlots > 1) ? SlotW : 0;
  logic [134+DestW:0] fd_in, fd_out;
  logic [SlotW-1:0]   hd_dest;               // head beat: its tdest (the packet's slot)
  if (KeySlots > 1) begin : g_fd_dest
    assign fd_in   = {s_axis_tdest, in_n, s_axis_tlast, in_contig, lanes_swap(s_axis_tdata)};
    assign hd_dest = fd_out[134+DestW -: SlotW];
  end else begin : g_fd_no_dest
    logic unused_dest;
    assign unused_dest = ^s_axis_tdest;
    assign fd_in   = {in_n, s_axis_tlast, in_contig, lanes_swap(s_axis_tdata)};
    assign hd_dest = '0;
  end
  assign {hd_n, hd_last, hd_contig, hd_data} = fd_out[134:0];

  ak_fifo #(.Width(135 + DestW), .Depth(FifoDepth), .GateEmpty(1'b1),
            .RegRead(FifoRegRead)) u_fd (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (push),
    .data_i  (fd_in),
    .pop_i   (pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (fd_valid),
    .full_o  (fd_full),
    .data_o  (fd_out),
    .count_o (fd_count)
  );

  assign {sg_len, sg_bad, sg_n} = sg_head;

  // segments: a pop from the closed head segment (or, with none, from the open one);
  // a push extends the open segment or, at tlast or a bad beat, closes it
  always_comb begin : segments
    used_d    = used_q;
    sg_pop    = 1'b0;
    open_left = open_q;
    if (pop) begin
      if (sg_valid) begin
        if (used_q + 1'b1 == sg_len) begin
          sg_pop = 1'b1;
          used_d = '0;
        end else begin
          used_d = used_q + 1'b1;
        end
      end else begin
        open_left = open_q - 1'b1;
      end
    end
    sg_push = push && (s_axis_tlast || in_bad);
    sg_in   = {open_left + 1'b1, in_bad, in_n};
    open_d  = !push ? open_left : (sg_push ? '0 : open_left + 1'b1);
  end

  ak_fifo #(.Width(SegWidth), .Depth(SegDepth), .GateEmpty(1'b1)) u_sg (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (sg_push),
    .data_i  (sg_in),
    .pop_i   (sg_pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (sg_valid),
    .full_o  (sg_full),
    .data_o  (sg_head),
    .count_o (sg_count)
  );
  assign unused_sg = ^sg_count;

  always_ff @(posedge clk_i or negedge rst_ni) begin : segment_regs
    if (!rst_ni) begin
      open_q <= '0;
      used_q <= '0;
    end else begin
      open_q <= open_d;
      used_q <= used_d;
    end
  end

  // ------------------------------------------------------------------------------
  // Mode engine (one stream)
  // ------------------------------------------------------------------------------
  logic         e_key_valid, e_key_ready;
  logic         e_cmd_valid, e_cmd_ready;
  logic [31:0]  e_msg_len;
  logic         e_in_valid, e_in_ready;
  logic         e_out_valid, e_out_ready, e_out_tag;
  logic [127:0] e_out_data;
  logic         e_sts_valid, e_sts_ready, e_sts_pass, e_sts_error;

  // ------------------------------------------------------------------------------
  // Control
  // ------------------------------------------------------------------------------
  typedef enum logic [3:0] {
    StIdle,   // key loads, packet start, chunk forming
    StCmd,    // the chunk's engine command
    StRun,    // the chunk's beats in and out, then its status
    StDrop,   // packet error: drop input beats through tlast
    StClose,  // packet error: the closing beat (tuser = 1)
    StACmd,   // CCM/GCM/CMAC/XTS: the packet's engine command
    StARun,   // CCM/GCM/CMAC/XTS: the packet's beats in and out, then its status
    StAFin,   // CCM/GCM decryption, CMAC verification: the last beat (tlast, tuser = fail)
    StHRel,   // HoldBeats: a held decryption's plaintext, released after its tag passed
    StKey     // KeySlots > 1: the packet's slot key into the core (before its first beat)
  } st_e;

  st_e          st_q, st_d;
  logic         in_pkt_q, in_pkt_d;      // the FIFO head belongs to a started packet (refused too)
  logic [3:0]   mode_q, mode_d;          // the packet's mode
  logic         dec_q, dec_d;
  logic [127:0] chain_q, chain_d;        // IV / chaining value / counter of the next chunk
  logic         key_ok_q, key_ok_d;      // a key is loaded
  logic         key_pend_q, key_pend_d;  // LOAD_KEY pending
  logic [1:0]   key_len_q, key_len_d;    // KEY_LEN taken with LOAD_KEY
  // key slots: LOAD_KEY's slot (CTRL.KEY_SLOT, taken with it), the slots holding a key and
  // their lengths, the slot whose key is in the core, the packet's slot (its first tdest)
  logic [SlotW-1:0]    ld_slot_q, ld_slot_d;
  logic [KeySlots-1:0] slot_ok_q, slot_ok_d;
  logic [1:0]          slot_len_q [KeySlots];
  logic [SlotW-1:0]    core_slot_q, core_slot_d;
  logic [SlotW-1:0]    pkt_slot_q, pkt_slot_d;
  logic                slot_we;                // store the pending LOAD_KEY in its slot
  logic                key_direct;             // it goes to a slot not in the core
  logic [1:0]          hd_len;                 // key length of the head beat's slot
  logic [KWidth-1:0]   k_q, k_d;         // beats of the chunk
  logic [4:0]   kn_q, kn_d;              // bytes of its last beat
  logic         kl_q, kl_d;              // its last beat ends the packet
  logic [CntWidth-1:0] in_left_q, in_left_d;
  logic [KWidth-1:0]   out_left_q, out_left_d;
  logic [127:0] last_in_q, last_in_d, last_out_q, last_out_d;  // core order
  // CCM/GCM/CMAC/XTS packets (one engine message each): lengths taken at the first beat, the
  // input beats still expected (AAD, payload, tag), the payload beats still to come out
  logic [15:0]  plen_q, plen_d;          // payload bytes
  logic [10:0]  alen_q, alen_d;          // AAD bytes (0 for CMAC)
  logic [4:0]   tlen_q, tlen_d;          // tag bytes
  logic [3:0]   nlen_q, nlen_d;          // CCM nonce bytes
  logic [7:0]   a_left_q, a_left_d;      // AAD beats to take
  logic [12:0]  p_left_q, p_left_d;      // payload beats to take
  logic         t_left_q, t_left_d;      // the tag beat to take (decryption)
  logic [12:0]  o_left_q, o_left_d;      // payload beats to send
  logic         aead_q, aead_d;          // the packet is CCM/GCM/CMAC/XTS
  logic         abort_q, abort_d;        // a beat disagreed with the lengths
  logic         fail_q, fail_d;          // tag check failed
  logic         pend_q;                  // an output beat offered and not yet taken
  logic [127:0] hold_q, hold_d;          // decryption: the last payload beat (core order)
  // HoldBeats > 0: a CCM/GCM decryption packet whose payload fits HoldBeats beats goes to
  // the hold FIFO (every beat held) and leaves only after the tag passed
  logic         hold_pkt;                // this packet's payload is held
  logic         h_push, h_pop, h_full, h_valid, h_release, h_drop;
  logic [127:0] h_data;

  // chunk formation: the FIFO beats up to the first tlast, before the first bad one
  logic [CntWidth-1:0] ck;
  logic [4:0]          ck_n;
  logic                ck_last;
  logic                whole_only, head_bad, mode_bad;
  logic                sg_end_bad;   // the head segment ends at a beat a chunk excludes
  logic [CntWidth-1:0] sg_left;      // the head segment's beats in the FIFO

  // the mode code of CTRL (MODE_HI, MODE), and what the LEN register announces
  logic [3:0]  r_mode;
  logic        r_aead;
  logic [15:0] r_plen;
  logic [10:0] r_alen;
  logic [4:0]  r_tlen;
  logic [7:0]  r_abeats;
  logic [12:0] r_pbeats;
  logic        r_tbeat;
  assign r_mode   = {hwif_out.CTRL.MODE_HI.value, hwif_out.CTRL.MODE.value};
  assign r_aead   = (r_mode == ModeCcm) || (r_mode == ModeGcm) || (r_mode == ModeCmac) ||
                    (r_mode == ModeXts);
  assign r_plen   = hwif_out.LEN.PAYLOAD.value;
  assign r_alen   = ((r_mode == ModeGcm) || (r_mode == ModeCcm)) ? hwif_out.LEN.AAD.value : '0;
  assign r_tlen   = hwif_out.LEN.TAG.value;
  assign r_abeats = 8'((12'(r_alen) + 12'd15) >> 4);
  assign r_pbeats = 13'((17'(r_plen) + 17'd15) >> 4);
  assign r_tbeat  = hwif_out.CTRL.DECRYPT.value && (r_mode != ModeXts);

  logic [15:0] modes16;
  assign modes16    = {7'b0, Modes};
  assign whole_only = (mode_q == ModeEcb) || (mode_q == ModeCbc);
  assign head_bad   = sg_valid && sg_end_bad && (sg_left == CntWidth'(1));
  // a mode not offered, or one the core cannot run (an inverse-cipher decryption on
  // an encrypt-only core)
  assign mode_bad   = !modes16[r_mode] ||
                      (!Decrypts && hwif_out.CTRL.DECRYPT.value &&
                       ((r_mode == ModeEcb) || (r_mode == ModeCbc) || (r_mode == ModeXts))) ||
                      ((r_mode == ModeXts) && (hd_len == 2'd1));  // XTS-AES: 128, 256
  // tag check at the end (GCM decryption, CMAC verification): the last payload beat held
  logic tagchk;
  assign tagchk     = dec_q && (mode_q != ModeXts);
  assign hold_pkt   = (HoldBeats > 0) && tagchk && (mode_q != ModeCmac) && (plen_q != '0)
                      && (17'(plen_q) + 17'd15) >> 4 <= 17'(HoldBeats);

  // a whole-packet first beat whose message is empty: its null beat is checked at the
  // FIFO head, which a registered-read FIFO shows a cycle after the push
  logic empty_wait;
  assign empty_wait = r_aead && (r_abeats == '0) && (r_pbeats == '0) && !r_tbeat && !fd_valid;

  // the chunk: the head segment's beats in the FIFO, without a bad last beat (or a
  // partial one in ECB/CBC); the head beat itself is bad when it is that beat
  assign sg_end_bad = sg_bad || (whole_only && (sg_n != 5'd16));
  assign sg_left    = sg_len - used_q;
  always_comb begin : chunk
    if (sg_valid) begin
      ck      = sg_end_bad ? sg_left - 1'b1 : sg_left;
      ck_n    = sg_end_bad ? 5'd16 : sg_n;
      ck_last = !sg_end_bad;
    end else begin
      ck      = open_q;
      ck_n    = 5'd16;
      ck_last = 1'b0;
    end
  end

  // PlainStream, while a chunk runs: the head segment's beats not yet in it, up to its
  // tlast or before its bad beat (xt_k beats, the last one xt_n bytes, xt_last: tlast)
  logic [CntWidth-1:0] xt_avail, xt_k;
  logic [4:0]          xt_n;
  logic                xt_last;
  assign xt_avail = (sg_valid ? sg_left : open_q) - in_left_q;
  always_comb begin : extension
    xt_k    = xt_avail;
    xt_n    = 5'd16;
    xt_last = 1'b0;
    if (sg_valid && sg_end_bad) begin
      xt_k = (xt_avail != '0) ? xt_avail - 1'b1 : '0;
    end else if (sg_valid) begin
      xt_n    = sg_n;
      xt_last = 1'b1;
    end
  end

  // chaining value after a chunk (the engine's rules, docs/modes.md)
  logic [127:0] chain_next;
  always_comb begin : chain_after
    unique case (mode_q)
      ModeCbc, ModeCfb: chain_next = dec_q ? last_in_q : last_out_q;   // last ciphertext
      ModeCtr:          chain_next = chain_q + 128'(k_q);
      ModeOfb:          chain_next = last_in_q ^ last_out_q;           // last keystream
      default:          chain_next = chain_q;                          // ECB
    endcase
  end

  // the beat the lengths expect at the FIFO head: its bytes and whether it is the last
  function automatic logic [4:0] tail_n(input logic [3:0] low);
    return (low == 4'd0) ? 5'd16 : {1'b0, low};
  endfunction
  logic [4:0] x_n;
  logic       x_last, head_ok;
  always_comb begin : expect_beat
    if (a_left_q != '0) begin
      x_n = (a_left_q == 8'd1) ? tail_n(alen_q[3:0]) : 5'd16;
    end else if (p_left_q != '0) begin
      x_n = (p_left_q == 13'd1) ? tail_n(plen_q[3:0]) : 5'd16;
    end else begin
      x_n = tlen_q;
    end
    x_last  = (14'(a_left_q) + 14'(p_left_q) + 14'(t_left_q)) == 14'd1;
    head_ok = hd_contig && (hd_n == x_n) && (hd_last == x_last);
  end

  // ------------------------------------------------------------------------------
  // Key slots (KeySlots > 1). A packet's slot is its first beat's tdest: the FIFO head's,
  // or (registered-read FIFO, the head not shown yet) the one beat pushed at the last
  // edge. The slots' keys (KEY and, with XTS, TWEAK_KEY, masked to KEY_LEN; the widest
  // key the core takes) are a memory without reset read asynchronously (distributed
  // RAM), written when a LOAD_KEY is taken; their valid flags and lengths are registers.
  // ------------------------------------------------------------------------------
  // the key: unused low bits zero (core contract)
  logic [255:0] key_mask;
  assign key_mask = (key_len_q == 2'd0) ? {{128{1'b1}}, 128'h0} :
                    (key_len_q == 2'd1) ? {{192{1'b1}}, 64'h0} : '1;

  logic [SlotW-1:0] pkt_dest, push_dest_q;
  assign pkt_dest   = (FifoRegRead && !fd_valid) ? push_dest_q : hd_dest;
  assign key_direct = (KeySlots > 1) && key_ok_q && (ld_slot_q != core_slot_q);

  logic [255:0] slot_key, slot_key2;   // the packet's slot: KEY, TWEAK_KEY (StKey)
  logic [1:0]   slot_len;              // its length code
  if (KeySlots > 1) begin : g_slots
    // stored bits: the top KeyW of KEY (the low ones are zero for the sizes the core has),
    // and as many of TWEAK_KEY when XTS is built
    localparam int KeyW = KeyLens[2] ? 256 : KeyLens[1] ? 192 : 128;
    localparam int EntW = Modes[8] ? 2 * KeyW : KeyW;
    logic [EntW-1:0] slot_mem [KeySlots];
    logic [EntW-1:0] slot_wdata, slot_rdata;
    if (Modes[8]) begin : g_xts
      assign slot_wdata = {key_regs[255 -: KeyW] & key_mask[255 -: KeyW],
                           tkey_regs[255 -: KeyW] & key_mask[255 -: KeyW]};
      assign slot_key2  = 256'(slot_rdata[KeyW-1:0]) << (256 - KeyW);
    end else begin : g_no_xts
      assign slot_wdata = key_regs[255 -: KeyW] & key_mask[255 -: KeyW];
      assign slot_key2  = '0;
    end
    assign slot_key = 256'(slot_rdata[EntW-1 -: KeyW]) << (256 - KeyW);
    always_ff @(posedge clk_i) begin : slot_store
      if (slot_we) slot_mem[ld_slot_q] <= slot_wdata;
    end
    assign slot_rdata = slot_mem[pkt_slot_q];
    assign slot_len   = slot_len_q[pkt_slot_q];
    assign hd_len     = slot_len_q[pkt_dest];

    always_ff @(posedge clk_i or negedge rst_ni) begin : slot_regs
      if (!rst_ni) begin
        push_dest_q <= '0;
        for (int i = 0; i < KeySlots; i++) slot_len_q[i] <= '0;
      end else begin
        if (push) push_dest_q <= s_axis_tdest;
        for (int i = 0; i < KeySlots; i++) begin
          if (slot_we && (ld_slot_q == SlotW'(i))) slot_len_q[i] <= key_len_q;
        end
      end
    end
  end else begin : g_one_slot
    // one slot: the key goes from KEY straight into the core (as LOAD_KEY always did)
    assign slot_key  = '0;
    assign slot_key2 = '0;
    assign slot_len  = '0;
    assign hd_len    = slot_len_q[0];
    assign push_dest_q = '0;
    always_ff @(posedge clk_i or negedge rst_ni) begin : slot_regs
      if (!rst_ni)      slot_len_q[0] <= '0;
      else if (slot_we) slot_len_q[0] <= key_len_q;
    end
  end

  logic [6:0] err_set;  // KEEP, PARTIAL, MODE, NO_KEY, KEY_LEN, LENGTH, TAG (hwset pulses)
  logic [3:0] key_lens;
  assign key_lens = {1'b0, KeyLens};

  always_comb begin : control
    st_d       = st_q;
    in_pkt_d   = in_pkt_q;
    mode_d     = mode_q;
    dec_d      = dec_q;
    chain_d    = chain_q;
    key_ok_d   = key_ok_q;
    key_pend_d = key_pend_q || hwif_out.CTRL.LOAD_KEY.value;
    key_len_d  = hwif_out.CTRL.LOAD_KEY.value ? hwif_out.CTRL.KEY_LEN.value : key_len_q;
    k_d        = k_q;
    kn_d       = kn_q;
    kl_d       = kl_q;
    in_left_d  = in_left_q;
    out_left_d = out_left_q;
    last_in_d  = last_in_q;
    last_out_d = last_out_q;
    plen_d     = plen_q;
    alen_d     = alen_q;
    tlen_d     = tlen_q;
    nlen_d     = nlen_q;
    a_left_d   = a_left_q;
    p_left_d   = p_left_q;
    t_left_d   = t_left_q;
    o_left_d   = o_left_q;
    abort_d    = abort_q;
    fail_d     = fail_q;
    hold_d     = hold_q;
    aead_d     = aead_q;
    err_set    = '0;
    e_key_valid = 1'b0;
    e_cmd_valid = 1'b0;
    e_in_valid  = 1'b0;
    e_out_ready = 1'b0;
    h_push      = 1'b0;
    h_pop       = 1'b0;
    h_release   = 1'b0;
    h_drop      = 1'b0;
    e_sts_ready = 1'b0;
    pop         = 1'b0;
    ld_slot_d   = hwif_out.CTRL.LOAD_KEY.value ? SlotW'(hwif_out.CTRL.KEY_SLOT.value)
                                                : ld_slot_q;
    slot_ok_d   = slot_ok_q;
    core_slot_d = core_slot_q;
    pkt_slot_d  = pkt_slot_q;
    slot_we     = 1'b0;
    // KeySlots > 1: a LOAD_KEY to a slot whose key is not in the core is stored at once,
    // whatever the stream does (not while the core takes a slot's key); the core's own
    // slot waits for the packet boundary below (its key goes into the core too)
    if (key_direct && key_pend_q && (st_q != StKey) && !((st_q == StIdle) && !in_pkt_q)) begin
      err_set[4] = !key_lens[key_len_q];
      slot_we    = key_lens[key_len_q];
      key_pend_d = hwif_out.CTRL.LOAD_KEY.value;
    end
    unique case (st_q)
      StIdle: begin
        if (key_pend_q && !in_pkt_q) begin
          if (!key_lens[key_len_q]) begin
            err_set[4] = 1'b1;
            key_pend_d = hwif_out.CTRL.LOAD_KEY.value;
          end else if (key_direct) begin
            slot_we    = 1'b1;
            key_pend_d = hwif_out.CTRL.LOAD_KEY.value;
          end else begin
            // the core's slot (or none in the core yet): KEY into the core and the slot
            e_key_valid = 1'b1;
            if (e_key_ready) begin
              key_ok_d    = 1'b1;
              key_pend_d  = hwif_out.CTRL.LOAD_KEY.value;
              slot_we     = 1'b1;
              core_slot_d = ld_slot_q;
            end
          end
        end else if ((fd_count != '0) && !(!in_pkt_q && empty_wait)) begin
          if (!in_pkt_q) begin
            // first beat of a packet: take MODE, DECRYPT, IV; a refused packet is
            // still a packet (STATUS.IN_PACKET) until StClose, after its tlast
            in_pkt_d   = 1'b1;
            pkt_slot_d = pkt_dest;
            if (mode_bad || !slot_ok_q[pkt_dest]) begin
              err_set[2] = mode_bad;
              err_set[3] = !mode_bad;
              st_d       = StDrop;
            end else if ((KeySlots > 1) && (pkt_dest != core_slot_q)) begin
              // another slot's key: into the core first (StKey), then this beat again
              st_d = StKey;
            end else if (r_aead) begin
              // GCM / CMAC: the whole packet is one message of the lengths in LEN
              mode_d   = r_mode;
              dec_d    = hwif_out.CTRL.DECRYPT.value;
              chain_d  = iv_regs;
              aead_d   = 1'b1;
              plen_d   = r_plen;
              alen_d   = r_alen;
              tlen_d   = r_tlen;
              nlen_d   = hwif_out.CCM.NONCE_LEN.value;
              a_left_d = r_abeats;
              p_left_d = r_pbeats;
              t_left_d = r_tbeat;
              o_left_d = (r_mode == ModeCmac) ? '0 : r_pbeats;  // CMAC: the tag only
              abort_d  = 1'b0;
              fail_d   = 1'b0;
              hold_d   = '0;
              if ((r_mode == ModeXts) ? (r_plen < 16'd16) :
                  ((r_tlen < 5'd4) || (r_tlen > 5'd16) ||
                   ((r_mode == ModeCcm) &&
                    (r_tlen[0] || (hwif_out.CCM.NONCE_LEN.value < 4'd7) ||
                     (hwif_out.CCM.NONCE_LEN.value > 4'd13))))) begin
                err_set[5] = 1'b1;
                st_d       = StDrop;
              end else if ((r_abeats == '0) && (r_pbeats == '0) && !r_tbeat) begin
                // an empty message: one null beat (tkeep 0, tlast)
                if (hd_contig && (hd_n == 5'd0) && hd_last) begin
                  pop  = 1'b1;
                  st_d = StACmd;
                end else begin
                  err_set[5] = 1'b1;
                  st_d       = StDrop;
                end
              end else begin
                st_d = StACmd;
              end
            end else begin
              aead_d   = 1'b0;
              mode_d   = r_mode;
              dec_d    = hwif_out.CTRL.DECRYPT.value;
              chain_d  = iv_regs;
            end
          end else if (head_bad) begin
            err_set[0] = sg_bad;
            err_set[1] = !sg_bad;
            st_d       = StDrop;
          end else begin
            k_d  = KWidth'(ck);
            kn_d = ck_n;
            kl_d = ck_last;
            st_d = StCmd;
          end
        end
      end
      StCmd: begin
        e_cmd_valid = 1'b1;
        if (e_cmd_ready) begin
          in_left_d  = CntWidth'(k_q);
          out_left_d = k_q;
          st_d       = StRun;
        end
      end
      StRun: begin
        e_in_valid  = (in_left_q != '0) && fd_valid;
        e_out_ready = m_axis_tready;
        e_sts_ready = 1'b1;
        if (e_in_valid && e_in_ready) begin
          pop       = 1'b1;
          in_left_d = in_left_q - 1'b1;
          last_in_d = hd_data;
        end
        if (e_out_valid && m_axis_tready) begin
          out_left_d = out_left_q - 1'b1;
          last_out_d = e_out_data;
        end
        // PlainStream: the packet's beats that came in since extend the running chunk
        // (one engine message), until its tlast or a bad beat
        if (PlainStream && !kl_q && (xt_k != '0)) begin
          e_cmd_valid = 1'b1;
          if (e_cmd_ready) begin
            in_left_d  = in_left_d + xt_k;
            out_left_d = out_left_d + KWidth'(xt_k);
            k_d        = k_q + KWidth'(xt_k);
            kn_d       = xt_n;
            kl_d       = xt_last;
          end
        end
        if (e_sts_valid) begin
          chain_d = chain_next;
          st_d    = StIdle;
          if (kl_q) in_pkt_d = 1'b0;
        end
      end
      StDrop: begin
        if (fd_valid) begin
          pop = 1'b1;
          if (hd_last) st_d = StClose;
        end
      end
      StClose: begin
        if (m_axis_tready) begin
          in_pkt_d = 1'b0;
          st_d     = StIdle;
        end
      end
      StACmd: begin
        e_cmd_valid = 1'b1;
        if (e_cmd_ready) st_d = StARun;
      end
      StARun: begin
        // input: the FIFO head while it is the beat the lengths expect; after a beat
        // that disagrees (abort), zero beats complete the engine message
        if ((a_left_q != '0) || (p_left_q != '0) || t_left_q) begin
          if (abort_q) begin
            e_in_valid = 1'b1;
          end else if (fd_valid) begin
            if (head_ok) begin
              e_in_valid = 1'b1;
              pop        = e_in_ready;
            end else begin
              abort_d    = 1'b1;
              err_set[5] = 1'b1;
            end
          end
          if (e_in_valid && e_in_ready) begin
            if (a_left_q != '0)      a_left_d = a_left_q - 1'b1;
            else if (p_left_q != '0) p_left_d = p_left_q - 1'b1;
            else                     t_left_d = 1'b0;
          end
        end
        // output: payload beats (decryption: the last one held), the tag beat; after an
        // abort the engine's output is discarded, except a beat already offered on
        // m_axis (AXI4-Stream: offered is offered until taken)
        if (abort_q && !pend_q) begin
          e_out_ready = 1'b1;
        end else if (hold_pkt && !e_out_tag) begin
          // every payload beat into the hold FIFO (it has room for the packet)
          e_out_ready = !h_full;
          h_push      = e_out_valid && !h_full && (o_left_q != '0);
        end else if (e_out_tag) begin
          e_out_ready = m_axis_tready;
        end else if (tagchk && (o_left_q == 13'd1)) begin
          e_out_ready = 1'b1;
          if (e_out_valid) hold_d = e_out_data;
        end else begin
          e_out_ready = m_axis_tready;
        end
        if (e_out_valid && e_out_ready && !e_out_tag && (o_left_q != '0)) begin
          o_left_d = o_left_q - 1'b1;
        end
        e_sts_ready = 1'b1;
        if (e_sts_valid) begin
          if (abort_q || abort_d) begin
            h_drop = hold_pkt;
            st_d   = StDrop;
          end else if (hold_pkt && e_sts_pass) begin
            h_release = 1'b1;
            o_left_d  = 13'((17'(plen_q) + 17'd15) >> 4);
            st_d      = StHRel;
          end else if (tagchk) begin
            h_drop     = hold_pkt;
            fail_d     = !e_sts_pass;
            err_set[6] = !e_sts_pass;
            st_d       = StAFin;
          end else begin
            in_pkt_d = 1'b0;
            st_d     = StIdle;
          end
        end
      end
      StAFin: begin
        if (m_axis_tready) begin
          in_pkt_d = 1'b0;
          st_d     = StIdle;
        end
      end
      StKey: begin
        // the packet's slot's key into the core; its first beat is then taken again
        e_key_valid = 1'b1;
        if (e_key_ready) begin
          core_slot_d = pkt_slot_q;
          in_pkt_d    = 1'b0;
          st_d        = StIdle;
        end
      end
      StHRel: begin
        h_pop = h_valid && m_axis_tready;
        if (h_pop) begin
          o_left_d = o_left_q - 1'b1;
          if (o_left_q == 13'd1) begin
            in_pkt_d = 1'b0;
            st_d     = StIdle;
          end
        end
      end
      default: st_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      st_q       <= StIdle;
      in_pkt_q   <= 1'b0;
      mode_q     <= ModeEcb;
      dec_q      <= 1'b0;
      chain_q    <= '0;
      key_ok_q   <= 1'b0;
      key_pend_q <= 1'b0;
      key_len_q  <= '0;
      ld_slot_q   <= '0;
      slot_ok_q   <= '0;
      core_slot_q <= '0;
      pkt_slot_q  <= '0;
      k_q        <= '0;
      kn_q       <= '0;
      kl_q       <= 1'b0;
      in_left_q  <= '0;
      out_left_q <= '0;
      last_in_q  <= '0;
      last_out_q <= '0;
      aead_q     <= 1'b0;
      plen_q     <= '0;
      alen_q     <= '0;
      tlen_q     <= '0;
      nlen_q     <= '0;
      a_left_q   <= '0;
      p_left_q   <= '0;
      t_left_q   <= 1'b0;
      o_left_q   <= '0;
      abort_q    <= 1'b0;
      fail_q     <= 1'b0;
      hold_q     <= '0;
      pend_q     <= 1'b0;
    end else begin
      st_q       <= st_d;
      in_pkt_q   <= in_pkt_d;
      mode_q     <= mode_d;
      dec_q      <= dec_d;
      chain_q    <= chain_d;
      key_ok_q   <= key_ok_d;
      key_pend_q <= key_pend_d;
      key_len_q  <= key_len_d;
      ld_slot_q   <= ld_slot_d;
      slot_ok_q   <= slot_we ? (slot_ok_d | (KeySlots'(1) << ld_slot_q)) : slot_ok_d;
      core_slot_q <= core_slot_d;
      pkt_slot_q  <= pkt_slot_d;
      k_q        <= k_d;
      kn_q       <= kn_d;
      kl_q       <= kl_d;
      in_left_q  <= in_left_d;
      out_left_q <= out_left_d;
      last_in_q  <= last_in_d;
      last_out_q <= last_out_d;
      aead_q     <= aead_d;
      plen_q     <= plen_d;
      alen_q     <= alen_d;
      tlen_q     <= tlen_d;
      nlen_q     <= nlen_d;
      a_left_q   <= a_left_d;
      p_left_q   <= p_left_d;
      t_left_q   <= t_left_d;
      o_left_q   <= o_left_d;
      abort_q    <= abort_d;
      fail_q     <= fail_d;
      hold_q     <= hold_d;
      pend_q     <= m_axis_tvalid && !m_axis_tready;
    end
  end

  // GCM, CMAC: bytes; XTS: bits (the engine's unit for XTS); chunks: their bytes
  assign e_msg_len = (st_q == StRun) ? ((32'(xt_k) << 4) - 32'd16 + 32'(xt_n)) :
                     !aead_q ? ((32'(k_q) << 4) - 32'd16 + 32'(kn_q)) :
                     (mode_q == ModeXts) ? {13'd0, plen_q, 3'd0} : 32'(plen_q);


  ak_mode_engine #(
    .AeadModes   (Modes[6] || Modes[7] || Modes[8]),  // GHASH, GCM/CMAC MAC, XTS if needed
    .Modes       (Modes),
    .Streams     (1),
    .CoreInReg   (2),  // a register slice before the core: engine and core apart
    .InFlight    (InFlight),
    .CoreTagWidth(CoreTagWidth),
    .CoreDirections({Decrypts, 1'b1}),
    .CoreKeySizes(KeyLens),
    .PlainStream (PlainStream)  // a packet as one message, a beat per cycle
  ) u_engine (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .key_valid_i      (e_key_valid),
    .key_ready_o      (e_key_ready),
    // LOAD_KEY: KEY, TWEAK_KEY (XTS's K2) as they are; a slot switch (StKey): the slot's
    .key_i            ((KeySlots > 1 && st_q == StKey) ? slot_key : (key_regs & key_mask)),
    .key2_i           ((KeySlots > 1 && st_q == StKey) ? slot_key2 : (tkey_regs & key_mask)),
    .key_len_i        ((KeySlots > 1 && st_q == StKey) ? slot_len : key_len_q),
    .cmd_valid_i      (e_cmd_valid),
    .cmd_ready_o      (e_cmd_ready),
    .cmd_mode_i       (mode_q),
    .cmd_decrypt_i    (dec_q),
    .cmd_iv_i         (chain_q),
    .cmd_iv_len_i     (32'd12),
    .cmd_nonce_len_i  (nlen_q),
    .cmd_tag_len_i    (tlen_q),
    .cmd_aad_len_i    (32'(alen_q)),
    .cmd_msg_len_i    (e_msg_len),
    .cmd_part_i       ('0),  // messages whole (the engine's Parts = 0)
    .cmd_ctx_i        ('0),
    .in_valid_i       (e_in_valid),
    .in_ready_o       (e_in_ready),
    .in_data_i        ((aead_q && abort_q) ? '0 : hd_data),
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
  // Hold FIFO (HoldBeats > 0): a decryption's plaintext until its tag is checked
  // ------------------------------------------------------------------------------
  if (HoldBeats > 0) begin : g_hold
    logic [$clog2(HoldBeats + 1)-1:0] h_count_unused;

    ak_fifo #(.Width(128), .Depth(HoldBeats), .Hold(1'b1)) u_hold (
      .clk_i,
      .rst_ni,
      .clr_i    (1'b0),
      .push_i   (h_push),
      .data_i   (e_out_data),
      .pop_i    (h_pop),
      .hold_i   (1'b1),
      .release_i(h_release),
      .drop_i   (h_drop),
      .valid_o  (h_valid),
      .full_o   (h_full),
      .data_o   (h_data),
      .count_o  (h_count_unused)
    );
  end else begin : g_no_hold
    // hold_pkt is constant 0: the FIFO's controls are never raised
    logic unused_hold;
    assign unused_hold = ^{h_push, h_pop, h_release, h_drop};
    assign h_full  = 1'b1;
    assign h_valid = 1'b0;
    assign h_data  = '0;
  end

  // ------------------------------------------------------------------------------
  // Output stream
  // ------------------------------------------------------------------------------
  always_comb begin : out_stream
    m_axis_tvalid = 1'b0;
    m_axis_tdata  = '0;
    m_axis_tkeep  = '1;
    m_axis_tlast  = 1'b0;
    m_axis_tuser  = 1'b0;
    m_axis_tdest  = (KeySlots > 1) ? pkt_slot_q : '0;
    if (st_q == StRun) begin
      m_axis_tvalid = e_out_valid;
      m_axis_tdata  = lanes_swap(e_out_data);
      if (out_left_q == KWidth'(1)) begin
        m_axis_tkeep = keep_of(kn_q);
        m_axis_tlast = kl_q;
      end
    end else if (st_q == StClose) begin
      m_axis_tvalid = 1'b1;
      m_axis_tlast  = 1'b1;
      m_axis_tuser  = 1'b1;
    end else if (st_q == StARun && (!abort_q || pend_q)) begin
      // payload beats (decryption: all but the last), the tag beat (tlast)
      m_axis_tdata = lanes_swap(e_out_data);
      if (e_out_tag) begin
        m_axis_tvalid = e_out_valid;
        m_axis_tkeep  = keep_of(tlen_q);
        m_axis_tlast  = 1'b1;
      end else if (!hold_pkt && !(tagchk && (o_left_q == 13'd1))) begin
        m_axis_tvalid = e_out_valid;
        if (o_left_q == 13'd1) begin
          m_axis_tkeep = keep_of(tail_n(plen_q[3:0]));
          m_axis_tlast = (mode_q == ModeXts);  // XTS: no tag, the last payload beat ends
        end
      end
    end else if (st_q == StAFin) begin
      // decryption / verification: the held last payload beat (none, or a held packet
      // whose tag failed: a null beat), tlast, tuser = the tag failed
      m_axis_tvalid = 1'b1;
      m_axis_tdata  = hold_pkt ? '0 : lanes_swap(hold_q);
      m_axis_tkeep  = ((plen_q == '0) || (mode_q == ModeCmac) || hold_pkt)
                      ? '0 : keep_of(tail_n(plen_q[3:0]));
      m_axis_tlast  = 1'b1;
      m_axis_tuser  = fail_q;
    end else if (st_q == StHRel) begin
      // a held packet whose tag passed: its payload beats, the last with tlast
      m_axis_tvalid = h_valid;
      m_axis_tdata  = lanes_swap(h_data);
      if (o_left_q == 13'd1) begin
        m_axis_tkeep = keep_of(tail_n(plen_q[3:0]));
        m_axis_tlast = 1'b1;
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Status and errors
  // ------------------------------------------------------------------------------
  assign hwif_in.STATUS.KEY_VALID.next = key_ok_q;
  assign hwif_in.STATUS.KEY_BUSY.next  = key_pend_q;
  assign hwif_in.STATUS.IN_PACKET.next = in_pkt_q;
  assign hwif_in.SLOTS.VALID.next      = 8'(slot_ok_q);
  assign hwif_in.SLOTS.CORE.next       = 3'(core_slot_q);
  assign hwif_in.ERROR.KEEP.hwset      = err_set[0];
  assign hwif_in.ERROR.PARTIAL.hwset   = err_set[1];
  assign hwif_in.ERROR.MODE.hwset      = err_set[2];
  assign hwif_in.ERROR.NO_KEY.hwset    = err_set[3];
  assign hwif_in.ERROR.KEY_LEN.hwset   = err_set[4];
  assign hwif_in.ERROR.LENGTH.hwset    = err_set[5];
  assign hwif_in.ERROR.TAG.hwset       = err_set[6];

  // the engine's CCM tag flag and verdicts never matter here (no CCM, legal commands
  // only); the ERROR register values are software's
  logic unused;
  assign unused = ^{s_axil_awaddr, s_axil_araddr,
                    hwif_out.ERROR.KEEP.value, hwif_out.ERROR.PARTIAL.value,
                    hwif_out.ERROR.MODE.value, hwif_out.ERROR.NO_KEY.value,
                    hwif_out.ERROR.KEY_LEN.value, hwif_out.ERROR.LENGTH.value,
                    hwif_out.ERROR.TAG.value, e_sts_error};

endmodule

`default_nettype wire
