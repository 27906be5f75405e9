// hws_ffs16.vh - find-first-set of 16 bits as functions, included inside a module.
//
// ffs16(b): the index of the lowest set bit of b, 0 when b is 0 (the caller tells the two
// apart by b != 0). Proven equal to a priority scan over every input
// (formal/ffs16_check.v, formal/proofs.list) and checked exhaustively in simulation
// (tests/rtl/tb_ffs16.v).
//
// Three LUT levels: the four nibbles' zero flags and find-first-sets side by side, then two
// 2:1 choices. (A tree of 2:1 choices over the bits was 5 levels; a flat "no lower bit set"
// chain came out of ABC as a 9-level ripple, icetime's critical path on PICK_NEXT's step 2.)
  function automatic [1:0] ffs4(input [2:0] n);   // bits 2..0 of a nibble (3 if all 0)
    ffs4 = n[0] ? 2'd0 : n[1] ? 2'd1 : n[2] ? 2'd2 : 2'd3;
  endfunction
  function automatic [3:0] ffs16(input [15:0] b);
    reg z0, z1, z2, z3;            // nibble j is zero
    reg [1:0] f0, f1, f2, f3;      // first set bit of nibble j
    reg [1:0] lo_a, lo_b;
    begin
      z0 = (b[3:0] == 4'd0);    z1 = (b[7:4] == 4'd0);
      z2 = (b[11:8] == 4'd0);   z3 = (b[15:12] == 4'd0);
      f0 = ffs4(b[2:0]);        f1 = ffs4(b[6:4]);
      f2 = ffs4(b[10:8]);       f3 = ffs4(b[14:12]);
      lo_a = z0 ? f1 : f0;      // the first set nibble of the low byte
      lo_b = z2 ? f3 : f2;      // ... of the high byte
      if (z0 && z1 && z2 && z3) ffs16 = 4'd0;
      else ffs16 = {z0 && z1, (z0 && z1) ? z2 : z0, (z0 && z1) ? lo_b : lo_a};
    end
  endfunction
