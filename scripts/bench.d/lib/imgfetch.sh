# The imgfetch binary the benchmark times (source it): a release build with the Swift runtime
# linked statically, as scripts/install builds it, installed as a copy the way scripts/install
# installs it.
#
# Why a copy: the linker writes the binary in small pieces, and Linux then keeps it in the page
# cache as small folios, which a process maps in with more page faults than a copied file (about
# 100 text faults instead of 73 for one `get` hit, 0.4 ms). A user runs the installed copy.

#
# Why --disable-local-rpath (as scripts/install builds it): SwiftPM gives an executable the
# run path $ORIGIN, where a binary linked with the Swift runtime statically has no library, so
# every start first looked for libm, libstdc++, libgcc_s and libc beside the binary: 15 failed
# openat calls, 4k instructions and 0.05-0.1 ms of a 2 ms `get` hit (hyperfine, alternating runs).

# bench_build_imgfetch ROOT DEST LOG: builds in ROOT, installs the binary as DEST, appends the
# build's output to LOG; returns non-zero when the build fails.
bench_build_imgfetch() {
  local root="$1" dest="$2" log="$3" built
  (cd "$root" && swift build -c release --static-swift-stdlib --disable-local-rpath --product imgfetch) >>"$log" 2>&1 || return 1
  built="$(cd "$root" && swift build -c release --static-swift-stdlib --disable-local-rpath --show-bin-path)/imgfetch"
  install -D -m 0755 "$built" "$dest"
}
