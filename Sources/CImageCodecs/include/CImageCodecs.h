#ifndef IMGFETCH_CIMAGECODECS_H
#define IMGFETCH_CIMAGECODECS_H
// The image codec libraries, loaded when an image is first decoded instead of linked: the header
// checks that validate a download are imgfetch's own (but for JPEG XL's frame headers, read by
// libjxl), so a cache hit or a prefetch never decodes, and loading these libraries cost every
// start of the tool about half a millisecond. Each format's library has a header of its own here,
// imgfetch_FORMAT.h, beside its C file (this directory is the module's umbrella: module.modulemap);
// the library's headers supply types and constants only, and each function declared forwards to
// the library's own, resolved by its group's load function.
//
// A load function (imgfetch_FORMAT_load) loads its group's libraries once per process
// (thread-safe) and returns NULL on success, or a message saying why they could not be loaded; a
// group's functions may be called only after its load succeeded. IMGFETCH_FORMAT_LIBRARY is the
// file it loads first, which the format's spec names (Decode/FORMAT/FORMATFormat.swift).
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "CImageTransform.h"  // lcms2 and the encoders, for the transforms

/// The status of the whole-image calls (AVIF, HEIC, JPEG XL, TIFF, PNG rows): their structures
/// stay on the C side, and Swift sees only calls that decode into a caller's RGBA8 buffer of
/// `width` × `height` (rows of width * 4 bytes) and fail when the image decodes to another size.
/// On failure they put the library's message, NUL-terminated, in `message` (`message_size` bytes).
enum { IMGFETCH_CODEC_DECODED = 0, IMGFETCH_CODEC_FAILED = -1, IMGFETCH_CODEC_TRUNCATED = -2 };

const char *imgfetch_zlib_load(void);   // libz, in zlib.c

/// Inflates the zlib stream of `size` bytes at `data` into `output` (`capacity` bytes). Returns the
/// number of bytes written, IMGFETCH_INFLATE_TOO_LARGE when they would not fit in `capacity`, or
/// IMGFETCH_INFLATE_FAILED when the stream is damaged or ends before its end marker.
enum { IMGFETCH_INFLATE_FAILED = -1, IMGFETCH_INFLATE_TOO_LARGE = -2 };
long imgfetch_zlib_inflate(const uint8_t *data, size_t size, uint8_t *output, size_t capacity);

#endif
