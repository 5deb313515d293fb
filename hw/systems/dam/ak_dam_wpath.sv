// ak_dam_wpath: the write data path of ADAM (and XDAM): takes the write beats of one
// command at a time from the bus (RESP[1], wait states while wait_i) and writes memory, either
// directly (bypass: linear, block, or a state transfer with DEC_EN = 0, whose
// InvShiftRows-ordered bytes go back to their own addresses) or through the decrypting
// engine (a state transfer with DEC_EN = 1: ciphertext in InvShiftRows order in,
// plaintext into memory in natural order).
//
// Timing    : a command started at an edge takes its first beat in the next cycle;
//             bypass beats are written at the edge that takes them; decrypted states
//             reach memory 47 / 29 / 20 cycles (DataWidth = 32 / 64 / 128; PreScheduled = 0:
//             51 / 31 / 21) after their first beat. A new command can start at the edge of the last beat (no gap),
//             except a bypass command behind cipher states still in the engine.
// Byte order: bus lane b = bits [8b+7:8b] (see ak_asbus_addrgen).
// Parameters: DataWidth, MemBytes, IdWidth (master-id bits), PreScheduled (1: ASBUS state transfers
//             carry InvShiftRows-ordered ciphertext; 0: AXI, natural order, the engine
//             buffers and reschedules each state first).
// discard_i: the command's beats are taken and dropped (XDAM: a refused AXI burst
// must still consume its W beats); memory is not written.

`default_nettype none

module ak_dam_wpath #(
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
  input  logic             cipher_i,     // decrypt this (state) command
  input  logic             discard_i,    // take the beats, write nothing
  input  logic [IdWidth-1:0]    master_i,
  input  logic [1:0]       mode_i,
  input  logic [AddrWidth-1:0]    word_i,
  input  logic [10:0]      count_i,
  input  logic [6:0]       height_i,
  input  logic [4:0]       width_i,
  input  logic [AddrWidth-1:0]    pitch_i,
  output logic             idle_o,       // no command active
  output logic             finishing_o,  // the last beat is taken this cycle
  output logic             eng_busy_o,   // states in the engine or entering it
  // bus side (through ak_asbus_slave)
  input  logic             wait_i,
  output logic [IdWidth-1:0]    owner_o,
  output logic             take_o,
  input  logic [DataWidth-1:0]     data_i,
  input  logic [NB-1:0]    vld_i,
  // memory write port
  output logic [NB-1:0]    we_o,
  output logic [NB*AddrWidth-1:0] word_o,
  output logic [DataWidth-1:0]     data_o
);

  logic             active, last;
  logic [1:0]       mode;
  logic [AddrWidth-1:0]    state_word;
  logic [1:0]       beat;
  logic [NB*AddrWidth-1:0] lane_word;
  logic [NB*LW-1:0] bus2mem;
  logic             cipher_q, cipher_d;
  logic             discard_q, discard_d;
  logic [IdWidth-1:0]    owner_q, owner_d;

  ak_asbus_addrgen #(.DataWidth(DataWidth), .AddrWidth(AddrWidth), .Read(1'b0)) u_addrgen (
    .clk_i, .rst_ni,
    .start_i, .mode_i, .word_i, .count_i, .height_i, .width_i, .pitch_i,
    .adv_i       (take_o),
    .active_o    (active),
    .last_o      (last),
    .mode_o      (mode),
    .state_word_o(state_word),
    .beat_o      (beat),
    .lane_word_o (lane_word),
    .bus2mem_o   (bus2mem)
  );

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

  always_ff @(posedge clk_i or negedge rst_ni) begin : cmd_regs
    if (!rst_ni) begin
      cipher_q  <= 1'b0;
      discard_q <= 1'b0;
      owner_q   <= '0;
    end else begin
      cipher_q  <= cipher_d;
      discard_q <= discard_d;
      owner_q   <= owner_d;
    end
  end

  assign take_o      = active && !wait_i;
  assign owner_o     = owner_q;
  assign idle_o      = !active;
  assign finishing_o = take_o && last;

  // the decrypting engine
  logic          eng_v, eng_busy;
  logic [DataWidth-1:0]  eng_data;
  logic [AddrWidth-1:0] eng_tag;
  logic [1:0]    eng_beat;

  ak_dam_aes_engine #(.DataWidth(DataWidth), .Decrypt(1), .PreScheduled(PreScheduled), .TagWidth(AddrWidth)) u_engine (
    .clk_i, .rst_ni,
    .en_i       (1'b1),
    .rk_i,
    .in_valid_i (take_o && cipher_q),
    .in_data_i  (data_i),
    .in_tag_i   (state_word),
    .out_valid_o(eng_v),
    .out_data_o (eng_data),
    .out_tag_o  (eng_tag),
    .out_beat_o (eng_beat),
    .busy_o     (eng_busy)
  );

  // a cipher beat taken this cycle is in the engine from the next one: a bypass command
  // dispatched now must still wait for it (at DataWidth = 128 a state is that single beat, and the
  // engine itself is not busy yet)
  assign eng_busy_o = eng_busy || (take_o && cipher_q);

  // memory write: engine output (natural order) or the bus beat through the lane map
  always_comb begin : mem_write
    we_o   = '0;
    word_o = lane_word;
    data_o = '0;
    if (eng_v) begin
      we_o = '1;
      for (int m = 0; m < NB; m++) word_o[m*AddrWidth +: AddrWidth] = eng_tag + AddrWidth'(eng_beat);
      data_o = eng_data;
    end else if (take_o && !cipher_q && !discard_q) begin
      for (int b = 0; b < NB; b++) begin
        we_o[bus2mem[b*LW +: LW]]         = vld_i[b];
        data_o[8*bus2mem[b*LW +: LW] +: 8] = data_i[8*b +: 8];
      end
    end
  end

  // unused in this path: the addrgen's mode output
  logic unused;
  assign unused = ^mode ^ ^beat;

endmodule

`default_nettype wire
