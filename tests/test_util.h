// test_util.h - shared helpers of the GoogleTest suites.
#ifndef HWS_TEST_UTIL_H
#define HWS_TEST_UTIL_H

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "hws/hws.h"

namespace hwstest {

// Open a device or fail the test with the driver's message.
// @deep_check: the RTL walks all its lists every this many cycles (0: never). Each walk
// costs about NR_CPUS * 280 + NR_TASKS steps: every cycle is fine for directed tests of
// the default engine, long random runs use a sparser cadence.
// @b: a backend name ("model", "rtl", "lockstep"); with @tp, the caller's transport (the
// VP's tests), only a name. @bal_lanes: hws_config.bal_lanes (0: a lane per CPU).
inline hws_dev *open_dev(const char *b, unsigned cpus = 8, unsigned tasks = 256,
			 unsigned depth = 16, unsigned deep_check = 1,
			 const hws_transport *tp = nullptr, bool no_balance = false,
			 bool no_err_counters = false, bool no_irq = false,
			 unsigned bal_lanes = 0, bool pipe = false, bool lean = false)
{
	hws_config c;
	hws_dev *d = nullptr;
	char msg[512];

	hws_config_default(&c);
	c.backend = b;
	c.nr_cpus = cpus;
	c.nr_tasks = tasks;
	c.cmd_depth = depth;
	c.res_depth = depth;
	c.deep_check = std::string(b) == "model" ? 0 : deep_check;
	c.transport = tp;
	c.no_balance = no_balance;
	c.no_err_counters = no_err_counters;
	c.no_irq = no_irq;
	c.bal_lanes = bal_lanes;
	c.pipe = pipe;
	c.lcu_lean = lean;
	int ret = hws_open(&d, &c, msg, sizeof(msg));
	EXPECT_EQ(ret, 0) << msg;
	return ret ? nullptr : d;
}

struct DevCloser {
	void operator()(hws_dev *d) const { hws_close(d); }
};

// Every observable per-CPU value and every task's state: a snapshot of the engine.
inline std::vector<uint32_t> snapshot(hws_dev *d)
{
	const hws_config *c = hws_config_of(d);
	std::vector<uint32_t> v;
	uint32_t x;

	for (unsigned cpu = 0; cpu < c->nr_cpus; cpu++)
		for (unsigned sel = 0; sel < HWS_SEL_CPU_STAT_COUNT; sel++) {
			EXPECT_EQ(hws_cpu_stat(d, cpu, sel, &x), 0) << hws_errmsg(d);
			v.push_back(x);
		}
	for (unsigned t = 0; t < c->nr_tasks; t++)
		for (unsigned sel = 0; sel < HWS_SEL_TASK_STAT_COUNT; sel++) {
			EXPECT_EQ(hws_task_stat(d, t, sel, &x), 0) << hws_errmsg(d);
			v.push_back(x);
		}
	return v;
}

inline uint32_t reg(hws_dev *d, uint32_t off)
{
	uint32_t v = 0;

	EXPECT_EQ(hws_reg_read(d, off, &v), 0) << hws_errmsg(d);
	return v;
}

// A temporary directory for one test (/tmp/hws_test_XXXXXX), removed with what is in it.
struct TempDir {
	std::string path;
	TempDir()
	{
		char t[] = "/tmp/hws_test_XXXXXX";
		path = mkdtemp(t) ? t : "";
	}
	~TempDir()
	{
		if (!path.empty())
			std::system(("rm -rf '" + path + "'").c_str());
	}
	TempDir(const TempDir &) = delete;
	TempDir &operator=(const TempDir &) = delete;
	std::string operator/(const std::string &n) const { return path + "/" + n; }
};

// An SVG as write_svg emits it: it starts <svg, its tags balance, every element is closed;
// no stray '&' (the comms are escaped).
inline bool svg_well_formed(const std::string &x)
{
	std::vector<std::string> st;
	if (x.compare(0, 4, "<svg") != 0)
		return false;
	for (size_t i = x.find('<'); i != std::string::npos; i = x.find('<', i + 1)) {
		size_t j = x.find('>', i);
		if (j == std::string::npos || x.find('<', i + 1) < j)
			return false;
		std::string tag = x.substr(i + 1, j - i - 1);
		if (tag.empty())
			return false;
		if (tag.back() == '/')
			continue;
		std::string name = tag.substr(tag[0] == '/' ? 1 : 0);
		name = name.substr(0, name.find(' '));
		if (tag[0] == '/') {
			if (st.empty() || st.back() != name)
				return false;
			st.pop_back();
		} else {
			st.push_back(name);
		}
	}
	for (size_t i = x.find('&'); i != std::string::npos; i = x.find('&', i + 1))
		if (x.compare(i, 4, "&lt;") && x.compare(i, 4, "&gt;") && x.compare(i, 5, "&amp;"))
			return false;
	return st.empty();
}

#ifdef HWSCHED_BIN
// The hwsched executable run as a user runs it: exit status and stdout + stderr.
struct CliRun {
	int status;
	std::string out;
};

// Runs a shell command line: its output (stdout and stderr) and exit status.
inline CliRun shell(const std::string &cmd)
{
	CliRun r{ -1, "" };
	FILE *p = popen((cmd + " 2>&1").c_str(), "r");
	if (!p)
		return r;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		r.out.append(buf, n);
	int st = pclose(p);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return r;
}

inline CliRun hwsched(const std::string &args)
{
	return shell(std::string(HWSCHED_BIN) + " " + args);
}
#endif

// A whole file as a string ("" when it cannot be read).
inline std::string slurp(const std::string &path)
{
	std::string s;
	FILE *f = fopen(path.c_str(), "r");
	if (!f)
		return s;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		s.append(buf, n);
	fclose(f);
	return s;
}

// The repository's root: this test binary is build/tests/NAME in it.
inline std::string repo_root()
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return ".";
	std::string p(exe, (size_t)n);
	for (int up = 0; up < 3; up++)
		p = p.substr(0, p.find_last_of('/'));
	return p.empty() ? "/" : p;
}

// Where the real traces are: $HWS_TRACE_DIR when set, else the repository's traces/ (found
// from this test binary, build/tests/NAME). "" when that directory lacks make_j4.txt.gz.
inline std::string trace_dir()
{
	const char *env = getenv("HWS_TRACE_DIR");
	std::string d = env && *env ? std::string(env) : repo_root() + "/traces";
	return access((d + "/make_j4.txt.gz").c_str(), R_OK) ? std::string() : d;
}

// The traces are in the repository: a test that needs them fails without them.
// HWS_TRACES_OPTIONAL=1 (a checkout without them, or an empty $HWS_TRACE_DIR) turns that
// into a skip, reported as a skip by tests/run_all.sh. Every test that reads a real trace
// starts with it.
#define HWS_NEED_TRACES(dir)                                                               \
	do {                                                                               \
		if ((dir).empty()) {                                                       \
			const char *o_ = getenv("HWS_TRACES_OPTIONAL");                   \
			if (o_ && !strcmp(o_, "1"))                                        \
				GTEST_SKIP() << "no traces (HWS_TRACES_OPTIONAL=1)";       \
			const char *e_ = getenv("HWS_TRACE_DIR");                         \
			FAIL() << "the traces are not in "                                 \
			       << (e_ && *e_ ? std::string(e_) + " ($HWS_TRACE_DIR)"        \
					     : hwstest::repo_root() + "/traces");           \
		}                                                                          \
	} while (0)

// The "linux" member of a trace's sidecar (traces/README.md) as hwsched trace-info --json -
// prints it: tools/record_trace.sh indents its lines after the first by two spaces, and
// the sidecar closes after it. "" when the sidecar has none.
inline std::string sidecar_linux(const std::string &sidecar)
{
	const std::string key = "\n  \"linux\": ";
	size_t at = sidecar.find(key);
	if (at == std::string::npos || sidecar.size() < at + key.size() + 2 ||
	    sidecar.compare(sidecar.size() - 2, 2, "}\n"))
		return std::string();
	std::string body = sidecar.substr(at + key.size(), sidecar.size() - 2 - at - key.size());
	std::string out;
	size_t pos = 0;
	for (bool first = true; pos < body.size(); first = false) {
		size_t nl = body.find('\n', pos);
		std::string line = body.substr(pos, nl == std::string::npos ? nl : nl + 1 - pos);
		if (!first && line.compare(0, 2, "  ") == 0)
			line = line.substr(2);
		out += line;
		pos = nl == std::string::npos ? body.size() : nl + 1;
	}
	return out;
}

// hwsched trace-info --json - as a sidecar holds it: without the "version" and "schema"
// line (the build's provenance, docs/json.md; tools/record_trace.sh leaves it out).
inline std::string without_provenance(const std::string &json)
{
	const std::string key = "{\n  \"version\": ";
	if (json.compare(0, key.size(), key) != 0)
		return json;
	size_t nl = json.find('\n', 2);
	return nl == std::string::npos ? json : "{" + json.substr(nl);
}

// A seed from HWS_SEED in the environment, else @def.
inline uint64_t seed_from_env(uint64_t def)
{
	const char *s = getenv("HWS_SEED");

	return s ? strtoull(s, nullptr, 0) : def;
}

// A small JSON reader: objects, numbers, null, true, false, strings (with JSON's escapes),
// arrays; leaves flattened into "a.b" -> the text of the value ("null" for null). ok is
// false on anything malformed. It keeps a reference: the text must outlive it.
struct Json {
	const std::string &s;
	size_t i = 0;
	bool ok = true;
	std::map<std::string, std::string> leaves;
	explicit Json(const std::string &text) : s(text)
	{
		value("");
		ws();
		if (i != s.size())
			ok = false;
	}
	void ws() { while (i < s.size() && isspace((unsigned char)s[i])) i++; }
	std::string str()
	{
		std::string r;
		if (s[i] != '"') { ok = false; return r; }
		for (i++; i < s.size() && s[i] != '"'; i++) {
			if ((unsigned char)s[i] < 0x20) { ok = false; return r; }
			if (s[i] != '\\') { r += s[i]; continue; }
			if (++i >= s.size()) break;
			const char *e = strchr("\"\\/bfnrtu", s[i]);
			if (!e || !s[i]) { ok = false; return r; }	// not one of JSON's escapes
			if (s[i] == 'u') {
				if (i + 4 >= s.size() || !isxdigit((unsigned char)s[i + 1]) ||
				    !isxdigit((unsigned char)s[i + 2]) ||
				    !isxdigit((unsigned char)s[i + 3]) ||
				    !isxdigit((unsigned char)s[i + 4])) { ok = false; return r; }
				r += s.substr(i - 1, 6);	// kept as written
				i += 4;
				continue;
			}
			r += s[i] == 'n' ? '\n' : s[i] == 't' ? '\t' : s[i] == 'r' ? '\r' :
			     s[i] == 'b' ? '\b' : s[i] == 'f' ? '\f' : s[i];
		}
		if (i >= s.size()) ok = false;
		i++;
		return r;
	}
	void value(const std::string &path)
	{
		ws();
		if (i >= s.size()) { ok = false; return; }
		if (s[i] == '{') {
			i++; ws();
			if (s[i] == '}') { i++; return; }
			while (ok) {
				ws();
				std::string k = str();
				ws();
				if (s[i] != ':') { ok = false; return; }
				i++;
				value(path.empty() ? k : path + "." + k);
				ws();
				if (s[i] == ',') { i++; continue; }
				if (s[i] == '}') { i++; return; }
				ok = false;
			}
		} else if (s[i] == '[') {
			i++; ws();
			unsigned n = 0;
			if (s[i] == ']') { i++; return; }
			while (ok) {
				value(path + "." + std::to_string(n++));
				ws();
				if (s[i] == ',') { i++; continue; }
				if (s[i] == ']') { i++; return; }
				ok = false;
			}
		} else if (s[i] == '"') {
			leaves[path] = str();
		} else if (s.compare(i, 4, "null") == 0) {
			leaves[path] = "null";
			i += 4;
		} else if (s.compare(i, 4, "true") == 0) {
			leaves[path] = "true";
			i += 4;
		} else if (s.compare(i, 5, "false") == 0) {
			leaves[path] = "false";
			i += 5;
		} else {
			size_t b = i;
			while (i < s.size() && (isdigit((unsigned char)s[i]) || strchr("+-.eE", s[i])))
				i++;
			if (b == i) { ok = false; return; }
			char *end = nullptr;
			std::string num = s.substr(b, i - b);
			strtod(num.c_str(), &end);
			if (*end) ok = false;
			leaves[path] = num;
		}
	}
};

} // namespace hwstest

#endif // HWS_TEST_UTIL_H
