/*
 * hws_uart - the engine on a board, over a serial line: transport backend "uart".
 *
 *   hws_dev --(struct hws_transport)--> hws_uart --termios, 8N1--> board_top (synth/)
 *                                                                   -> hws_top's AXI4-Lite
 *
 * Each register access is one frame of the protocol of docs/board.md: 'R' ADDR answered by
 * RRESP D0..D3, 'W' ADDR D0..D3 (all strobes) or 'S' ADDR STRB D0..D3 answered by BRESP.
 * The tty is put in raw mode at the board's baud rate; every reply is awaited with a
 * timeout, so a board that is absent, unprogrammed or hung gives -ETIMEDOUT naming the
 * device, never a hang. A reply that breaks the protocol (a RESP byte above 3, bytes
 * nobody asked for) gives -EPROTO. After either, the line is out of step with the board:
 * every later access fails the same way (reopen to resynchronise).
 *
 * Backend "uart:DEVICE[,baud=N][,clk=HZ][,timeout=MS]" (registered when this unit is
 * linked) opens the line with hws_uart_open_spec(), refuses a board whose engine is not
 * the shape asked for (-ENOTSUP, naming the board's shape), and answers HWS_RESP_FAILED
 * when the line fails, errmsg() being this unit's message. "lockstep:uart:DEVICE" runs
 * the C model beside it (driver/hws_lockstep.c).
 *
 * What the line cannot carry: the engine's clock. The board's engine runs freely on its
 * own clock between frames, so the transport reports 0 clock edges per access and its
 * idle() does nothing; its settle_edges is hws_uart_settle_edges(), the fewest clock
 * edges the board's engine has between two accesses.
 *
 * The library never prints; errors are negative errno values with hws_uart_errmsg().
 */
#ifndef HWS_UART_H
#define HWS_UART_H

#include <stddef.h>
#include <stdint.h>

#include "hws/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The board's line rate and clock unless told otherwise: synth/board_top.v's BAUD and
 * CLK_HZ defaults (tests/sim/board_test.cc checks they agree with the Verilated board). */
#define HWS_UART_DEFAULT_BAUD 115200u
#define HWS_UART_DEFAULT_CLK_HZ 12000000u
#define HWS_UART_DEFAULT_TIMEOUT_MS 1000u

struct hws_uart;

struct hws_uart_opts {
	unsigned baud;		/* line rate: a termios rate, 9600..4000000 */
	unsigned clk_hz;	/* the board's clock (for hws_uart_settle_edges()) */
	unsigned timeout_ms;	/* longest wait for a reply, 1..600000 */
};

/* What went over the line since hws_uart_open(). */
struct hws_uart_stats {
	uint64_t reads, writes;		/* frames answered */
	uint64_t commands;		/* of the writes, those to CMD */
	uint64_t bytes_out, bytes_in;	/* including the resynchronisation at open */
	double wall_ns;			/* time spent waiting for frames to go and come back */
};

/* hws_uart_default_opts - 115200 baud, 12 MHz, 1000 ms. */
void hws_uart_default_opts(struct hws_uart_opts *o);

/**
 * hws_uart_open - open the serial line to a board and check that the board answers
 * @out: receives the handle
 * @device: the tty, e.g. /dev/ttyUSB1
 * @o: line options (NULL: hws_uart_default_opts())
 * @msg: receives the reason on failure, naming @device
 * @len: size of @msg
 *
 * Opens @device without blocking on modem lines, locks it (flock) against a second user,
 * puts it in raw 8N1 mode at @o->baud, completes any frame a previous user left half sent
 * (six 0xFF bytes: 0xFF is no frame's first byte, and as an address it is unmapped),
 * discards what the board says to that, and reads ID.
 *
 * Return: 0; -EINVAL (bad options), -ENOENT / -EACCES / ... (open failed), -ENOTTY (not a
 * terminal), -EBUSY (another process has it), -ETIMEDOUT (no answer within the timeout),
 * -EPROTO (an answer that is not the protocol's, or not the engine's ID), -ENOMEM.
 */
int hws_uart_open(struct hws_uart **out, const char *device, const struct hws_uart_opts *o,
		  char *msg, size_t len);

/**
 * hws_uart_open_spec - hws_uart_open() from "DEVICE[,baud=N][,clk=HZ][,timeout=MS]"
 *
 * The text after "uart:" in hwsched's --backend. Return: as hws_uart_open(); -EINVAL for
 * an empty device or an unknown or malformed option.
 */
int hws_uart_open_spec(struct hws_uart **out, const char *spec, char *msg, size_t len);

/* hws_uart_close - release the line (NULL-safe). */
void hws_uart_close(struct hws_uart *u);

/**
 * hws_uart_read - one read frame
 * @addr: byte address 0..255 (the frame's ADDR is one byte)
 * @data: receives RDATA
 * @resp: receives RRESP (0 OKAY, 2 SLVERR)
 *
 * Return: 0; -EINVAL (@addr > 255; nothing sent), -ETIMEDOUT, -EPROTO, -EIO (the line
 * failed), or the error that stopped the line before.
 */
int hws_uart_read(struct hws_uart *u, uint32_t addr, uint32_t *data, uint32_t *resp);

/* hws_uart_write - one write frame ('W' when @strb is 0xF, else 'S'); as hws_uart_read(). */
int hws_uart_write(struct hws_uart *u, uint32_t addr, uint32_t data, uint32_t strb,
		   uint32_t *resp);

/* The message of the last failure, naming the device ("" when none). */
const char *hws_uart_errmsg(const struct hws_uart *u);

/**
 * hws_uart_settle_edges - the fewest clock edges the board's engine runs between two
 * accesses: one byte time (10 bits of clk_hz / baud clocks), as the board sends at least
 * one reply byte after a transaction before it can take the next frame.
 */
unsigned hws_uart_settle_edges(const struct hws_uart *u);

/* hws_uart_get_stats - what went over the line since the open. */
void hws_uart_get_stats(const struct hws_uart *u, struct hws_uart_stats *s);

/**
 * hws_uart_read_shape - the parameters the board's engine was built with
 * @p: receives them, read from NR_CPUS, NR_TASKS, DEPTHS, NR_GROUPS and FEATURES
 *
 * Return: 0; -EPROTO when one of those reads is refused; errors as hws_uart_read().
 */
int hws_uart_read_shape(struct hws_uart *u, struct hws_params *p);

#ifdef __cplusplus
}
#endif

#endif /* HWS_UART_H */
