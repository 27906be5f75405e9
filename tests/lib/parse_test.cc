// parse_test.cc - lib/hws_parse: the one strict parser of what a user types. Each rule of
// hws_parse.h, accepted and refused, with the message naming what, the text and the range.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <string>

#include "lib/hws_parse.h"

namespace {

struct U {
	int ret;
	uint64_t v;
	std::string err;
};

U uint_of(const char *s, uint64_t lo = 0, uint64_t hi = UINT64_MAX)
{
	U u{ 0, 12345, "" };
	char err[300] = "";
	u.ret = hws_parse_uint("--n", s, lo, hi, &u.v, err, sizeof(err));
	u.err = err;
	return u;
}

TEST(Parse, WholeNumbersAreDecimalDigitsOnly)
{
	EXPECT_EQ(uint_of("0").v, 0u);
	EXPECT_EQ(uint_of("010").v, 10u) << "a leading 0 is decimal, not octal";
	EXPECT_EQ(uint_of("18446744073709551615").v, UINT64_MAX);
	EXPECT_EQ(uint_of("9007199254740993").v, 9007199254740993ull)
		<< "2^53+1 exactly (no double on the way)";
	for (const char *bad : { "", "-1", "+1", " 1", "1 ", "1.0", "8.9", "1e3", "0x10", "nan",
				 "inf", "18446744073709551616", "99999999999999999999", "1k" }) {
		U u = uint_of(bad);
		EXPECT_EQ(u.ret, -EINVAL) << "'" << bad << "'";
		EXPECT_EQ(u.v, 12345u) << "'" << bad << "': nothing stored";
		EXPECT_NE(u.err.find("--n '" + std::string(bad) + "'"), std::string::npos) << u.err;
	}
	U r = uint_of("65", 1, 64);
	EXPECT_EQ(r.ret, -EINVAL);
	EXPECT_EQ(r.err, "--n '65': expected a whole number in 1..64");
	EXPECT_EQ(uint_of("0", 1, 64).ret, -EINVAL);
}

TEST(Parse, SignedWholeNumbers)
{
	int64_t v = 0;
	char err[200];
	EXPECT_EQ(hws_parse_int("nice", "-20", -20, 19, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, -20);
	EXPECT_EQ(hws_parse_int("x", "-9223372036854775808", INT64_MIN, INT64_MAX, &v, err,
				sizeof(err)), 0);
	EXPECT_EQ(v, INT64_MIN);
	for (const char *bad : { "-21", "20", "--1", "-", "+3", "-1.5", "-9223372036854775809" })
		EXPECT_EQ(hws_parse_int("nice", bad, -20, 19, &v, err, sizeof(err)), -EINVAL) << bad;
}

TEST(Parse, CountsTakeSuffixesAndNoFractions)
{
	uint64_t v = 0;
	char err[200];
	EXPECT_EQ(hws_parse_count("--c", "1M", 1, UINT64_MAX, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 1000000u);
	EXPECT_EQ(hws_parse_count("--c", "10k", 1, UINT64_MAX, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 10000u);
	EXPECT_EQ(hws_parse_count("--c", "3G", 1, UINT64_MAX, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 3000000000u);
	for (const char *bad : { "0.4", "1.5M", "M", "", "-1", "0", "20000000000G", "1e6" })
		EXPECT_EQ(hws_parse_count("--c", bad, 1, UINT64_MAX, &v, err, sizeof(err)), -EINVAL)
			<< bad;
}

TEST(Parse, RealsAreFiniteDecimals)
{
	double v = -1;
	char err[200];
	EXPECT_EQ(hws_parse_real("x", "0.25", 0, 1, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 0.25);
	EXPECT_EQ(hws_parse_real("x", ".5", 0, 1, &v, err, sizeof(err)), 0);
	EXPECT_EQ(hws_parse_real("x", "1e2", 0, 1000, &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 100);
	for (const char *bad : { "nan", "NaN", "inf", "-inf", "infinity", "0x1p3", "1e400", "",
				 ".", "1e", "1.2.3", "2 ", "-0.5", "1.5" })
		EXPECT_EQ(hws_parse_real("x", bad, 0, 1, &v, err, sizeof(err)), -EINVAL) << bad;
	EXPECT_STREQ(err, "x '1.5': expected a number in 0..1");
}

TEST(Parse, SwitchesAreOnOrOff)
{
	int v = -1;
	char err[200];
	EXPECT_EQ(hws_parse_on_off("--sw", "on", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 1);
	EXPECT_EQ(hws_parse_on_off("--sw", "off", &v, err, sizeof(err)), 0);
	EXPECT_EQ(v, 0);
	for (const char *bad : { "On", "OFF", "1", "0", "yes", "no", "true", "", " on", "on ", "onn" }) {
		v = 7;
		EXPECT_EQ(hws_parse_on_off("--sw", bad, &v, err, sizeof(err)), -EINVAL) << bad;
		EXPECT_EQ(v, 7) << bad;
	}
	EXPECT_STREQ(err, "--sw 'onn': expected on or off");
	EXPECT_EQ(hws_parse_on_off("--sw", nullptr, &v, err, sizeof(err)), -EINVAL);
}

TEST(Parse, DurationsHaveUnitsAndBounds)
{
	uint64_t ns = 0;
	char err[300];
	const uint64_t lo = 1000, hi = 3600000000000ull;
	struct {
		const char *s;
		uint64_t ns;
	} good[] = { { "2s", 2000000000ull }, { "500ms", 500000000ull }, { "300us", 300000 },
		     { "1.5", 1500000000ull }, { "2500ns", 2500 }, { "3600s", hi }, { "1us", lo } };
	for (auto &g : good) {
		ASSERT_EQ(hws_parse_duration("--duration", g.s, lo, hi, &ns, err, sizeof(err)), 0)
			<< g.s << ": " << err;
		EXPECT_EQ(ns, g.ns) << g.s;
	}
	for (const char *bad : { "nan", "inf", "infs", "1e9s", "3601s", "-1s", "0", "999ns",
				 "s", "2 s", "2sec", "1e999ms", "" })
		EXPECT_EQ(hws_parse_duration("--duration", bad, lo, hi, &ns, err, sizeof(err)),
			  -EINVAL) << bad;
	EXPECT_STREQ(err, "--duration '': expected a duration in 1us..3600s (a number and s, ms, "
			  "us or ns; no unit: s)");
}

// --svg-window's START:END: two durations, END after START, each within the range.
TEST(Parse, WindowsAreTwoDurationsInOrder)
{
	uint64_t a = 7, b = 7;
	char err[400];
	const uint64_t hi = 3600000000000ull;

	ASSERT_EQ(hws_parse_window("--svg-window", "0.5s:0.6s", hi, &a, &b, err, sizeof(err)), 0)
		<< err;
	EXPECT_EQ(a, 500000000u);
	EXPECT_EQ(b, 600000000u);
	ASSERT_EQ(hws_parse_window("--svg-window", "100ms:120ms", hi, &a, &b, err, sizeof(err)), 0);
	EXPECT_EQ(a, 100000000u);
	EXPECT_EQ(b, 120000000u);
	ASSERT_EQ(hws_parse_window("--svg-window", "0:250us", hi, &a, &b, err, sizeof(err)), 0);
	EXPECT_EQ(a, 0u);
	EXPECT_EQ(b, 250000u);
	for (const char *bad : { "", ":", "1s", "1s:", ":1s", "1s:2s:3s", "2s:1s", "1s:1s",
				 "1x:2s", "1s:2x", "-1s:2s", "0:3601s", "1s-2s" }) {
		a = b = 7;
		EXPECT_EQ(hws_parse_window("--svg-window", bad, hi, &a, &b, err, sizeof(err)),
			  -EINVAL) << bad;
		EXPECT_EQ(a, 7u) << bad;
		EXPECT_NE(std::string(err).find("--svg-window '"), std::string::npos) << err;
	}
	hws_parse_window("--svg-window", "2s:1s", hi, &a, &b, err, sizeof(err));
	EXPECT_STREQ(err, "--svg-window '2s:1s': END must come after START");
	hws_parse_window("--svg-window", "1s", hi, &a, &b, err, sizeof(err));
	EXPECT_STREQ(err, "--svg-window '1s': expected START:END, two durations (e.g. 0.5s:0.6s "
			  "or 100ms:120ms)");
	hws_parse_window("--svg-window", "1x:2s", hi, &a, &b, err, sizeof(err));
	EXPECT_STREQ(err, "--svg-window '1x:2s': START '1x': expected a duration in 0ns..3600s (a "
			  "number and s, ms, us or ns; no unit: s)");
}

TEST(Parse, KeyValueListsRefuseEmptyUnknownAndRepeatedKeys)
{
	unsigned core = 0, smt = 0;
	double speed = 0;
	int nice = 0;
	const hws_kv keys[] = {
		{ "core", HWS_KV_UNSIGNED, 1, 64, &core },
		{ "smt", HWS_KV_UNSIGNED, 1, 64, &smt },
		{ "speed", HWS_KV_DOUBLE, 0.01, 1, &speed },
		{ "nice", HWS_KV_INT, -20, 19, &nice },
	};
	uint64_t given = 0;
	char err[400];
	ASSERT_EQ(hws_parse_kv("topology", "core=4,smt=2,speed=0.5,nice=-3", keys, 4, &given,
			       err, sizeof(err)), 0) << err;
	EXPECT_EQ(core, 4u);
	EXPECT_EQ(smt, 2u);
	EXPECT_EQ(speed, 0.5);
	EXPECT_EQ(nice, -3);
	EXPECT_EQ(given, 15u);
	EXPECT_EQ(hws_parse_kv("topology", "", keys, 4, &given, err, sizeof(err)), 0);
	EXPECT_EQ(given, 0u);
	struct {
		const char *s, *msg;
	} bad[] = {
		{ "core=2,core=3", "topology 'core=2,core=3': key 'core' given twice" },
		{ ",,,", "topology ',,,': an empty item (a comma too many)" },
		{ "core=2,", "topology 'core=2,': an empty item (a comma too many)" },
		{ "core", "topology 'core': 'core' is not key=value" },
		{ "cores=2", "topology 'cores=2': unknown key 'cores' (known: core, smt, speed, nice)" },
		{ "core=2.5", "topology 'core=2.5': core '2.5': expected a whole number in 1..64" },
		{ "core=", "topology 'core=': core '': expected a whole number in 1..64" },
		{ "speed=nan", "topology 'speed=nan': speed 'nan': expected a number in 0.01..1" },
		{ "nice=-21", "topology 'nice=-21': nice '-21': expected a whole number in -20..19" },
	};
	for (auto &b : bad) {
		EXPECT_EQ(hws_parse_kv("topology", b.s, keys, 4, nullptr, err, sizeof(err)), -EINVAL)
			<< b.s;
		EXPECT_STREQ(err, b.msg);
	}
}

} // namespace
