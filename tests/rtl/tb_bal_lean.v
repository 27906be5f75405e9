// tb_bal_lean: rtl/hws_balance_lean.v against rtl/hws_balance.v, both on the same inputs:
// random legal sequences of resets, pct and pw writes, one-entry leader writes (lset_*,
// the table changing at the same edge) that leave nested partitions P1 in P2 in P3 before
// every BALANCE, one-CPU load and history updates (upd_*), and BALANCEs with inputs held
// until both units are done. At each unit's done_o its result word is taken; after both,
// the words and BAL_* (regs_o) must be equal, the lean unit's done_o must have come
// exactly once, in cycle LAT_CF after the go edge (its header's formula), and its regs_o
// must change only at the edge ending its final cycle. With NR_CPUS >= 2 every verdict
// must have been seen. Parameters NR_CPUS, LOAD_W; +seed=N, +queries=N.
`timescale 1ns / 1ps
`default_nettype none

module tb_bal_lean;
  parameter integer NR_CPUS = 4;
  parameter integer LOAD_W  = 26;
  localparam integer N  = NR_CPUS;
  localparam integer CW = (NR_CPUS > 1) ? $clog2(NR_CPUS) : 1;
  /* verilator lint_off UNUSEDPARAM */
`include "hws_regs.vh"
  /* verilator lint_on UNUSEDPARAM */
  // hws_balance_lean's final cycle: the register map's latency (BAL_LEAN_BASE + BAL_LEAN_CPU N
  // + N^2 edges after the pop) less the check cycle, counted from the go edge
  localparam integer LAT_CF = HWS_BAL_LEAN_BASE - 1 + HWS_BAL_LEAN_CPU * N + N * N;

  reg                     clk = 1'b0, srst = 1'b0;
  reg                     pct_we = 1'b0;
  reg  [1:0]              pct_lvl = 2'd0;
  reg  [7:0]              pct = 8'd0;
  reg                     pw_we = 1'b0;
  reg  [1:0]              pw_lvl = 2'd0;
  reg  [5:0]              pw_cpu = 6'd0;
  reg  [16:0]             pw = 17'd0;
  reg  [N*CW-1:0]         lead1, lead2, lead3;
  reg                     lset = 1'b0;
  reg  [1:0]              lset_k = 2'd0;
  reg  [CW-1:0]           lset_cpu = {CW{1'b0}}, lset_v = {CW{1'b0}};
  reg                     upd = 1'b0;
  reg  [CW-1:0]           upd_cpu = {CW{1'b0}};
  reg  [LOAD_W-1:0]       upd_now_old = 0, upd_now_new = 0, upd_h_old = 0, upd_h_new = 0;
  reg                     go = 1'b0;
  reg  [5:0]              cpu = 6'd0;
  reg  [1:0]              level = 2'd0;
  reg                     now_only = 1'b0;
  reg  [N*LOAD_W-1:0]     load, hist;
  wire                    done_r, done_l;
  wire [31:0]             res_r, res_l;
  wire [127:0]            regs_r, regs_l;

  hws_balance #(.NR_CPUS(N), .LOAD_W(LOAD_W)) u_ref (
    .clk_i(clk), .srst_i(srst), .pct_we_i(pct_we), .pct_lvl_i(pct_lvl), .pct_i(pct),
    .pw_we_i(pw_we), .pw_lvl_i(pw_lvl), .pw_cpu_i(pw_cpu), .pw_i(pw),
    .lead1_i(lead1), .lead2_i(lead2), .lead3_i(lead3),
    .lset_i(lset), .lset_k_i(lset_k), .lset_cpu_i(lset_cpu), .lset_v_i(lset_v),
    .upd_i(upd), .upd_cpu_i(upd_cpu), .upd_now_old_i(upd_now_old), .upd_now_new_i(upd_now_new),
    .upd_h_old_i(upd_h_old), .upd_h_new_i(upd_h_new),
    .go_i(go), .cpu_i(cpu), .level_i(level), .now_only_i(now_only), .load_i(load), .hist_i(hist),
    .done_o(done_r), .res_o(res_r), .regs_o(regs_r));
  hws_balance_lean #(.NR_CPUS(N), .LOAD_W(LOAD_W)) u_lean (
    .clk_i(clk), .srst_i(srst), .pct_we_i(pct_we), .pct_lvl_i(pct_lvl), .pct_i(pct),
    .pw_we_i(pw_we), .pw_lvl_i(pw_lvl), .pw_cpu_i(pw_cpu), .pw_i(pw),
    .lead1_i(lead1), .lead2_i(lead2), .lead3_i(lead3),
    .lset_i(lset), .lset_k_i(lset_k), .lset_cpu_i(lset_cpu), .lset_v_i(lset_v),
    .upd_i(upd), .upd_cpu_i(upd_cpu), .upd_now_old_i(upd_now_old), .upd_now_new_i(upd_now_new),
    .upd_h_old_i(upd_h_old), .upd_h_new_i(upd_h_new),
    .go_i(go), .cpu_i(cpu), .level_i(level), .now_only_i(now_only), .load_i(load), .hist_i(hist),
    .done_o(done_l), .res_o(res_l), .regs_o(regs_l));

  integer seed0, seed, queries, q, x, i, k, mode, pwmode, base, ndirected;
  reg     directed;
  integer vcount [0:7];
  reg [127:0] regs_prev;
  reg         done_prev;
  // one clock cycle: inputs are changed only while clk is low, away from the edge; the
  // lean unit's regs_o may change only at the edge ending a cycle with done_o
  task tick;
    begin
      done_prev = done_l;
      regs_prev = regs_l;
      #1 clk = 1'b1;
      #1 clk = 1'b0;
      if (!done_prev && !srst && (regs_l !== regs_prev))
        $fatal(1, "tb_bal_lean N=%0d LOAD_W=%0d seed=%0d: FAIL: regs_o changed outside the final edge (%h -> %h)",
               N, LOAD_W, seed0, regs_prev, regs_l);
    end
  endtask

  function automatic [N*CW-1:0] ident(input integer unused);
    integer y;
    begin
      ident = {N*CW{1'b0}};
      for (y = 0; y < N; y = y + 1) ident[y*CW +: CW] = y[CW-1:0];
      if (unused != 0) ident = {N*CW{1'b0}};
    end
  endfunction

  task do_reset;
    begin
      srst = 1'b1;
      tick;
      srst = 1'b0;
      load = {N*LOAD_W{1'b0}};
      hist = {N*LOAD_W{1'b0}};
      lead1 = ident(0);
      lead2 = ident(0);
      lead3 = ident(0);
      if (regs_l !== 128'd0 || regs_r !== 128'd0)
        $fatal(1, "tb_bal_lean N=%0d seed=%0d: FAIL: regs_o not 0 after reset", N, seed0);
    end
  endtask

  // a random load or history value of the current mode
  function automatic [LOAD_W-1:0] rnd_load(input integer m);
    reg [LOAD_W-1:0] top;
    integer r;
    begin
      top = {LOAD_W{1'b1}};
      r = $random(seed);
      case (m)
        0: rnd_load = $unsigned(r) % 8;                         // tiny (floor ties)
        1: rnd_load = $unsigned(r) % 4096;                      // a few tasks
        2: rnd_load = 1024 * ($unsigned(r) % 9);                // nice-0 tasks
        3: rnd_load = 3000 + $unsigned(r) % 400;                // similar loads
        4: rnd_load = top - ($unsigned(r) % 70000);             // near the top
        6: rnd_load = 1024 * ($unsigned(r) % 3);                // few values: ties
        7: rnd_load = top - ($unsigned(r) % 2);                 // the top: ties
        8: begin                                                // gaps at the verdicts' bounds
          case ($unsigned(r) % 7)
            0: rnd_load = base;
            1: rnd_load = base + 1;
            2: rnd_load = base + 1023;
            3: rnd_load = base + 1024;
            4: rnd_load = base + 2047;
            5: rnd_load = base + 2048;
            default: rnd_load = base + 2049;
          endcase
        end
        default: rnd_load = $unsigned(r) & top;                 // anything
      endcase
      if (($random(seed) & 7) == 0) rnd_load = 0;
    end
  endfunction

  task set_load(input integer c, input [LOAD_W-1:0] n, input [LOAD_W-1:0] h);
    begin
      upd = 1'b1;
      upd_cpu = c[CW-1:0];
      upd_now_old = load[c*LOAD_W +: LOAD_W];
      upd_h_old = hist[c*LOAD_W +: LOAD_W];
      upd_now_new = n;
      upd_h_new = h;
      tick;
      load[c*LOAD_W +: LOAD_W] = n;
      hist[c*LOAD_W +: LOAD_W] = h;
      upd = 1'b0;
    end
  endtask

  task set_lead(input integer kk, input integer c, input [CW-1:0] v);
    begin
      lset = 1'b1;
      lset_k = kk[1:0];
      lset_cpu = c[CW-1:0];
      lset_v = v;
      tick;
      case (kk)
        1: lead1[c*CW +: CW] = v;
        2: lead2[c*CW +: CW] = v;
        default: lead3[c*CW +: CW] = v;
      endcase
      lset = 1'b0;
    end
  endtask

  // New nested partitions: P3 by random colours, P2 and P1 refining them; a block's leader
  // is its lowest CPU. Written entry by entry, in a random table order.
  reg [N*CW-1:0] nl1, nl2, nl3;
  integer col1 [0:63];
  integer col2 [0:63];
  integer col3 [0:63];
  task new_parts;
    integer y, z, k3, k2, k1, st;
    begin
      k3 = 1 + $unsigned($random(seed)) % N;
      k2 = 1 + $unsigned($random(seed)) % N;
      k1 = 1 + $unsigned($random(seed)) % N;
      st = $unsigned($random(seed)) % 4;   // 0 random colours, 1 contiguous blocks
      for (y = 0; y < N; y = y + 1) begin
        if (st == 1) begin
          col3[y] = (y * k3) / N;
          col2[y] = col3[y] * 64 + (y * k2) / N;
          col1[y] = col2[y] * 64 + (y * k1) / N;
        end else begin
          col3[y] = $unsigned($random(seed)) % k3;
          col2[y] = col3[y] * 64 + $unsigned($random(seed)) % k2;
          col1[y] = col2[y] * 64 + $unsigned($random(seed)) % k1;
        end
      end
      for (y = 0; y < N; y = y + 1) begin
        nl1[y*CW +: CW] = y[CW-1:0];
        nl2[y*CW +: CW] = y[CW-1:0];
        nl3[y*CW +: CW] = y[CW-1:0];
        for (z = y - 1; z >= 0; z = z - 1) begin
          if (col1[z] == col1[y]) nl1[y*CW +: CW] = z[CW-1:0];
          if (col2[z] == col2[y]) nl2[y*CW +: CW] = z[CW-1:0];
          if (col3[z] == col3[y]) nl3[y*CW +: CW] = z[CW-1:0];
        end
      end
      for (z = 0; z < 3 * N; z = z + 1) begin
        y = $unsigned($random(seed)) % (3 * N);
        if (y < N) begin
          if (lead1[y*CW +: CW] != nl1[y*CW +: CW]) set_lead(1, y, nl1[y*CW +: CW]);
        end else if (y < 2 * N) begin
          if (lead2[(y-N)*CW +: CW] != nl2[(y-N)*CW +: CW]) set_lead(2, y - N, nl2[(y-N)*CW +: CW]);
        end else begin
          if (lead3[(y-2*N)*CW +: CW] != nl3[(y-2*N)*CW +: CW]) set_lead(3, y - 2*N, nl3[(y-2*N)*CW +: CW]);
        end
      end
      for (y = 0; y < N; y = y + 1) begin
        if (lead1[y*CW +: CW] != nl1[y*CW +: CW]) set_lead(1, y, nl1[y*CW +: CW]);
        if (lead2[y*CW +: CW] != nl2[y*CW +: CW]) set_lead(2, y, nl2[y*CW +: CW]);
        if (lead3[y*CW +: CW] != nl3[y*CW +: CW]) set_lead(3, y, nl3[y*CW +: CW]);
      end
    end
  endtask

  function automatic [16:0] rnd_pw(input integer m);
    integer r;
    begin
      r = $random(seed);
      case (m)
        0: rnd_pw = 17'd1024;
        1: rnd_pw = (($unsigned(r) % 4) == 0) ? 17'd256 : 17'd1024 * (1 + $unsigned(r) % 4);
        2: rnd_pw = 17'd256 + $unsigned(r) % 3840;
        default: rnd_pw = 17'd256 + $unsigned(r) % (131072 - 256);
      endcase
    end
  endfunction

  task dump_fail(input [255:0] what);
    integer y;
    begin
      $display("tb_bal_lean N=%0d LOAD_W=%0d seed=%0d: FAIL at query %0d: %0s", N, LOAD_W, seed0, q, what);
      $display("  query: cpu %0d level %0d now_only %0d", cpu, level, now_only);
      $display("  lead1 %h lead2 %h lead3 %h", lead1, lead2, lead3);
      for (y = 0; y < N; y = y + 1)
        $display("  cpu %0d: load %0d hist %0d pw[l] %0d", y, load[y*LOAD_W +: LOAD_W],
                 hist[y*LOAD_W +: LOAD_W], u_ref.pw_q[((level << CW) + y) * 17 +: 17]);
      $display("  pct[l] %0d", u_ref.pct_q[level*8 +: 8]);
      $display("  hws_balance:      res %h regs %h", rres, regs_r);
      $display("  hws_balance_lean: res %h regs %h", lres, regs_l);
      $fatal(1, "tb_bal_lean: FAIL");
    end
  endtask

  reg [31:0] rres, lres;
  integer    ncyc, nd_r, nd_l, lat_l, nsteps;
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("queries=%d", queries)) queries = 2000;
    seed0 = seed;
    for (i = 0; i < 8; i = i + 1) vcount[i] = 0;
    do_reset;
    mode = 1;
    pwmode = 0;
    base = 0;
    ndirected = 0;
    directed = 1'b0;
    for (q = 0; q < queries; q = q + 1) begin
      // occasionally a reset; a new regime of loads and powers every few queries
      if (($random(seed) & 511) == 0) do_reset;
      if (($random(seed) & 7) == 0) begin
        mode = $unsigned($random(seed)) % 9;
        base = $unsigned($random(seed)) % 6000;
        pwmode = $unsigned($random(seed)) % 4;
        // powers all 1024 again (the common case, where the verdicts' bounds are reached)
        if (pwmode == 0)
          for (i = 0; i < 4 * N; i = i + 1) begin
            pw_we = 1'b1;
            pw_lvl = i / N;
            pw_cpu = i % N;
            pw = 17'd1024;
            tick;
            pw_we = 1'b0;
          end
      end
      if (($random(seed) & 3) == 0) new_parts;
      nsteps = $unsigned($random(seed)) % (N + 2);
      for (k = 0; k < nsteps; k = k + 1) begin
        case ($unsigned($random(seed)) % 8)
          0: begin
            pct_we = 1'b1;
            pct_lvl = $random(seed);
            pct = 8'd100 + $unsigned($random(seed)) % 156;
            tick;
            pct_we = 1'b0;
          end
          1, 2: begin
            pw_we = 1'b1;
            pw_lvl = $random(seed);
            pw_cpu = $unsigned($random(seed)) % N;
            pw = rnd_pw(pwmode);
            tick;
            pw_we = 1'b0;
          end
          3: begin   // a copy of another CPU's load and history: ties between CPUs
            x = $unsigned($random(seed)) % N;
            i = $unsigned($random(seed)) % N;
            set_load(x, load[i*LOAD_W +: LOAD_W], hist[i*LOAD_W +: LOAD_W]);
          end
          default: begin
            x = $unsigned($random(seed)) % N;
            if (($random(seed) & 3) == 0) set_load(x, rnd_load(mode), load[x*LOAD_W +: LOAD_W]);
            else if (($random(seed) & 3) == 0) set_load(x, load[x*LOAD_W +: LOAD_W], rnd_load(mode));
            else if ((mode == 8) && ($random(seed) & 1)) begin
              upd_now_new = rnd_load(mode);
              set_load(x, upd_now_new, upd_now_new);   // history = load
            end else set_load(x, rnd_load(mode), rnd_load(mode));
          end
        endcase
      end
      // Now and then (powers all 1024) a directed query at level 0: CPU cpu's load v, the
      // other CPUs of its P1 block v + a gap at a verdict's bound (1023, 1024, 2047, 2048,
      // 2049), so max_load - this_load is that gap. (Not after a level-0 query: see below.)
      directed = (N > 1) && (pwmode == 0) && (level != 2'd0) && (($random(seed) & 3) == 0);
      if (directed) begin
        cpu = $unsigned($random(seed)) % N;
        x = 1024 + $unsigned($random(seed)) % 3000;
        case ($unsigned($random(seed)) % 5)
          0: i = 1023;
          1: i = 1024;
          2: i = 2047;
          3: i = 2048;
          default: i = 2049;
        endcase
        for (k = 0; k < N; k = k + 1)
          if (lead1[k*CW +: CW] == lead1[cpu*CW +: CW])
            set_load(k, (k == cpu) ? x : x + i, (k == cpu) ? x : x + i);
        ndirected = ndirected + 1;
      end
      // BALANCE
      go = 1'b1;
      if (!directed) cpu = $unsigned($random(seed)) % N;
      // (a level other than the previous query's: hws_balance's `assign pwl =
      // lvl_pw_fn(lvl_q)` reads pw_q inside the function, so Icarus re-evaluates it only
      // when lvl_q changes, and a pw write between two queries at one level would leave
      // the reference with stale powers)
      if (directed) level = 2'd0;
      else level = level + 2'd1 + ($unsigned($random(seed)) % 3);
      now_only = $random(seed);
      tick;
      go = 1'b0;
      ncyc = 1;
      nd_r = 0;
      nd_l = 0;
      lat_l = 0;
      rres = 32'd0;
      lres = 32'd0;
      while (nd_l == 0 || nd_r == 0) begin
        if (done_r) begin
          nd_r = nd_r + 1;
          rres = res_r;
        end
        if (done_l) begin
          nd_l = nd_l + 1;
          lres = res_l;
          lat_l = ncyc;
        end
        tick;
        ncyc = ncyc + 1;
        if (ncyc > LAT_CF + 1000) dump_fail("no done_o");
      end
      // a few more cycles: no second done_o
      for (k = 0; k < 3; k = k + 1) begin
        if (done_r || done_l) dump_fail("a second done_o");
        tick;
      end
      if (lat_l != LAT_CF) begin
        $display("lean done_o in cycle %0d after the go edge, formula %0d", lat_l, LAT_CF);
        dump_fail("latency");
      end
      if (rres !== lres) dump_fail("result words differ");
      if (regs_r !== regs_l) dump_fail("BAL_* registers differ");
      vcount[rres[26:24]] = vcount[rres[26:24]] + 1;
    end
    if (N >= 2)
      for (i = 1; i < 8; i = i + 1)
        if (vcount[i] == 0)
          $fatal(1, "tb_bal_lean N=%0d LOAD_W=%0d seed=%0d: FAIL: weak run, verdict %0d never seen",
                 N, LOAD_W, seed0, i);
    $display("tb_bal_lean N=%0d LOAD_W=%0d seed=%0d: PASS (%0d queries, %0d directed; verdicts NO_BUSIEST %0d THIS_IS_MAX %0d THIS_ABOVE_AVG %0d WITHIN_PCT %0d NO_GAIN %0d MOVE %0d MOVE_ONE %0d)",
             N, LOAD_W, seed0, queries, ndirected, vcount[1], vcount[2], vcount[3], vcount[4], vcount[5],
             vcount[6], vcount[7]);
    $finish;
  end
endmodule

`default_nettype wire
