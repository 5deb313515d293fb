// ak_dam_rpath: the read data path of ADAM (and XDAM): reads memory for one command
// at a time
// and returns the beats on RDATA with RESP[0], either directly (bypass: linear, block,
// or a state transfer with ENC_EN = 0, returned in ShiftRows order, Fig. 7(c)) or
// through the encrypting engine (state transfer with ENC_EN = 1: memory is read in
// ShiftRows order, the engine starts on the first beat and the ciphertext leaves in
// natural column order). While wait_i is high a valid beat is held (RESP[0] low) and
// the whole path stalls.
//
// Timing    : a command started at an edge issues its first memory read in the next
//             cycle; bypass data appears one cycle after its read (memory latency),
//             encrypted data 47 / 29 / 20 cycles (DataWidth = 32 / 64 / 128) later. A new
//             command can start at the edge of the last read (no gap), except a
//             bypass command behind cipher states (it waits until they have left, so
//             every master gets its beats in order).
// Byte order: bus lane b = bits [8b+7:8b] (see ak_asbus_addrgen).
// Parameters: DataWidth, MemBytes, IdWidth (master-id bits), PreScheduled (1: ASBUS, memory read in
//             ShiftRows order for the engine; 0: AXI, read in natural order, the engine
//             buffers and reschedules each state first).
// discard_i: the command returns its beats as zeros without reading memory (XDAM: a
// refused AXI burst still returns its R beats). pending_o: a beat is waiting (valid
// whatever wait_i is, for buses whose VALID must not depend on READY).

`default_nettype none

module ak_dam_rpath #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned MemBytes = 256,
  parameter int unsigned IdWidth = 1,
  parameter int unsigned PreScheduled = 1,
  localparam int unsigned NB = DataWidth / 8,
  localparam int unsigned LW = $clog2(NB),
  localparam int unsigned AddrWidth = $clog2(MemBytes / NB)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [1407:0]    rk_i,
  // command
  input  logic             start_i,
  input  logic             cipher_i,     // encrypt this (state) command
  input  logic             discard_i,    // return zeros, read nothing
  input  logic [IdWidth-1:0]    master_i,
  input  logic [1:0]       mode_i,
  input  logic [AddrWidth-1:0]    word_i,
  input  logic [10:0]      count_i,
  input  logic [6:0]       height_i,
  input  logic [4:0]       width_i,
  input  logic [AddrWidth-1:0]    pitch_i,
  output logic             idle_o,
  output logic             finishing_o,
  output logic             eng_busy_o,   // cipher beats still on their way out
  output logic             empty_o,      // nothing issued is still on its way out
  // memory read port
  output logic             re_o,
  output logic [NB*AddrWidth-1:0] word_o,
  input  logic [DataWidth-1:0]     data_i,
  // bus side (through ak_asbus_slave)
  input  logic             wait_i,
  output logic             valid_o,
  output logic             pending_o,
  output logic [IdWidth-1:0]    owner_o,
  output logic [DataWidth-1:0]     data_o
);

  logic             active, last, issue, en;
  logic [1:0]       mode;
  logic [AddrWidth-1:0]    state_word;
  logic [1:0]       beat;
  logic [NB*LW-1:0] bus2mem;
  logic             cipher_q, cipher_d;
  logic             discard_q, discard_d;
  logic [IdWidth-1:0]    owner_q, owner_d;

  ak_asbus_addrgen #(.DataWidth(DataWidth), .AddrWidth(AddrWidth), .Read(1'b1)) u_addrgen (
    .clk_i, .rst_ni,
    .start_i, .mode_i, .word_i, .count_i, .height_i, .width_i, .pitch_i,
    .adv_i       (issue),
    .active_o    (active),
    .last_o      (last),
    .mode_o      (mode),
    .state_word_o(state_word),
    .beat_o      (beat),
    .lane_word_o (word_o),
    .bus2mem_o   (bus2mem)
  );

  assign issue       = active && en;
  assign re_o        = issue && !discard_q;
  assign idle_o      = !active;
  assign finishing_o = issue && last;

  always_comb begin : cmd_next
    cipher_d  = cipher_q;
    discard_d = discard_q;
    owner_d   = owner_q;
    if (start_i) begin
      cipher_d  = cipher_i && !discard_i;
      discard_d = discard_i;
      owner_d   = master_i;
    end
  end

  // stage B: the memory data of the beat issued in the previous cycle
  logic             b_v_q, b_v_d;
  logic             b_cipher_q, b_cipher_d;
  logic             b_zero_q, b_zero_d;
  logic [IdWidth-1:0]    b_owner_q, b_owner_d;
  logic [NB*LW-1:0] b_map_q, b_map_d;
  logic [DataWidth-1:0]     b_data;            // the beat in bus-lane order

  always_comb begin : stage_b_next
    b_v_d      = b_v_q;
    b_cipher_d = b_cipher_q;
    b_zero_d   = b_zero_q;
    b_owner_d  = b_owner_q;
    b_map_d    = b_map_q;
    if (en) begin
      b_v_d      = issue;
      b_cipher_d = cipher_q;
      b_zero_d   = discard_q;
      b_owner_d  = owner_q;
      b_map_d    = bus2mem;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      cipher_q   <= 1'b0;
      discard_q  <= 1'b0;
      owner_q    <= '0;
      b_v_q      <= 1'b0;
      b_cipher_q <= 1'b0;
      b_zero_q   <= 1'b0;
      b_owner_q  <= '0;
      b_map_q    <= '0;
    end else begin
      cipher_q   <= cipher_d;
      discard_q  <= discard_d;
      owner_q    <= owner_d;
      b_v_q      <= b_v_d;
      b_cipher_q <= b_cipher_d;
      b_zero_q   <= b_zero_d;
      b_owner_q  <= b_owner_d;
      b_map_q    <= b_map_d;
    end
  end

  always_comb begin : lane_map
    for (int b = 0; b < NB; b++) b_data[8*b +: 8] = data_i[8*b_map_q[b*LW +: LW] +: 8];
    if (b_zero_q) b_data = '0;
  end

  // the encrypting engine (tag: the owner of the state)
  logic          eng_v, eng_busy;
  logic [DataWidth-1:0]  eng_data;
  logic [IdWidth-1:0] eng_tag;
  logic [1:0]    eng_beat;

  ak_dam_aes_engine #(.DataWidth(DataWidth), .Decrypt(0), .PreScheduled(PreScheduled), .TagWidth(IdWidth)) u_engine (
    .clk_i, .rst_ni,
    .en_i       (en),
    .rk_i,
    .in_valid_i (b_v_q && b_cipher_q && en),
    .in_data_i  (b_data),
    .in_tag_i   (b_owner_q),
    .out_valid_o(eng_v),
    .out_data_o (eng_data),
    .out_tag_o  (eng_tag),
    .out_beat_o (eng_beat),
    .busy_o     (eng_busy)
  );

  logic out_v;
  assign out_v      = eng_v || (b_v_q && !b_cipher_q);
  assign en         = !(out_v && wait_i);
  assign valid_o    = out_v && !wait_i;
  assign pending_o  = out_v;
  assign owner_o    = eng_v ? eng_tag : b_owner_q;
  assign data_o     = eng_v ? eng_data : b_data;
  assign eng_busy_o = eng_busy || (b_v_q && b_cipher_q) || (issue && cipher_q);

  assign empty_o    = !active && !b_v_q && !eng_busy;

  logic unused;
  assign unused = ^mode ^ ^beat ^ ^state_word ^ ^eng_beat;

endmodule

`default_nettype wire
