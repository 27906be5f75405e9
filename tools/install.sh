#!/usr/bin/env bash
# install.sh - make install / make uninstall: hwsched into PREFIX (under DESTDIR).
#
# usage: tools/install.sh install   BUILD PREFIX [DESTDIR]
#        tools/install.sh uninstall PREFIX [DESTDIR]
#   BUILD    the build folder with hwsched, hwsched_vp, BUILD/lib/libhws.{a,so}, man/hwsched.1
#   PREFIX   where the files will live (absolute; default of make install: /usr/local)
#   DESTDIR  a staging root the files are written under (packaging); default none
# Installs:
#   bin/hwsched, bin/hwsched_vp
#   PREFIX/lib/libhws.a, PREFIX/lib/libhws.so (lib, models, driver and the rtl backend's
#   loader), PREFIX/lib/pkgconfig/hwsched.pc, include/hws/*.h (and the lib/ headers hws.h
#   needs: none)
#   share/hwsched/rtl/*.v *.vh, hwsched.f (a Verilog file list), hwsched.core (FuseSoC)
#   share/hwsched/{Makefile,tools,sim,lib,include}: what builds an engine shape from the
#     installed RTL into ${XDG_CACHE_HOME:-$HOME/.cache}/hwsched/shapes on first use
#   share/man/man1/hwsched.1
#   share/hwsched/install-manifest: every file written and every folder made, so that
#     uninstall removes those and nothing else
# Each file is written to a temporary name beside its place and renamed into it.
set -euo pipefail
case "${1:-}" in -h | --help | "") sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; [ -n "${1:-}" ]; exit $? ;; esac
die() { echo "install.sh: $*" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)

MANIFEST_REL=share/hwsched/install-manifest

uninstall() {
	local prefix=$1 destdir=${2:-} dst m kind rel files=() dirs=()
	[[ $prefix == /* ]] || die "PREFIX must be an absolute path (got '$prefix')"
	dst=$destdir$prefix
	m=$dst/$MANIFEST_REL
	[ -f "$m" ] || die "no $m: nothing was installed into $dst by make install (nothing removed)"
	while read -r kind rel; do
		case $rel in "" | /* | *..*) die "$m: bad entry '$kind $rel' (nothing removed)" ;; esac
		case $kind in
		file) files+=("$rel") ;;
		dir) dirs+=("$rel") ;;
		*) die "$m: bad entry '$kind $rel' (nothing removed)" ;;
		esac
	done <"$m"
	# The files install wrote, then the folders it made, deepest first, only when empty.
	for rel in "${files[@]}"; do rm -f "$dst/$rel"; done
	rm -f "$m"
	if [ ${#dirs[@]} -gt 0 ]; then
		printf '%s\n' "${dirs[@]}" | sort -r | while read -r rel; do
			if [ "$rel" = . ]; then rmdir "$dst" 2>/dev/null || true
			else rmdir "$dst/$rel" 2>/dev/null || true; fi
		done
	fi
	echo "uninstall: removed the ${#files[@]} files make install put into $dst"
}

install_all() {
	local build=$1 prefix=$2 destdir=${3:-} dst gen f rel
	[[ $prefix == /* ]] || die "PREFIX must be an absolute path (got '$prefix')"
	for f in hwsched hwsched_vp lib/libhws.a lib/libhws.so man/hwsched.1; do
		[ -e "$build/$f" ] || die "$build/$f is not built (make install builds it first)"
	done
	dst=$destdir$prefix
	gen=$build/install-gen
	rm -rf "$gen" && mkdir -p "$gen"
	manifest=()
	# Folders this install makes (removed again by uninstall when empty).
	mkd() {
		local d=$1 rel=${1#"$dst"/} parts="" p
		IFS=/ read -ra p <<<"$rel"
		for x in "${p[@]}"; do
			parts=${parts:+$parts/}$x
			if [ ! -d "$dst/$parts" ]; then
				mkdir -p "$dst/$parts"
				manifest+=("dir $parts")
			fi
		done
	}
	put() { # SRC REL MODE
		local tmp
		mkd "$dst/$(dirname "$2")"
		tmp=$(mktemp "$dst/$2.XXXXXX")
		cp "$1" "$tmp" && chmod "$3" "$tmp" && mv -f "$tmp" "$dst/$2"
		manifest+=("file $2")
	}
	# PREFIX itself, when this install makes it ("dir ."; its parents stay).
	[ -d "$dst" ] || manifest+=("dir .")
	mkdir -p "$dst"

	put "$build/hwsched" bin/hwsched 755
	put "$build/hwsched_vp" bin/hwsched_vp 755
	put "$build/lib/libhws.a" lib/libhws.a 644
	put "$build/lib/libhws.so" lib/libhws.so 755
	for f in "$root"/include/hws/*.h; do put "$f" "include/hws/$(basename "$f")" 644; done
	put "$build/man/hwsched.1" share/man/man1/hwsched.1 644

	# The RTL, its file list and its FuseSoC core.
	local rtl_v rtl_vh share=share/hwsched
	rtl_v=$(cd "$root" && ls rtl/*.v | sort)
	rtl_vh=$(cd "$root" && ls rtl/*.vh | sort)
	for f in $rtl_v $rtl_vh; do put "$root/$f" "$share/$f" 644; done
	{
		echo "// hwsched.f - the engine's RTL (top: hws_top), for verilator/iverilog -f"
		echo "+incdir+$prefix/$share/rtl"
		for f in $rtl_v; do echo "$prefix/$share/$f"; done
	} >"$gen/hwsched.f"
	put "$gen/hwsched.f" "$share/rtl/hwsched.f" 644
	{
		echo "CAPI=2:"
		echo "name: hwsched:engine:hws_top:$VERSION"
		echo "description: hwsched run-queue engine behind AXI4-Lite (top hws_top)"
		echo "filesets:"
		echo "  rtl:"
		echo "    files:"
		for f in $rtl_vh; do echo "      - $(basename "$f"): {is_include_file: true}"; done
		for f in $rtl_v; do echo "      - $(basename "$f")"; done
		echo "    file_type: verilogSource"
		echo "targets:"
		echo "  default:"
		echo "    filesets: [rtl]"
		echo "    toplevel: hws_top"
		echo "  lint:"
		echo "    default_tool: verilator"
		echo "    filesets: [rtl]"
		echo "    toplevel: hws_top"
		echo "    tools:"
		echo "      verilator:"
		echo "        mode: lint-only"
		echo "        verilator_options: [-Wall]"
	} >"$gen/hwsched.core"
	put "$gen/hwsched.core" "$share/rtl/hwsched.core" 644

	# What builds a shape from the installed RTL (tools/shape_tree.mk).
	put "$root/tools/shape_tree.mk" "$share/Makefile" 644
	put "$root/tools/build_shape.sh" "$share/tools/build_shape.sh" 755
	for f in sim/harness/hws_shape_so.cpp sim/harness/hws_vsim_impl.h sim/harness/axi_master.h \
		sim/harness/hws_vsim.h sim/harness/hws_shape.h include/hws/axil_pins.h include/hws/units.h \
		include/hws/regs.h lib/hws_port_master.c lib/hws_port_master.h lib/hws_bus_timing.h \
		lib/hws_params.h lib/hws_params.c lib/hws_params_table.h include/hws/params_list.h \
		include/hws/hws.h include/hws/transport.h tools/hws_shape_key.c; do
		put "$root/$f" "$share/$f" 644
	done
	echo "hwsched's installed tree: engine shapes are built from here (docs/shapes.md)" >"$gen/installed-tree"
	put "$gen/installed-tree" "$share/installed-tree" 644

	# pkg-config
	{
		echo "prefix=$prefix"
		echo 'libdir=${prefix}/lib'
		echo 'includedir=${prefix}/include'
		echo
		echo "Name: hwsched"
		echo "Description: hwsched engine driver, C model and RTL backend (libhws)"
		echo "Version: $VERSION"
		echo 'Cflags: -I${includedir}'
		echo 'Libs: -L${libdir} -lhws'
		echo "Libs.private: $LIBS_PRIVATE"
	} >"$gen/hwsched.pc"
	put "$gen/hwsched.pc" lib/pkgconfig/hwsched.pc 644

	# The manifest: this install's entries and any of an earlier one still listed.
	local m=$dst/$MANIFEST_REL tmp
	tmp=$(mktemp "$m.XXXXXX")
	{
		[ ! -f "$m" ] || cat "$m"
		printf '%s\n' "${manifest[@]}"
	} | awk '!seen[$0]++' >"$tmp"
	chmod 644 "$tmp"
	mv -f "$tmp" "$m"
	echo "install: $(grep -c '^file ' "$m") files into $dst (list: $m)"
}

# the release version, from its one home (the VERSION file; tools/gen_version.sh reads it too)
VERSION=${HWS_VERSION:-$(tr -d ' \n' <"$(dirname "$0")/../VERSION")}
LIBS_PRIVATE=${HWS_LIBS_PRIVATE:--ldl -lz -lm -pthread}
case $1 in
install) [ $# -ge 3 ] && [ $# -le 4 ] || die "usage: tools/install.sh install BUILD PREFIX [DESTDIR]"
	install_all "$2" "$3" "${4:-}" ;;
uninstall) [ $# -ge 2 ] && [ $# -le 3 ] || die "usage: tools/install.sh uninstall PREFIX [DESTDIR]"
	uninstall "$2" "${3:-}" ;;
*) die "unknown action '$1' (install or uninstall; try --help)" ;;
esac
