// hws_synth_top: synthesis wrapper for timing estimates (not part of the engine).
//
// Puts one flop stage on every input and every output of hws_top, all on clk_i, so that
// every timed path of hws_top starts and ends at a register: nextpnr's "Max frequency"
// and icetime then measure the engine's register-to-register paths instead of ignoring
// (nextpnr) or adding (icetime) pad-to-register paths. The extra stage changes the bus
// timing by one cycle each way; it is for measuring only, never for a real system.
// Parameters are those of hws_top and are passed through unchanged.
`default_nettype none

module hws_synth_top #(
  parameter integer NR_CPUS   = 8,
  parameter integer NR_TASKS  = 256,
  parameter integer CMD_DEPTH = 16,
  parameter integer RES_DEPTH = 16,
  parameter integer NR_GROUPS = 16,
  parameter integer LCU_BALANCE = 1,
  parameter integer ERR_COUNTERS = 1,
  parameter integer BAL_LANES = 0,
  parameter integer IRQ       = 1,    // 0: without the preemption interrupt (hws_top)
  parameter integer PIPE      = 0,    // hws_top's (docs/accelerator.md 4.1.1)
  parameter integer LCU_LEAN  = 0     // 1: the area-lean BALANCE (hws_top; 8.2.1)
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        s_axi_awvalid_i,
  output reg         s_axi_awready_o,
  input  wire [9:0]  s_axi_awaddr_i,
  input  wire [2:0]  s_axi_awprot_i,
  input  wire        s_axi_wvalid_i,
  output reg         s_axi_wready_o,
  input  wire [31:0] s_axi_wdata_i,
  input  wire [3:0]  s_axi_wstrb_i,
  output reg         s_axi_bvalid_o,
  input  wire        s_axi_bready_i,
  output reg  [1:0]  s_axi_bresp_o,
  input  wire        s_axi_arvalid_i,
  output reg         s_axi_arready_o,
  input  wire [9:0]  s_axi_araddr_i,
  input  wire [2:0]  s_axi_arprot_i,
  output reg         s_axi_rvalid_o,
  input  wire        s_axi_rready_i,
  output reg  [31:0] s_axi_rdata_o,
  output reg  [1:0]  s_axi_rresp_o,
  output reg         irq_o              // hws_top's preemption interrupt
);
  // Input stage
  reg        rst_nq;
  reg        awvalid_q, wvalid_q, bready_q, arvalid_q, rready_q;
  reg [9:0]  awaddr_q, araddr_q;
  reg [2:0]  awprot_q, arprot_q;
  reg [31:0] wdata_q;
  reg [3:0]  wstrb_q;

  always @(posedge clk_i) begin
    rst_nq    <= rst_ni;
    awvalid_q <= s_axi_awvalid_i;
    awaddr_q  <= s_axi_awaddr_i;
    awprot_q  <= s_axi_awprot_i;
    wvalid_q  <= s_axi_wvalid_i;
    wdata_q   <= s_axi_wdata_i;
    wstrb_q   <= s_axi_wstrb_i;
    bready_q  <= s_axi_bready_i;
    arvalid_q <= s_axi_arvalid_i;
    araddr_q  <= s_axi_araddr_i;
    arprot_q  <= s_axi_arprot_i;
    rready_q  <= s_axi_rready_i;
  end

  // The engine
  wire        awready, wready, bvalid, arready, rvalid;
  wire [1:0]  bresp, rresp;
  wire [31:0] rdata;
  wire        irq;
  wire [NR_CPUS-1:0] irq_cpu;   // (the per-CPU lines: not brought out)

  hws_top #(
    .NR_CPUS(NR_CPUS), .NR_TASKS(NR_TASKS), .CMD_DEPTH(CMD_DEPTH),
    .RES_DEPTH(RES_DEPTH), .NR_GROUPS(NR_GROUPS), .LCU_BALANCE(LCU_BALANCE),
    .ERR_COUNTERS(ERR_COUNTERS), .BAL_LANES(BAL_LANES), .IRQ(IRQ), .PIPE(PIPE),
    .LCU_LEAN(LCU_LEAN)
  ) u_top (
    .clk_i(clk_i), .rst_ni(rst_nq),
    .s_axi_awvalid_i(awvalid_q), .s_axi_awready_o(awready), .s_axi_awaddr_i(awaddr_q),
    .s_axi_awprot_i(awprot_q),
    .s_axi_wvalid_i(wvalid_q), .s_axi_wready_o(wready), .s_axi_wdata_i(wdata_q),
    .s_axi_wstrb_i(wstrb_q),
    .s_axi_bvalid_o(bvalid), .s_axi_bready_i(bready_q), .s_axi_bresp_o(bresp),
    .s_axi_arvalid_i(arvalid_q), .s_axi_arready_o(arready), .s_axi_araddr_i(araddr_q),
    .s_axi_arprot_i(arprot_q),
    .s_axi_rvalid_o(rvalid), .s_axi_rready_i(rready_q), .s_axi_rdata_o(rdata),
    .s_axi_rresp_o(rresp), .irq_o(irq), .irq_cpu_o(irq_cpu)
  );
  wire unused_irq = &{1'b0, irq_cpu};

  // Output stage
  always @(posedge clk_i) begin
    s_axi_awready_o <= awready;
    s_axi_wready_o  <= wready;
    s_axi_bvalid_o  <= bvalid;
    s_axi_bresp_o   <= bresp;
    s_axi_arready_o <= arready;
    s_axi_rvalid_o  <= rvalid;
    s_axi_rdata_o   <= rdata;
    s_axi_rresp_o   <= rresp;
    irq_o           <= irq;
  end
endmodule

`default_nettype wire
