/*
 * hws_m_bitmap.c - the model of rtl/hws_eng_bitmap.v: the per-(CPU, array) priority
 * bitmaps (their bit operations are the inline functions of hws_model_int.h); the list
 * PICK_NEXT and PEEK take from, and CPU_STAT's bitmap chunks (docs/accelerator.md 3).
 */
#include "models/hws_model_int.h"

/* The word PICK_NEXT/PEEK return, and the physical array and prio they take from. */
uint32_t hws_m_pick_word(const struct hws_model *m, unsigned cpu, int *swapped,
			 unsigned *parr, unsigned *prio)
{
	unsigned act = m->swap[cpu], p;

	*swapped = 0;
	p = bm_ffs(m->bm[cpu * 2 + act]);
	if (p == NPRIO) {
		act ^= 1;
		p = bm_ffs(m->bm[cpu * 2 + act]);
		if (p == NPRIO)
			return HWS_NONE_FLAG;
		*swapped = 1;
	}
	*parr = act;
	*prio = p;
	return (*swapped ? HWS_SWAP_FLAG : 0) |
	       ((uint32_t)m->head[qidx(cpu, act, p)] << HWS_RES_TASK_LSB) |
	       ((uint32_t)p << HWS_RES_PRIO_LSB);
}

/* CPU_STAT's bitmap selectors: 16 bits of the active or expired array's bitmap. */
uint32_t hws_m_bm_chunk(const struct hws_model *m, unsigned cpu, unsigned sel)
{
	unsigned act = m->swap[cpu];
	const uint32_t *bm;
	unsigned k;

	if (sel >= HWS_SEL_CPU_STAT_EXP_BM0) {
		bm = m->bm[cpu * 2 + (act ^ 1)];
		k = sel - HWS_SEL_CPU_STAT_EXP_BM0;
	} else {
		bm = m->bm[cpu * 2 + act];
		k = sel - HWS_SEL_CPU_STAT_ACT_BM0;
	}
	return (bm[k / 2] >> (16 * (k % 2))) & 0xffffu;
}
