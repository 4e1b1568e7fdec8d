# The Debian packages the binary needs (sourced by scripts/package).
#
# The binary links only the C and C++ runtimes (its NEEDED entries); every other library is
# opened at first use, by the soname its C module names (Sources/C*/*.c). Each soname is mapped to
# the installed package that holds it (dpkg -S) and to that package's own shlibs entry, the
# minimum version Debian asks of a program linked to it, as dpkg-shlibdeps does for a linked
# library. A soname of the sources in neither list below stops the build, so that a new library
# is placed on purpose.

# Every fetch: the HTTP stack, and JPEG (TurboJPEG and libjpeg), PNG (libpng, zlib under it), WebP
# (still, animated, and its encoder's animations) and GIF.
package_required_sonames=(libcurl.so.4 libturbojpeg.so.0 libjpeg.so.62 libpng16.so.16 libz.so.1
  libwebp.so.7 libwebpdemux.so.2 libwebpmux.so.3 libgif.so.7)
# Only when an image needs them, with exit 8 naming the package when one is missing: AVIF, HEIC,
# JPEG XL, TIFF, ICC profiles (lcms2); the remote tier's SHA-256 (libcrypto, else a portable one; libcurl4 depends on it anyway).
package_optional_sonames=(libavif.so.15 libheif.so.1 libjxl.so.0.7 libjxl_threads.so.0.7 libtiff.so.6
  liblcms2.so.2 libcrypto.so.3)

# package_dependency SONAME: "package (>= version)" for the installed library SONAME.
package_dependency() {
  local soname="$1" arch package name number entry
  arch="$(dpkg --print-architecture)"
  package="$(dpkg -S "*/$soname" 2>/dev/null | sed -n "s/^\([^:,]*\):$arch: .*/\1/p" | head -1)"
  if [ -z "$package" ]; then
    echo "scripts/package: no installed package holds $soname (scripts/deps build installs them)" >&2
    return 1
  fi
  name="${soname%%.so.*}"
  number="${soname#*.so.}"
  entry="$(dpkg-query --control-show "$package:$arch" shlibs 2>/dev/null |
    awk -v n="$name" -v v="$number" '$1 == n && $2 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')"
  echo "${entry:-$package}"
}

# package_check_sonames: every soname the C modules load is in one of the two lists.
package_check_sonames() {
  local soname listed=" ${package_required_sonames[*]} ${package_optional_sonames[*]} "
  for soname in $(grep -ohE '"lib[A-Za-z0-9_+-]+\.so\.[0-9.]+"' Sources/C*/*.c | tr -d '"' | sort -u); do
    if [[ "$listed" != *" $soname "* ]]; then
      echo "scripts/package: $soname (Sources/C*) is neither required nor optional in scripts/package.d/dependencies.sh" >&2
      return 1
    fi
  done
}

# package_depends BINARY: the Depends field: the libraries BINARY links, then the required ones.
package_depends() {
  local binary="$1" soname dependency list=()
  package_check_sonames || return 1
  for soname in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') "${package_required_sonames[@]}"; do
    dependency="$(package_dependency "$soname")" || return 1
    list+=("$dependency")
  done
  package_field "${list[@]}"
}

# package_recommends: the Recommends field.
package_recommends() {
  local soname dependency list=()
  for soname in "${package_optional_sonames[@]}"; do
    dependency="$(package_dependency "$soname")" || return 1
    list+=("$dependency")
  done
  package_field "${list[@]}"
}

# package_field DEPENDENCY...: the dependencies once each, in order, as a control field's value.
package_field() {
  printf '%s\n' "$@" | awk '!seen[$0]++' | paste -sd, - | sed 's/,/, /g'
}
