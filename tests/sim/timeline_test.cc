// The timeline of --svg (sim/machine/timeline.c; docs/simulator.md, "The timeline"): a
// picture a person can read (background, legend, round ticks, labelled lanes, one colour
// for delays only) whose size is bounded by lanes x columns, and --svg-window.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim/machine/machine.h"
#include "tests/test_util.h"

namespace {

struct SvgRun {
	int ret;
	std::string err, svg;
	unsigned cpus;
	uint64_t switches;
};

SvgRun svg_run(const char *workload, const char *topo, uint64_t duration_ns, uint64_t from_ns,
	       uint64_t to_ns, const char *path, const char *sched = "o1")
{
	machine_opts o;
	machine_default_opts(&o);
	o.workload = workload;
	o.topology = topo;
	o.sched = sched;
	o.duration_ns = duration_ns;
	o.svg = path;
	o.svg_from_ns = from_ns;
	o.svg_to_ns = to_ns;
	SvgRun x{};
	machine_result r;
	char err[400] = "";
	if (path)
		remove(path);
	x.ret = machine_run(&o, &r, nullptr, err, sizeof(err));
	x.err = err;
	if (!x.ret) {
		x.cpus = r.nr_cpus;
		x.switches = r.switches;
	}
	machine_result_free(&r);	// zeroed by machine_run, whatever it returns
	if (path) {
		FILE *f = fopen(path, "r");
		char buf[65536];
		size_t n;
		while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			x.svg.append(buf, n);
		if (f)
			fclose(f);
	}
	return x;
}

size_t count(const std::string &x, const std::string &what)
{
	size_t n = 0;
	for (size_t i = x.find(what); i != std::string::npos; i = x.find(what, i + 1))
		n++;
	return n;
}

// An attribute's value in the element that starts at @at.
std::string attr(const std::string &x, size_t at, const char *name)
{
	size_t end = x.find('>', at);
	size_t i = x.find(std::string(" ") + name + "=\"", at);
	if (i == std::string::npos || i > end)
		return "";
	i += strlen(name) + 3;
	return x.substr(i, x.find('"', i) - i);
}

// The tick labels (centred texts but the axis's own label).
std::vector<std::string> ticks(const std::string &x)
{
	std::vector<std::string> v;
	const std::string m = "text-anchor=\"middle\">";
	for (size_t i = x.find(m); i != std::string::npos; i = x.find(m, i + 1)) {
		std::string s = x.substr(i + m.size(), x.find('<', i) - i - m.size());
		if (s.compare(0, 5, "time ") != 0)
			v.push_back(s);
	}
	return v;
}

// 1, 2 or 5 times a power of ten (within rounding).
bool one_two_five(double d)
{
	if (!(d > 0))
		return false;
	double e = std::floor(std::log10(d) + 1e-9), m = d / std::pow(10, e);
	return std::fabs(m - 1) < 1e-6 || std::fabs(m - 2) < 1e-6 || std::fabs(m - 5) < 1e-6;
}

double hue_of(const std::string &hex)
{
	unsigned v = (unsigned)strtoul(hex.c_str() + 1, nullptr, 16);
	double r = (v >> 16) / 255.0, g = ((v >> 8) & 255) / 255.0, b = (v & 255) / 255.0;
	double mx = std::fmax(r, std::fmax(g, b)), mn = std::fmin(r, std::fmin(g, b)), h;
	if (mx == mn)
		return -1;	// grey: no hue
	if (mx == r)
		h = 60 * std::fmod((g - b) / (mx - mn), 6);
	else if (mx == g)
		h = 60 * ((b - r) / (mx - mn) + 2);
	else
		h = 60 * ((r - g) / (mx - mn) + 4);
	return h < 0 ? h + 360 : h;
}

TEST(Timeline, HasABackgroundALegendRoundTicksAndLabelledLanes)
{
	SvgRun x = svg_run("mix:tasks=8", "core=2", 30000000, 0, 0, "build/timeline_read.svg");
	ASSERT_EQ(x.ret, 0) << x.err;
	EXPECT_TRUE(hwstest::svg_well_formed(x.svg));
	// an opaque white background: the first element, the whole picture
	size_t bg = x.svg.find("<rect");
	EXPECT_EQ(attr(x.svg, bg, "fill"), "white");
	EXPECT_EQ(attr(x.svg, bg, "width"), "100%");
	EXPECT_EQ(attr(x.svg, bg, "height"), "100%");
	EXPECT_EQ(attr(x.svg, bg, "fill-opacity"), "");
	// a legend naming every mark
	for (const char *k : { ">Legend:<", "a task", "several tasks in one pixel column",
			       "wakeup delay", "migrated" })
		EXPECT_NE(x.svg.find(k), std::string::npos) << k;
	// lanes: CPU 0 and CPU 1
	EXPECT_NE(x.svg.find(">CPU 0<"), std::string::npos);
	EXPECT_NE(x.svg.find(">CPU 1<"), std::string::npos);
	// ticks: 0 and then equal 1-2-5 steps; the axis's label on a line of its own
	std::vector<std::string> t = ticks(x.svg);
	ASSERT_GE(t.size(), 3u);
	EXPECT_EQ(t[0], "0");
	double step = atof(t[1].c_str()) - atof(t[0].c_str());
	EXPECT_TRUE(one_two_five(step)) << t[1];
	for (size_t i = 1; i < t.size(); i++)
		EXPECT_NEAR(atof(t[i].c_str()) - atof(t[i - 1].c_str()), step, 1e-9) << t[i];
	size_t lab = x.svg.find(">time (ms)<");
	ASSERT_NE(lab, std::string::npos) << "30 ms are labelled in ms";
	size_t tick0 = x.svg.find("text-anchor=\"middle\">0<");
	double ly = atof(attr(x.svg, x.svg.rfind("<text", lab), "y").c_str());
	double ty = atof(attr(x.svg, x.svg.rfind("<text", tick0), "y").c_str());
	EXPECT_GE(ly - ty, 12) << "the axis's label below the tick labels, apart";
}

TEST(Timeline, TheTickStepIsOneTwoOrFiveInSensibleUnits)
{
	for (uint64_t span : { 7ull, 999ull, 30000000ull, 2000000000ull, 465537123ull,
			       5000000ull, 200000ull, 3600000000000ull }) {
		uint64_t s = machine_svg_tick_step(span, 10);
		EXPECT_TRUE(one_two_five((double)s)) << span << ": " << s;
		EXPECT_LT(span / s, 10u) << span;
		EXPECT_GE(span / s, 2u) << span << ": " << s << " leaves too few ticks";
	}
	// a window far from 0: its labels are short, in the unit of their size
	SvgRun x = svg_run("mix:tasks=4", "core=2", 30000000, 20000000, 24000000,
			   "build/timeline_ticks.svg");
	ASSERT_EQ(x.ret, 0) << x.err;
	std::vector<std::string> t = ticks(x.svg);
	ASSERT_GE(t.size(), 3u);
	EXPECT_EQ(t.front(), "20");
	EXPECT_EQ(t.back(), "24");
	EXPECT_TRUE(one_two_five(atof(t[1].c_str()) - atof(t[0].c_str()))) << t[1];
	EXPECT_NE(x.svg.find(">time (ms)<"), std::string::npos);
}

TEST(Timeline, NoTaskColourIsTheDelayColour)
{
	const double delay_hue = hue_of(MACHINE_SVG_DELAY_COLOUR);
	char c[8];
	for (unsigned k = 0; k < 5000; k++) {
		machine_svg_task_colour(k, c);
		ASSERT_EQ(strlen(c), 7u);
		EXPECT_STRNE(c, MACHINE_SVG_DELAY_COLOUR) << k;
		double h = hue_of(c), d = std::fabs(h - delay_hue);
		EXPECT_GE(std::fmin(d, 360 - d), 30) << "task " << k << " " << c << " is reddish";
	}
	// in a picture: fills are task colours, greys or white; the red is a delay line's only
	SvgRun x = svg_run("mix:tasks=40", "core=4", 30000000, 0, 0, "build/timeline_colours.svg");
	ASSERT_EQ(x.ret, 0) << x.err;
	size_t fills = 0;
	for (size_t i = x.svg.find(" fill=\"#"); i != std::string::npos;
	     i = x.svg.find(" fill=\"#", i + 1), fills++)
		EXPECT_NE(x.svg.substr(i + 7, 7), MACHINE_SVG_DELAY_COLOUR);
	EXPECT_GT(fills, 40u);
	const std::string red = std::string("\"") + MACHINE_SVG_DELAY_COLOUR + "\"";
	EXPECT_GT(count(x.svg, red), 1u) << "delays are drawn";
	for (size_t i = x.svg.find(red); i != std::string::npos; i = x.svg.find(red, i + 1))
		EXPECT_EQ(x.svg.compare(x.svg.rfind('<', i), 6, "<line "), 0);
}

// 2 s of tbench, 32 clients on 4 CPUs: more than 300,000 bursts; the picture has at most
// MACHINE_SVG_COLS burst rects a lane (plus the lanes' backgrounds and the legend's).
TEST(Timeline, ItsSizeIsBoundedByLanesTimesColumns)
{
	SvgRun x = svg_run("tbench:clients=32", "core=4", 2000000000ull, 0, 0,
			   "build/timeline_tbench.svg");
	ASSERT_EQ(x.ret, 0) << x.err;
	EXPECT_GT(x.switches, 300000u);
	EXPECT_TRUE(hwstest::svg_well_formed(x.svg));
	const size_t legend_rects = 6, lanes = x.cpus;
	EXPECT_LE(count(x.svg, "<rect "), lanes * (MACHINE_SVG_COLS + 1) + legend_rects + 1);
	EXPECT_LE(count(x.svg, "<line "), lanes * MACHINE_SVG_COLS / 2 + 100);
	// docs/simulator.md's bound: about 450 KB a lane at most (it is far less here)
	EXPECT_LT(x.svg.size(), lanes * 450000 + 20000) << "was 75.7 MB before issue 38";
	// and every burst rect stays in its lane's columns
	for (size_t i = x.svg.find("<rect "); i != std::string::npos; i = x.svg.find("<rect ", i + 1)) {
		if (x.svg.compare(x.svg.find('>', i) - 1, 1, "/") == 0)
			continue;	// backgrounds and the legend's swatches have no tooltip
		double l = atof(attr(x.svg, i, "x").c_str()), w = atof(attr(x.svg, i, "width").c_str());
		EXPECT_GE(l, 56);
		EXPECT_LE(l + w, 56 + MACHINE_SVG_COLS);
	}
}

TEST(Timeline, TheWindowRestrictsWhatIsDrawn)
{
	SvgRun all = svg_run("mix:tasks=8", "core=2", 100000000, 0, 0, "build/timeline_all.svg");
	SvgRun x = svg_run("mix:tasks=8", "core=2", 100000000, 40000000, 60000000,
			   "build/timeline_window.svg");
	ASSERT_EQ(x.ret, 0) << x.err;
	EXPECT_TRUE(hwstest::svg_well_formed(x.svg));
	size_t singles = 0, merged = 0, outside_all = 0;
	for (const std::string *s : { &all.svg, &x.svg }) {
		for (size_t i = s->find("<title>"); i != std::string::npos; i = s->find("<title>", i + 1)) {
			std::string t = s->substr(i, s->find("</title>", i) - i);
			double a, b;
			size_t k = t.find(", start ");
			if (k != std::string::npos) {
				a = atof(t.c_str() + k + 8);
				b = a + atof(t.c_str() + t.find(", length ") + 9);
			} else {
				k = t.find(" ms, busy");
				ASSERT_NE(k, std::string::npos) << t;
				size_t to = t.rfind(" to ", k);
				a = atof(t.c_str() + t.rfind(", ", to) + 2);
				b = atof(t.c_str() + to + 4);
			}
			if (s == &all.svg) {
				outside_all += b < 40 || a > 60;
				continue;
			}
			(k == t.find(", start ") ? singles : merged)++;
			EXPECT_LT(a, 60.0001) << t;
			EXPECT_GT(b, 39.9999) << t;
		}
	}
	EXPECT_GT(singles + merged, 10u);
	EXPECT_GT(outside_all, 10u) << "the whole run has bursts outside the window";
	std::vector<std::string> t = ticks(x.svg);
	ASSERT_GE(t.size(), 2u);
	EXPECT_EQ(t.front(), "40");
	EXPECT_EQ(t.back(), "60");
}

TEST(Timeline, BadWindowsAreNamed)
{
	// a window without --svg does nothing: refused
	SvgRun x = svg_run("mix:tasks=4", "core=2", 10000000, 1000000, 2000000, nullptr);
	EXPECT_EQ(x.ret, -EINVAL);
	EXPECT_NE(x.err.find("--svg-window"), std::string::npos) << x.err;
	EXPECT_NE(x.err.find("--svg FILE"), std::string::npos) << x.err;
	machine_opts o;
	machine_default_opts(&o);
	o.workload = "mix:tasks=4";
	o.topology = "core=2";
	o.sched = "o1";
	o.svg_to_ns = 1000;
	char err[300];
	EXPECT_EQ(machine_check_opts(&o, err, sizeof(err)), -EINVAL) << "checked before a run";
	// beyond --duration: before the run
	x = svg_run("mix:tasks=4", "core=2", 10000000, 5000000, 20000000, "build/timeline_bad.svg");
	EXPECT_EQ(x.ret, -EINVAL);
	EXPECT_NE(x.err.find("--svg-window"), std::string::npos) << x.err;
	EXPECT_NE(x.err.find("--duration"), std::string::npos) << x.err;
	EXPECT_TRUE(x.svg.empty()) << "nothing written";
	// beyond the end of a run that ended by itself: after it, nothing written
	x = svg_run("hackbench:groups=1,loops=2", "core=2", 10000000000ull, 9000000000ull,
		    10000000000ull, "build/timeline_bad.svg");
	EXPECT_EQ(x.ret, -EINVAL);
	EXPECT_NE(x.err.find("--svg-window"), std::string::npos) << x.err;
	EXPECT_NE(x.err.find("ends after the run"), std::string::npos) << x.err;
	EXPECT_TRUE(x.svg.empty()) << "nothing written";
	// END not after START
	x = svg_run("mix:tasks=4", "core=2", 10000000, 5000000, 5000000, "build/timeline_bad.svg");
	EXPECT_EQ(x.ret, -EINVAL);
	EXPECT_NE(x.err.find("--svg-window"), std::string::npos) << x.err;
}

} // namespace
