/*
 * hws_vp_stub.c - build/hwsched without the virtual platform (hws_vp.h): `hwsched vp`
 * runs build/hwsched_vp, which links sim/vp/hws_vp.cpp instead of this file.
 */
#include <errno.h>
#include <stdio.h>

#include "hws_vp.h"

int hws_vp_available(void)
{
	return 0;
}

int hws_vp_run(const struct machine_opts *o, const struct hws_vp_opts *vo,
	       struct machine_result *r, struct hws_vp_result *vr, FILE *report, char *err,
	       size_t len)
{
	(void)o;
	(void)vo;
	(void)r;
	(void)vr;
	(void)report;
	snprintf(err, len, "this executable has no virtual platform (make vp builds "
		 "build/hwsched_vp)");
	return -ENOSYS;
}
