// out_test.cc - lib/hws_out: output files through a temporary file and a rename; streams
// written in place; directories, block devices, sockets refused untouched; write errors
// reported; JSON strings escaped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/hws_out.h"

namespace {

struct TempDir {
	std::string path;
	TempDir()
	{
		char t[] = "/tmp/hws_out_test_XXXXXX";
		path = mkdtemp(t) ? t : "";
	}
	~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
	std::string operator/(const std::string &n) const { return path + "/" + n; }
	// Every name in the directory, sorted, space-separated.
	std::string names() const
	{
		std::string s;
		std::vector<std::string> v;
		DIR *d = opendir(path.c_str());
		for (dirent *e; d && (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				v.push_back(e->d_name);
		if (d)
			closedir(d);
		std::sort(v.begin(), v.end());
		for (auto &n : v)
			s += n + " ";
		return s;
	}
};

std::string slurp(const std::string &p)
{
	std::string s;
	FILE *f = fopen(p.c_str(), "r");
	char b[512];
	size_t n;
	while (f && (n = fread(b, 1, sizeof(b), f)) > 0)
		s.append(b, n);
	if (f)
		fclose(f);
	return s;
}

int write_text(const std::string &path, const char *text, unsigned flags, std::string *msg)
{
	hws_out o;
	char err[400] = "";
	int ret = hws_out_open(&o, path.c_str(), flags, err, sizeof(err));
	if (!ret) {
		fputs(text, o.f);
		ret = hws_out_commit(&o, err, sizeof(err));
	}
	*msg = err;
	return ret;
}

TEST(Out, NewAndRegularFilesAreReplacedWhole)
{
	TempDir d;
	std::string m;
	ASSERT_EQ(write_text(d / "a.json", "one\n", 0, &m), 0) << m;
	EXPECT_EQ(slurp(d / "a.json"), "one\n");
	struct stat st;
	ASSERT_EQ(stat((d / "a.json").c_str(), &st), 0);
	mode_t um = umask(0);
	umask(um);
	EXPECT_EQ(st.st_mode & 0777, 0666u & ~um) << "the mode of a plain creation";
	ASSERT_EQ(chmod((d / "a.json").c_str(), 0640), 0);
	ASSERT_EQ(write_text(d / "a.json", "two\n", 0, &m), 0) << m;
	EXPECT_EQ(slurp(d / "a.json"), "two\n");
	ASSERT_EQ(stat((d / "a.json").c_str(), &st), 0);
	EXPECT_EQ(st.st_mode & 0777, 0640u) << "a replaced file keeps its mode";
	EXPECT_EQ(d.names(), "a.json ") << "no temporary file left";
}

TEST(Out, AbortLeavesTheOldFile)
{
	TempDir d;
	std::string m;
	ASSERT_EQ(write_text(d / "r.txt", "old\n", 0, &m), 0);
	hws_out o;
	char err[300];
	ASSERT_EQ(hws_out_open(&o, (d / "r.txt").c_str(), 0, err, sizeof(err)), 0);
	fputs("half", o.f);
	hws_out_abort(&o);
	EXPECT_EQ(slurp(d / "r.txt"), "old\n");
	EXPECT_EQ(d.names(), "r.txt ");
}

TEST(Out, ASymlinkIsFollowedAndKept)
{
	TempDir d;
	std::string m;
	ASSERT_EQ(write_text(d / "target", "old\n", 0, &m), 0);
	ASSERT_EQ(symlink((d / "target").c_str(), (d / "link").c_str()), 0);
	ASSERT_EQ(write_text(d / "link", "new\n", 0, &m), 0) << m;
	struct stat st;
	ASSERT_EQ(lstat((d / "link").c_str(), &st), 0);
	EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link stays a link";
	EXPECT_EQ(slurp(d / "target"), "new\n");
	ASSERT_EQ(symlink((d / "nowhere").c_str(), (d / "dangling").c_str()), 0);
	EXPECT_EQ(write_text(d / "dangling", "x", 0, &m), -ENOENT);
	EXPECT_NE(m.find("a symbolic link to nothing"), std::string::npos) << m;
}

TEST(Out, DirectoriesSocketsAndBlockDevicesAreRefusedUntouched)
{
	TempDir d;
	std::string m;
	ASSERT_EQ(mkdir((d / "dir").c_str(), 0755), 0);
	ASSERT_EQ(write_text(d / "dir/keep", "k", 0, &m), 0);
	char err[300];
	EXPECT_EQ(hws_out_check((d / "dir").c_str(), 0, err, sizeof(err)), -EISDIR);
	EXPECT_NE(std::string(err).find("a directory: refused, left untouched"),
		  std::string::npos) << err;
	EXPECT_EQ(write_text(d / "dir", "x", 0, &m), -EISDIR);
	EXPECT_EQ(write_text(d / "dir/", "x", 0, &m), -EISDIR);
	EXPECT_EQ(slurp(d / "dir/keep"), "k");

	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	sockaddr_un sa{};
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", (d / "sock").c_str());
	ASSERT_EQ(bind(s, (sockaddr *)&sa, sizeof(sa)), 0);
	EXPECT_EQ(write_text(d / "sock", "x", 0, &m), -EINVAL);
	EXPECT_NE(m.find("a socket"), std::string::npos) << m;
	struct stat st;
	ASSERT_EQ(lstat((d / "sock").c_str(), &st), 0);
	EXPECT_TRUE(S_ISSOCK(st.st_mode));
	close(s);

	EXPECT_EQ(write_text(d / "no/such/dir/x", "x", 0, &m), -ENOENT);
	EXPECT_NE(m.find("no directory"), std::string::npos) << m;
	EXPECT_EQ(write_text("", "x", 0, &m), -EINVAL);

	// A block device node, when this process may make one (root with CAP_MKNOD).
	if (mknod((d / "blk").c_str(), S_IFBLK | 0600, makedev(7, 200)))
		GTEST_SKIP() << "cannot mknod a block device here: " << strerror(errno);
	EXPECT_EQ(write_text(d / "blk", "x", 0, &m), -EINVAL);
	EXPECT_NE(m.find("a block device: refused"), std::string::npos) << m;
	ASSERT_EQ(lstat((d / "blk").c_str(), &st), 0);
	EXPECT_TRUE(S_ISBLK(st.st_mode)) << "still the device node";
}

TEST(Out, StreamsAreWrittenInPlaceNeverReplaced)
{
	TempDir d;
	std::string m;
	struct stat st;
	// /dev/null: written into, still the device
	ASSERT_EQ(write_text("/dev/null", "discarded\n", 0, &m), 0) << m;
	ASSERT_EQ(stat("/dev/null", &st), 0);
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	// /dev/full: the write error is reported
	EXPECT_EQ(write_text("/dev/full", "x\n", 0, &m), -ENOSPC);
	EXPECT_EQ(m, "cannot write /dev/full: No space left on device");
	ASSERT_EQ(stat("/dev/full", &st), 0);
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	// A FIFO with no reader: refused at once rather than waiting; still a FIFO
	ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0600), 0);
	EXPECT_EQ(write_text(d / "fifo", "x", 0, &m), -ENXIO);
	EXPECT_NE(m.find("a FIFO with no reader"), std::string::npos) << m;
	// With a reader, the text goes through it
	int rfd = open((d / "fifo").c_str(), O_RDONLY | O_NONBLOCK);
	ASSERT_GE(rfd, 0);
	ASSERT_EQ(write_text(d / "fifo", "through\n", 0, &m), 0) << m;
	char b[32] = "";
	EXPECT_EQ(read(rfd, b, sizeof(b)), 8);
	EXPECT_STREQ(b, "through\n");
	close(rfd);
	ASSERT_EQ(lstat((d / "fifo").c_str(), &st), 0);
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	// Writers that seek (the FST waveform) refuse streams
	char err[300];
	EXPECT_EQ(hws_out_check("/dev/null", HWS_OUT_SEEKABLE, err, sizeof(err)), -EINVAL);
	EXPECT_NE(std::string(err).find("this output needs a regular file"), std::string::npos);
	hws_out o;
	EXPECT_EQ(hws_out_temp(&o, "/dev/null", err, sizeof(err)), -EINVAL);
}

// /dev/stdout, /dev/fd/N, /proc/self/fd/N: the process's own descriptor, written through
// a duplicate at its offset, whatever it is open on; never replaced.
TEST(Out, OpenDescriptorsAreWrittenAtTheirOffset)
{
	TempDir d;
	std::string m;
	int p[2];
	ASSERT_EQ(pipe(p), 0);
	ASSERT_EQ(write_text("/dev/fd/" + std::to_string(p[1]), "via the pipe\n", 0, &m), 0) << m;
	char b[64] = "";
	EXPECT_EQ(read(p[0], b, sizeof(b)), 13);
	EXPECT_STREQ(b, "via the pipe\n");
	close(p[0]);
	close(p[1]);
	// a file opened as a shell's '>' would: the text lands after what is there
	int fd = open((d / "log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(write(fd, "report\n", 7), 7);
	ASSERT_EQ(write_text("/proc/self/fd/" + std::to_string(fd), "{}\n", 0, &m), 0) << m;
	ASSERT_EQ(write(fd, "end\n", 4), 4);
	close(fd);
	EXPECT_EQ(slurp(d / "log"), "report\n{}\nend\n");
	EXPECT_EQ(d.names(), "log ");
	char err[300];
	EXPECT_EQ(hws_out_check("/dev/fd/999", 0, err, sizeof(err)), -EBADF);
	EXPECT_NE(std::string(err).find("not open"), std::string::npos) << err;
	EXPECT_EQ(hws_out_check("/dev/stdout", HWS_OUT_SEEKABLE, err, sizeof(err)), -EINVAL);
}

// A write that fails (the file size limit: EFBIG, as a full disk gives ENOSPC) is
// reported and leaves the old file; run in a child, whose limit it is.
TEST(Out, AWriteErrorKeepsTheOldFile)
{
	TempDir d;
	std::string m;
	ASSERT_EQ(write_text(d / "big", "old\n", 0, &m), 0);
	pid_t pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		signal(SIGXFSZ, SIG_IGN);
		rlimit rl = { 4096, 4096 };
		setrlimit(RLIMIT_FSIZE, &rl);
		std::string big(100000, 'x');
		int ret = write_text(d / "big", big.c_str(), 0, &m);
		_exit(ret == -EFBIG && m.find("cannot write") == 0 ? 0 : 1);
	}
	int st = 0;
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the child saw no EFBIG";
	EXPECT_EQ(slurp(d / "big"), "old\n");
	EXPECT_EQ(d.names(), "big ") << "the temporary file is gone";
}

TEST(Out, TempThenCommitForWritersThatOpenByName)
{
	TempDir d;
	hws_out o;
	char err[300];
	ASSERT_EQ(hws_out_temp(&o, (d / "w.fst").c_str(), err, sizeof(err)), 0) << err;
	EXPECT_EQ(o.f, nullptr);
	FILE *f = fopen(o.tmp, "w");
	ASSERT_NE(f, nullptr);
	fputs("fst", f);
	fclose(f);
	ASSERT_EQ(hws_out_commit(&o, err, sizeof(err)), 0) << err;
	EXPECT_EQ(slurp(d / "w.fst"), "fst");
	EXPECT_EQ(d.names(), "w.fst ");
}

TEST(Out, JsonStringsAreEscaped)
{
	char *buf = nullptr;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	hws_json_str(f, "a\"b\\c\nd\te\x01/");
	fputc(' ', f);
	hws_json_str(f, nullptr);
	fclose(f);
	EXPECT_STREQ(buf, "\"a\\\"b\\\\c\\nd\\te\\u0001/\" \"\"");
	free(buf);
}

} // namespace
