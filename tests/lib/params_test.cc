// params_test.cc - lib/hws_params: regmap/params.def's table read back: defaults, every
// range edge, FEATURES, and the shape key's parser and printer (one implementation, the
// one build/hws_shape_key and hws_shape_key() use).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "lib/hws_params.h"

#ifndef HWS_TEST_SHAPES
#error "build with -DHWS_TEST_SHAPES (the Makefile's TEST_SHAPES)"
#endif

namespace {

struct Parsed {
	int ret;
	hws_params p;
	std::string msg;
};

Parsed parse(const std::string &key)
{
	Parsed r{};
	char msg[400] = "";
	r.ret = hws_params_key_parse(key.c_str(), &r.p, msg, sizeof(msg));
	r.msg = msg;
	return r;
}

std::string key_of(const hws_params &p)
{
	char key[HWS_PARAMS_KEY_MAX];
	hws_params_key(&p, key, sizeof(key));
	return key;
}

std::string check(const hws_params &p)
{
	char msg[600] = "";
	return hws_params_check(&p, msg, sizeof(msg)) ? std::string(msg) : std::string();
}

hws_params defaults()
{
	hws_params p;
	hws_params_default(&p);
	return p;
}

TEST(Params, DefaultsAreTheDefaultShape)
{
	hws_params p = defaults();
	EXPECT_EQ(p.nr_cpus, 8u);
	EXPECT_EQ(p.nr_tasks, 256u);
	EXPECT_EQ(p.cmd_depth, 16u);
	EXPECT_EQ(p.res_depth, 16u);
	EXPECT_EQ(p.nr_groups, (unsigned)HWS_DEF_GROUPS);
	EXPECT_EQ(p.no_balance, 0u);
	EXPECT_EQ(p.no_err_counters, 0u);
	EXPECT_EQ(p.nr_ports, 1u);
	EXPECT_EQ(p.bal_lanes, 0u) << "0: one lane per CPU";
	EXPECT_EQ(p.no_irq, 0u);
	EXPECT_EQ(p.pipe, 0u);
	EXPECT_EQ(check(p), "");
	EXPECT_EQ(key_of(p), "8x256x16g16");
	EXPECT_EQ(HWS_NR_PARAMS * sizeof(unsigned), sizeof(hws_params))
		<< "one unsigned field per parameter";
}

// Every key the tests build (the Makefile's TEST_SHAPES) parses and prints back as itself.
TEST(Params, TestShapesRoundTrip)
{
	std::istringstream in(HWS_TEST_SHAPES);
	std::string key;
	int n = 0;
	while (in >> key) {
		Parsed r = parse(key);
		ASSERT_EQ(r.ret, 0) << key << ": " << r.msg;
		EXPECT_EQ(key_of(r.p), key);
		EXPECT_EQ(check(r.p), "") << key;
		n++;
	}
	EXPECT_GE(n, 20) << "TEST_SHAPES: " << HWS_TEST_SHAPES;
}

TEST(Params, KeysThatAreNotCanonicalNameTheCanonicalOne)
{
	const struct {
		const char *key, *canon;
	} cases[] = {
		{ "8x256x16r16g16", "8x256x16g16" },   { "8x256x16g16p1", "8x256x16g16" },
		{ "8x256x16g16bl8", "8x256x16g16" },   { "8x256x16g16p1pi", "8x256x16g16pi" },
		{ "08x256x16g16", "8x256x16g16" },     { "8x0256x16g16", "8x256x16g16" },
		{ "2x16x4r4g16nbp2", "2x16x4g16nbp2" }, { "4x16x16g16bl04", "4x16x16g16" },
	};
	for (const auto &c : cases) {
		Parsed r = parse(c.key);
		EXPECT_EQ(r.ret, -EINVAL) << c.key;
		EXPECT_NE(r.msg.find(std::string("'") + c.key + "' is not canonical: use " + c.canon),
			  std::string::npos)
			<< c.key << ": " << r.msg;
	}
}

TEST(Params, MalformedKeysAreRefusedWithTheGrammar)
{
	for (const char *bad :
	     { "", "8x256x16", "x256x16g16", "8x256g16", "8x256x16g", "8x256x16g16nenb",
	       "8x256x16g16p4ne", "8x256x16g16p2bl2", "8x256x16g16ninb", "8x256x16g16pip2",
	       "8x256x16g16pini", "8x256x16g16nb2", "8x256x16g16 ", " 8x256x16g16", "8X256x16g16",
	       "8x256x16g16q", "8x256x16g16r4", "8x256x16g-1", "8x256x16g1234567890",
	       "8x256x16g16bl", "8x256x16g16p" }) {
		Parsed r = parse(bad);
		EXPECT_EQ(r.ret, -EINVAL) << "'" << bad << "'";
		EXPECT_NE(r.msg.find(std::string("'") + bad + "' is not a shape key: " +
				     hws_params_key_grammar),
			  std::string::npos)
			<< "'" << bad << "': " << r.msg;
	}
	Parsed r = parse("8x256x16g16nbbl2");
	EXPECT_EQ(r.ret, -EINVAL);
	EXPECT_NE(r.msg.find("8x256x16g16nbbl2: bl<lanes> (BAL_LANES) needs BALANCE: drop nb or bl"),
		  std::string::npos)
		<< r.msg;
}

// Each parameter at min-1, min, max and max+1: hws_params_check() and the key parser agree
// with the table, and the message names the parameter and its range.
TEST(Params, EveryRangeEdge)
{
	int edges = 0;
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++) {
		const struct hws_param_desc *d = hws_param_desc(i);
		ASSERT_NE(d, nullptr);
		hws_params base = defaults();
		const bool flag = !d->key_name[0];
		const unsigned max = d->max_param >= 0 ? hws_param_value(&base, d->max_param) : d->max;
		struct {
			long v;
			bool ok;
		} cases[] = { { (long)d->min - 1, false }, { d->min, true }, { max, true },
			      { (long)max + 1, false } };
		for (const auto &c : cases) {
			if (c.v < 0)
				continue;
			hws_params p = base;
			const unsigned v = (unsigned)c.v;
			/* the field's value: an inverted flag holds 1 - NAME */
			hws_param_set_field(&p, i, d->inverted && v <= 1 ? 1 - v : v);
			if (d->needs >= 0 && c.ok)
				ASSERT_EQ(hws_param_value(&p, d->needs), 1u);
			const std::string why = check(p);
			const bool zero_ok = v == 0 && d->has_zero;
			if (c.ok || zero_ok) {
				EXPECT_EQ(why, "") << d->name << "=" << v;
			} else {
				std::string says = flag ? std::string(d->inverted ? d->field : d->name) +
								  " must be 0 or 1" :
							  std::string(d->name) + " must be " +
								  std::to_string(d->min) + "..";
				EXPECT_NE(why.find(says), std::string::npos)
					<< d->name << "=" << v << ": " << why;
			}
			edges++;
			if (flag || zero_ok)
				continue;	/* a flag's key has no value; a 0 that means the implied
						 * value is not written */
			/* the same value in a key */
			const std::string key = key_of(p);
			Parsed r = parse(key);
			if (c.ok) {
				EXPECT_EQ(r.ret, 0) << key << ": " << r.msg;
			} else {
				EXPECT_EQ(r.ret, -EINVAL) << key;
				std::string says = key + ": " + d->name + " must be " +
						   std::to_string(d->min) + ".." + std::to_string(max) +
						   " (got " + std::to_string(v) + ")";
				EXPECT_NE(r.msg.find(says), std::string::npos) << key << ": " << r.msg;
			}
		}
	}
	EXPECT_GE(edges, 40);
	// a 0 written in a key is out of range, not another spelling of the part left out
	for (const char *k : { "8x256x16g16bl0", "8x256x16g16p0" }) {
		Parsed r = parse(k);
		EXPECT_EQ(r.ret, -EINVAL) << k;
		EXPECT_NE(r.msg.find(std::string(k) + ": " + (k[11] == 'b' ? "BAL_LANES must be 1..8" :
									  "NR_PORTS must be 1..4") +
				     " (got 0)"),
			  std::string::npos)
			<< r.msg;
	}
	// BAL_LANES needs BALANCE in the struct too
	hws_params p = defaults();
	p.no_balance = 1;
	p.bal_lanes = 2;
	EXPECT_NE(check(p).find("BAL_LANES must be 0 without BALANCE (no_balance = 1)"),
		  std::string::npos)
		<< check(p);
	p.bal_lanes = 0;
	EXPECT_EQ(check(p), "");
}

// FEATURES as the register map's fields say: the units built, BALANCE's lanes (0 without
// BALANCE), PIPE.
TEST(Params, Features)
{
	hws_params p = defaults();
	const uint32_t lanes8 = 8u << HWS_FEATURES_BAL_LANES_LSB;
	EXPECT_EQ(hws_params_features(&p), HWS_FEATURES_BALANCE_MASK | HWS_FEATURES_ERR_COUNTERS_MASK |
						   HWS_FEATURES_IRQ_MASK | lanes8);
	p.bal_lanes = 3;
	p.pipe = 1;
	EXPECT_EQ(hws_params_features(&p), HWS_FEATURES_BALANCE_MASK | HWS_FEATURES_ERR_COUNTERS_MASK |
						   HWS_FEATURES_IRQ_MASK | HWS_FEATURES_PIPE_MASK |
						   (3u << HWS_FEATURES_BAL_LANES_LSB));
	p = defaults();
	p.no_balance = p.no_err_counters = p.no_irq = 1;
	EXPECT_EQ(hws_params_features(&p), 0u);
	p = defaults();
	p.nr_cpus = 64;
	EXPECT_EQ(hws_params_features(&p) & HWS_FEATURES_BAL_LANES_MASK,
		  64u << HWS_FEATURES_BAL_LANES_LSB);
}

// The table agrees with the names the rest of the C code uses.
TEST(Params, TableNamesTheStructsFields)
{
	EXPECT_EQ(hws_param_find("NR_CPUS"), 0);
	EXPECT_EQ(hws_param_find("PIPE"), 10);
	EXPECT_EQ(hws_param_find("NOPE"), -1);
	EXPECT_EQ(hws_param_desc(HWS_NR_PARAMS), nullptr);
	hws_params p{};
	for (unsigned i = 0; i < HWS_NR_PARAMS; i++)
		hws_param_set_field(&p, i, 100 + i);
	EXPECT_EQ(p.nr_cpus, 100u);
	EXPECT_EQ(p.no_balance, 105u);
	EXPECT_EQ(p.nr_ports, 107u);
	EXPECT_EQ(p.bal_lanes, 108u);
	EXPECT_EQ(p.pipe, 110u);
	EXPECT_EQ(HWS_MAX_NR_CPUS, 64);
	EXPECT_EQ(HWS_MAX_DEPTH, 32);
	EXPECT_EQ(HWS_MIN_DEPTH, 2);
	EXPECT_EQ(HWS_MAX_NR_PORTS, 4);
}

} // namespace
