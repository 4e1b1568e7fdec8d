# The imgfetch binary the benchmark times (source it): the release build scripts/build-release
# makes for scripts/install, installed as a copy the way scripts/install installs it.
#
# Why a copy: the linker writes the binary in small pieces, and Linux then keeps it in the page
# cache as small folios, which a process maps in with more page faults than a copied file (about
# 100 text faults instead of 73 for one `get` hit, 0.4 ms). A user runs the installed copy.

# bench_build_imgfetch ROOT DEST LOG: builds in ROOT, installs the binary as DEST, appends the
# build's output to LOG; returns non-zero when the build fails.
bench_build_imgfetch() {
  local root="$1" dest="$2" log="$3" built
  built="$("$root/scripts/build-release" 2>>"$log")" || return 1
  install -D -m 0755 "$built" "$dest"
}
