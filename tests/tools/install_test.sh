#!/usr/bin/env bash
# install_test.sh - make install / make uninstall into temporary prefixes (run by make test).
#
# usage: tests/tools/install_test.sh
# Installs with `make install PREFIX=$tmp/prefix`, then, from outside the repository:
#   - builds tests/tools/install_prog.c with `pkg-config --cflags --libs hwsched`
#     (PKG_CONFIG_PATH into the prefix) and runs it on the model and rtl backends: four
#     tasks enqueued, the picks must come in priority order (FIFO within one), then empty;
#     the rtl backend builds its engine shape (2x16x16g16) from the installed RTL into a
#     fresh per-user cache (XDG_CACHE_HOME=$tmp/cache): no prepared cache, no repository
#   - the same program linked with PREFIX/lib/libhws.a (whole archive) on the model backend
#   - the installed bin/hwsched runs lockstep on that shape from the same cache, and finds
#     bin/hwsched_vp beside itself; a copied hwsched without it says so
#   - each public header compiles on its own; the man page has every command; hwsched.f
#     lints with Verilator; hwsched.core lists every installed .v and .vh
#   - make install DESTDIR=$tmp/stage PREFIX=/opt/hws puts the files under the stage with
#     /opt/hws in hwsched.pc and hwsched.f
#   - make uninstall removes exactly what install put there, the prefix folder too when
#     install made it: a file of the user's in PREFIX/bin stays, and so do the folders
#     that hold it
# Prints one line per check and "install_test: N passed, M failed"; exit 1 on any failure.
set -u
case "${1:-}" in -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
ok() { echo "  ok: $*"; pass=$((pass + 1)); }
bad() { echo "  FAILED: $*" >&2; fail=$((fail + 1)); }
t=$(mktemp -d /tmp/hws-install-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
p=$t/prefix
mk() { make -C "$root" --no-print-directory -s "$@" >"$t/make.log" 2>&1; }

if mk install PREFIX="$p"; then
	ok "make install PREFIX=$p: $(tail -1 "$t/make.log")"
else
	bad "make install failed: $(tail -5 "$t/make.log")"
	echo "install_test: $pass passed, $fail failed"
	exit 1
fi
for f in bin/hwsched bin/hwsched_vp lib/libhws.a lib/libhws.so lib/pkgconfig/hwsched.pc \
	include/hws/hws.h share/hwsched/rtl/hws_top.v share/hwsched/rtl/hwsched.f \
	share/hwsched/rtl/hwsched.core share/man/man1/hwsched.1; do
	[ -f "$p/$f" ] || bad "make install did not install $f"
done
ok "the files are in place"

# A user's program, outside the repository, against the prefix.
cd "$t" || exit 1
export PKG_CONFIG_PATH=$p/lib/pkgconfig
if flags=$(pkg-config --cflags --libs hwsched) &&
	cc -std=c11 -Wall -Werror -o "$t/prog" "$root/tests/tools/install_prog.c" $flags 2>"$t/cc.log"; then
	ok "install_prog.c builds with pkg-config --cflags --libs hwsched ($flags)"
else
	bad "install_prog.c does not build against the prefix: $(cat "$t/cc.log")"
fi
# The expected order: by priority, FIFO among equals (the O(1) rule), from the input.
tasks="5:120 9:100 3:130 7:100"
want=$(for x in $tasks; do echo "${x#*:} ${x%%:*}"; done | awk '{ print NR, $0 }' |
	sort -k2,2n -k1,1n | awk '{ print "picked " $3 " " $2 }'; echo empty)
for be in model rtl; do
	# shellcheck disable=SC2086
	if XDG_CACHE_HOME=$t/cache HWS_ROOT= HWS_SHAPES= LD_LIBRARY_PATH=$p/lib "$t/prog" $be 2 16 $tasks \
		>"$t/out.$be" 2>"$t/err.$be" && [ "$(cat "$t/out.$be")" = "$want" ]; then
		ok "backend $be: picks in priority order: $(grep -c picked "$t/out.$be") tasks, then empty"
	else
		bad "backend $be: got [$(cat "$t/out.$be")] want [$want]: $(tail -3 "$t/err.$be")"
	fi
done
# The archive: whole, so that the backends' constructors are linked in (docs/usage.md).
if cc -std=c11 -Wall -Werror -o "$t/prog_static" "$root/tests/tools/install_prog.c" \
	$(pkg-config --cflags hwsched) -L"$p/lib" -Wl,--whole-archive -l:libhws.a -Wl,--no-whole-archive \
	$(pkg-config --static --libs-only-other --libs-only-l hwsched | sed 's/-lhws//') 2>"$t/cc.log" &&
	[ "$(HWS_ROOT= HWS_SHAPES= "$t/prog_static" model 2 16 $tasks 2>&1)" = "$want" ]; then
	ok "linked with lib/libhws.a (whole archive): the model backend picks in priority order"
else
	bad "the static link: $(cat "$t/cc.log") $(HWS_ROOT= "$t/prog_static" model 2 16 $tasks 2>&1 | tail -3)"
fi
if [ -f "$t/cache/hwsched/shapes/2x16x16g16/libhws_shape.so" ]; then
	ok "the rtl backend built its shape into \$XDG_CACHE_HOME/hwsched/shapes"
else
	bad "no shape in $t/cache/hwsched/shapes: $(ls -A "$t/cache/hwsched/shapes" 2>&1)"
fi
[ ! -e "$p/share/hwsched/build" ] && [ -z "$(find "$p" -newer "$p/share/hwsched/install-manifest" -type f)" ] &&
	ok "nothing was written into the prefix after install" ||
	bad "the prefix was written to after install: $(find "$p" -newer "$p/share/hwsched/install-manifest" -type f)"

# The installed hwsched: the same cache, hwsched_vp beside it.
out=$(XDG_CACHE_HOME=$t/cache HWS_ROOT= HWS_SHAPES= "$p/bin/hwsched" lockstep --cpus 2 --tasks 16 --commands 2000 2>&1)
[ "$(echo "$out" | tail -1)" = "lockstep: 2000 commands, 0 mismatches" ] &&
	ok "installed hwsched lockstep on the cached shape: $(echo "$out" | tail -1)" ||
	bad "installed hwsched lockstep: $out"
mkdir -p "$t/copy" && cp "$p/bin/hwsched" "$t/copy/"
out=$("$t/copy/hwsched" vp --workload hackbench:groups=1 2>&1)
[ $? = 1 ] && echo "$out" | grep -q "no $t/copy/hwsched_vp beside this executable" &&
	ok "a copied hwsched without hwsched_vp says where it looked" || bad "copied hwsched vp: $out"
# hwsched vp runs bin/hwsched_vp (hwsched has no platform linked in), which finds the
# installed tree: with --no-build it names the make command of a shape not yet built.
out=$(XDG_CACHE_HOME=$t/cache HWS_ROOT= HWS_SHAPES= "$p/bin/hwsched" vp --no-build \
	--workload hackbench:groups=1,loops=1 --topology core=2 2>&1)
if echo "$out" | grep -qF "make -C $p/share/hwsched shape SHAPE=2x256x16g16 SHAPES_DIR=$t/cache/hwsched/shapes"; then
	ok "installed hwsched vp runs bin/hwsched_vp, which builds shapes from share/hwsched"
else
	bad "installed hwsched vp: $out"
fi

# Headers, man page, file list, core.
for h in "$p"/include/hws/*.h; do
	echo "#include <hws/$(basename "$h")>" | cc -std=c11 -Wall -Werror -fsyntax-only -I"$p/include" -x c - 2>"$t/h.log" ||
		bad "include/hws/$(basename "$h") does not compile on its own: $(cat "$t/h.log")"
done
ok "every installed header compiles on its own"
for c in lockstep run replay trace-info vp; do
	grep -q "^\.SH COMMAND: ${c^^}" "$p/share/man/man1/hwsched.1" || bad "the man page has no section for $c"
done
grep -q '^\.TH HWSCHED 1' "$p/share/man/man1/hwsched.1" && ok "man page hwsched.1 with every command" ||
	bad "hwsched.1 has no .TH line"
verilator --lint-only -Wall --top-module hws_top -f "$p/share/hwsched/rtl/hwsched.f" >"$t/lint.log" 2>&1 &&
	ok "verilator -f hwsched.f lints the installed RTL" || bad "hwsched.f: $(tail -5 "$t/lint.log")"
core=$p/share/hwsched/rtl/hwsched.core
listed=$(sed -n 's/^      - \([^:]*\).*/\1/p' "$core" | sort)
present=$(cd "$p/share/hwsched/rtl" && ls ./*.v ./*.vh | sed 's|^\./||' | sort)
[ "$listed" = "$present" ] && head -1 "$core" | grep -q '^CAPI=2:' && grep -q 'toplevel: hws_top' "$core" &&
	ok "hwsched.core (CAPI=2) lists the $(echo "$present" | wc -l) RTL files, toplevel hws_top" ||
	bad "hwsched.core lists [$listed], the folder holds [$present]"

# DESTDIR staging.
if mk install PREFIX=/opt/hws DESTDIR="$t/stage" && [ -x "$t/stage/opt/hws/bin/hwsched" ] &&
	grep -qx 'prefix=/opt/hws' "$t/stage/opt/hws/lib/pkgconfig/hwsched.pc" &&
	grep -q '^/opt/hws/share/hwsched/rtl/hws_top.v$' "$t/stage/opt/hws/share/hwsched/rtl/hwsched.f" &&
	[ ! -e /opt/hws/bin/hwsched ]; then
	ok "DESTDIR=stage PREFIX=/opt/hws: files under the stage, /opt/hws in hwsched.pc and hwsched.f"
else
	bad "DESTDIR install: $(tail -3 "$t/make.log")"
fi
mk uninstall PREFIX=/opt/hws DESTDIR="$t/stage" && [ -z "$(find "$t/stage" -mindepth 1 ! -type d)" ] &&
	[ ! -e "$t/stage/opt/hws" ] && [ -d "$t/stage/opt" ] &&
	ok "uninstall of the staged install removes the prefix it made, not the folder above" ||
	bad "staged uninstall left: $(find "$t/stage" -mindepth 1 | head -5)"

# Uninstall keeps what is not install's.
echo "mine" >"$p/bin/my-script"
if mk uninstall PREFIX="$p"; then
	left=$(cd "$p" && find . -mindepth 1 | sort | tr '\n' ' ')
	[ "$left" = "./bin ./bin/my-script " ] &&
		ok "make uninstall removed install's files and folders, kept bin/my-script" ||
		bad "after uninstall the prefix holds: $left"
else
	bad "make uninstall failed: $(tail -3 "$t/make.log")"
fi
if ! mk uninstall PREFIX="$p" && grep -q "nothing removed" "$t/make.log"; then
	ok "a second uninstall finds no manifest and removes nothing"
else
	bad "a second uninstall: $(tail -3 "$t/make.log")"
fi

echo "install_test: $pass passed, $fail failed"
[ $fail = 0 ]
