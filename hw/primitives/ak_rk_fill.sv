// ak_rk_fill: the hardware key expansion that fills a round-key store (ak_rk_store,
// ak_rk_ram) -- one round key per cycle, encryption key and equivalent-inverse-
// cipher decryption key of the same round at once.
//
// On a key handshake (key_valid_i && key_ready_o) the cipher key becomes window 0 of
// ak_key_step; in each following cycle the window w[4r .. 4r+Nk-1] of round r is in
// a register, and this module emits a write of
//   enc round r      : rk_r          = win[255:128]
//   dec round Nr - r : rk_r          for r = 0 or r = Nr,
//                      InvMixColumns(rk_r) otherwise (equivalent inverse cipher)
// while ak_key_step moves the window on to round r + 1 (the step and the
// InvMixColumns sit on separate register-to-register paths).
//
// Timing (K = the key handshake edge, Nr = 10/12/14):
//   writes of rounds 0 .. Nr at edges K+1 .. K+Nr+1 (we_o high in the cycles before);
//   ready_o high from edge K+Nr+1 on: a store is complete Nr+1 cycles after K, and a
//   core whose in_ready_o follows ready_o has a key setup of Nr+2 cycles (12/14/16).
//   key_ready_o is high whenever no fill runs (the core adds "nothing in flight").
//   load_o is high in the handshake cycle (stores clear entries above Nr then).
// Illegal key_len_i = 3: the handshake completes, ready_o goes low and stays low
// until a legal key has been loaded. After reset: no key, ready_o low.
// Byte order: key_i as in the core contract (key byte 0 in [255:248], 128/192-bit
//   keys left-aligned); round keys as FIPS-197 (byte 0 in [127:120]).
// Parameters: none.

`default_nettype none

module ak_rk_fill (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         key_valid_i,
  output logic         key_ready_o,
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  output logic         ready_o,      // a legal key is loaded and completely written
  output logic [3:0]   nr_o,         // rounds of the loaded key (10/12/14)
  output logic         load_o,       // key handshake in this cycle
  output logic         we_o,         // write in this cycle:
  output logic [3:0]   round_o,      //   encryption round r
  output logic [127:0] enc_key_o,    //   its key
  output logic [3:0]   dec_round_o,  //   decryption round Nr - r
  output logic [127:0] dec_key_o     //   its key
);

  typedef enum logic [1:0] {
    StNoKey,  // no usable key (after reset or an illegal key_len_i)
    StFill,   // writing rounds 0 .. Nr
    StReady   // all round keys written
  } fill_st_e;

  fill_st_e     st_q, st_d;
  logic [1:0]   klen_q, klen_d;
  logic [255:0] win_q, win_d;
  logic [2:0]   phase_q, phase_d;
  logic [7:0]   rcon_q, rcon_d;
  logic [3:0]   cnt_q, cnt_d;

  logic [255:0] key_masked;
  logic         key_fire;
  logic [255:0] step_win;
  logic [2:0]   step_phase;
  logic [7:0]   step_rcon;
  logic [127:0] imc_key;

  assign nr_o        = 4'd10 + {1'b0, klen_q, 1'b0};
  assign key_ready_o = (st_q != StFill);
  assign key_fire    = key_valid_i && key_ready_o;
  assign ready_o     = (st_q == StReady);
  assign load_o      = key_fire;

  always_comb begin : key_mask
    unique case (key_len_i)
      2'd0:    key_masked = {key_i[255:128], 128'h0};
      2'd1:    key_masked = {key_i[255:64], 64'h0};
      default: key_masked = key_i;
    endcase
  end

  ak_key_step u_key_step (
    .win_i    (win_q),
    .key_len_i(klen_q),
    .phase_i  (phase_q),
    .rcon_i   (rcon_q),
    .reverse_i(1'b0),
    .win_o    (step_win),
    .phase_o  (step_phase),
    .rcon_o   (step_rcon)
  );

  for (genvar c = 0; c < 4; c++) begin : g_imc
    ak_inv_mix_column u_imc (
      .in_i (win_q[255-32*c -: 32]),
      .out_o(imc_key[127-32*c -: 32])
    );
  end

  assign we_o        = (st_q == StFill);
  assign round_o     = cnt_q;
  assign dec_round_o = nr_o - cnt_q;
  assign enc_key_o   = win_q[255:128];
  assign dec_key_o   = ((cnt_q == 4'd0) || (cnt_q == nr_o)) ? win_q[255:128] : imc_key;

  always_comb begin : fill_next
    st_d    = st_q;
    klen_d  = klen_q;
    win_d   = win_q;
    phase_d = phase_q;
    rcon_d  = rcon_q;
    cnt_d   = cnt_q;
    if (key_fire) begin
      if (key_len_i != 2'd3) begin
        st_d    = StFill;
        klen_d  = key_len_i;
        win_d   = key_masked;
        phase_d = 3'd0;
        rcon_d  = 8'h01;
        cnt_d   = 4'd0;
      end else begin
        st_d    = StNoKey;
      end
    end else if (st_q == StFill) begin
      win_d   = step_win;
      phase_d = step_phase;
      rcon_d  = step_rcon;
      cnt_d   = cnt_q + 4'd1;
      if (cnt_q == nr_o) st_d = StReady;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fill_regs
    if (!rst_ni) begin
      st_q    <= StNoKey;
      klen_q  <= 2'd0;
      win_q   <= '0;
      phase_q <= 3'd0;
      rcon_q  <= 8'h00;
      cnt_q   <= 4'd0;
    end else begin
      st_q    <= st_d;
      klen_q  <= klen_d;
      win_q   <= win_d;
      phase_q <= phase_d;
      rcon_q  <= rcon_d;
      cnt_q   <= cnt_d;
    end
  end

endmodule

`default_nettype wire
