#ifndef IMGFETCH_CIMAGECODECS_H
#define IMGFETCH_CIMAGECODECS_H
// The image codec libraries (libpng, libjpeg-turbo, libwebp, giflib, libavif, libheif, libjxl,
// libtiff), loaded when an image is first decoded instead of linked: the header checks that
// validate a download are imgfetch's own (but for JPEG XL's frame headers, read by libjxl), so a
// cache hit or a prefetch never decodes, and loading these libraries cost every start of the
// tool about half a millisecond. The headers supply types and constants only; each
// function below forwards to the library's own, resolved by its group's load function.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <png.h>
#include <turbojpeg.h>
#include <jpeglib.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <gif_lib.h>
#include "CImageTransform.h"  // lcms2 and the encoders, for the transforms

/// Each loads its libraries once per process (thread-safe) and returns NULL on success, or a
/// message saying why they could not be loaded. A group's functions may be called only after
/// its load succeeded.
/// Each group's IMGFETCH_..._LIBRARY is the file it loads first, which the format's spec names
/// (Decode/*/...Format.swift).
const char *imgfetch_png_load(void);
const char *imgfetch_jpeg_load(void);   // libturbojpeg and libjpeg
const char *imgfetch_webp_load(void);   // libwebp and libwebpdemux
const char *imgfetch_gif_load(void);
#define IMGFETCH_PNG_LIBRARY "libpng16.so.16"
#define IMGFETCH_JPEG_LIBRARY "libturbojpeg.so.0"
#define IMGFETCH_WEBP_LIBRARY "libwebp.so.7"
#define IMGFETCH_GIF_LIBRARY "libgif.so.7"
const char *imgfetch_zlib_load(void);   // libz, in zlib.c

/// Inflates the zlib stream of `size` bytes at `data` into `output` (`capacity` bytes). Returns the
/// number of bytes written, IMGFETCH_INFLATE_TOO_LARGE when they would not fit in `capacity`, or
/// IMGFETCH_INFLATE_FAILED when the stream is damaged or ends before its end marker.
enum { IMGFETCH_INFLATE_FAILED = -1, IMGFETCH_INFLATE_TOO_LARGE = -2 };
long imgfetch_zlib_inflate(const uint8_t *data, size_t size, uint8_t *output, size_t capacity);

// libpng's simplified API. Its format constants and size helpers are compound macros Swift
// cannot import, so they are re-exported here.
int imgfetch_png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size);
int imgfetch_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap);
void imgfetch_png_image_free(png_imagep image);
static const png_uint_32 imgfetch_png_format_rgba = PNG_FORMAT_RGBA;

// TurboJPEG returns error codes instead of longjmp-ing, so Swift calls it through these.
tjhandle imgfetch_tjInitDecompress(void);
int imgfetch_tjDecompress2(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize,
                           unsigned char *dstBuf, int width, int pitch, int height, int pixelFormat, int flags);
int imgfetch_tjDestroy(tjhandle handle);
int imgfetch_tjGetErrorCode(tjhandle handle);
char *imgfetch_tjGetErrorStr2(tjhandle handle);

/// Decodes every scanline of the JPEG in `data` to RGB, as djpeg does (CMYK for CMYK files),
/// through a few reused rows, and discards them: verification without the whole output buffer
/// TurboJPEG 2.1 needs. libjpeg reports errors by longjmp, which Swift cannot survive, so the
/// setjmp and every libjpeg call stay in C. Returns 0 on success; on failure -1, with libjpeg's
/// message, NUL-terminated, in `message` (`message_size` bytes).
int imgfetch_jpeg_decode_discarding(const unsigned char *data, unsigned long size, char *message, size_t message_size);

// libwebp; its init helpers are static inline calls of versioned entry points, forwarded here.
int imgfetch_WebPInitDecoderConfig(WebPDecoderConfig *config);
VP8StatusCode imgfetch_WebPDecode(const uint8_t *data, size_t size, WebPDecoderConfig *config);
void imgfetch_WebPFreeDecBuffer(WebPDecBuffer *buffer);
int imgfetch_WebPAnimDecoderOptionsInit(WebPAnimDecoderOptions *options);
WebPAnimDecoder *imgfetch_WebPAnimDecoderNew(const WebPData *data, const WebPAnimDecoderOptions *options);
int imgfetch_WebPAnimDecoderHasMoreFrames(const WebPAnimDecoder *decoder);
int imgfetch_WebPAnimDecoderGetNext(WebPAnimDecoder *decoder, uint8_t **buffer, int *timestamp);
void imgfetch_WebPAnimDecoderDelete(WebPAnimDecoder *decoder);
int imgfetch_WebPAnimDecoderGetInfo(const WebPAnimDecoder *decoder, WebPAnimInfo *info);

// giflib reports errors through an int out-parameter.
GifFileType *imgfetch_DGifOpen(void *userData, InputFunc readFunc, int *error);
int imgfetch_DGifSlurp(GifFileType *gif);
int imgfetch_DGifCloseFile(GifFileType *gif, int *error);
int imgfetch_DGifSavedExtensionToGCB(GifFileType *gif, int imageIndex, GraphicsControlBlock *control);
const char *imgfetch_GifErrorString(int error);
// giflib's record-by-record reading, for animations: one frame's rows at a time, never the
// whole file's frames as DGifSlurp keeps them.
int imgfetch_DGifGetRecordType(GifFileType *gif, GifRecordType *type);
int imgfetch_DGifGetImageDesc(GifFileType *gif);
int imgfetch_DGifGetLine(GifFileType *gif, GifPixelType *line, int length);
int imgfetch_DGifGetExtension(GifFileType *gif, int *code, GifByteType **extension);
int imgfetch_DGifGetExtensionNext(GifFileType *gif, GifByteType **extension);
int imgfetch_DGifGetCode(GifFileType *gif, int *codeSize, GifByteType **codeBlock);
int imgfetch_DGifGetCodeNext(GifFileType *gif, GifByteType **codeBlock);

// --- AVIF (libavif), HEIC (libheif), JPEG XL (libjxl) and TIFF (libtiff), in avif.c, heif.c,
// jxl.c and tiff.c. Their structures stay on the C side: Swift sees only these calls, which decode
// into a caller's RGBA8 buffer of `width` × `height` (rows of width * 4 bytes) and fail when the
// image decodes to another size. Each returns an IMGFETCH_CODEC_ status and on failure puts the
// library's message, NUL-terminated, in `message` (`message_size` bytes).
#include <stdint.h>

enum { IMGFETCH_CODEC_DECODED = 0, IMGFETCH_CODEC_FAILED = -1, IMGFETCH_CODEC_TRUNCATED = -2 };

const char *imgfetch_avif_load(void);  // libavif
const char *imgfetch_heif_load(void);  // libheif (which brings libde265)
const char *imgfetch_jxl_load(void);   // libjxl and libjxl_threads
const char *imgfetch_tiff_load(void);  // libtiff
#define IMGFETCH_AVIF_LIBRARY "libavif.so.15"
#define IMGFETCH_HEIF_LIBRARY "libheif.so.1"
#define IMGFETCH_JXL_LIBRARY "libjxl.so.0.7"
#define IMGFETCH_TIFF_LIBRARY "libtiff.so.6"

/// The first frame to RGBA; with `every_frame`, the later frames of a sequence too (not kept).
/// With `rgba` NULL every frame is decoded and none converted to RGB (verification).
int imgfetch_avif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         int every_frame, char *message, size_t message_size);
/// An AVIF image sequence read one frame at a time: the decoder, parsed, and the size (stored,
/// as `ispe` declares it) every frame must decode to. `data` must outlive it.
struct imgfetch_avif_sequence;
/// Parses `data` and puts the frame count libavif reads in `frame_count`; on success the caller
/// owns `*sequence` and closes it.
int imgfetch_avif_sequence_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_avif_sequence **sequence, uint32_t *frame_count,
                                char *message, size_t message_size);
/// Decodes the next frame into `rgba` (width × height × 4 bytes) and its duration, rounded to
/// whole milliseconds, into `duration_ms`; `*decoded` is 0 when no frames remain (and the status
/// IMGFETCH_CODEC_DECODED).
int imgfetch_avif_sequence_next(struct imgfetch_avif_sequence *sequence, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size);
void imgfetch_avif_sequence_close(struct imgfetch_avif_sequence *sequence);
/// The primary image, turned by its irot/imir properties; with `rgba` NULL decoded but left
/// in its coded colour space (verification).
int imgfetch_heif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size);

/// What libjxl's headers say: size as displayed (after orientation), displayed frames, alpha.
struct imgfetch_jxl_info {
    uint32_t width, height, frames, bits_per_sample;
    int has_alpha;
};
/// Reads the basic info and every frame header, skipping pixel data and allocating no pixels.
/// A codestream that ends before its last frame is IMGFETCH_CODEC_TRUNCATED.
int imgfetch_jxl_probe(const uint8_t *data, size_t size, struct imgfetch_jxl_info *info, char *message, size_t message_size);
/// The first frame, upright; with `every_frame`, the later frames of an animation too (not kept).
int imgfetch_jxl_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                        int every_frame, char *message, size_t message_size);

/// A JPEG XL animation read one displayed frame at a time, each composed on the canvas by libjxl
/// and turned upright: `width` × `height` is the displayed size. `data` must outlive it.
struct imgfetch_jxl_animation;
/// Reads the basic info and puts the animation's loop count (0 for forever) in `loops`; fails for
/// a file without animation timing. On success the caller owns `*animation` and closes it.
int imgfetch_jxl_animation_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_jxl_animation **animation, uint32_t *loops,
                                char *message, size_t message_size);
/// Decodes the next displayed frame into `rgba` and its duration, rounded to whole milliseconds,
/// into `duration_ms`; `*decoded` is 0 when no frames remain (and the status IMGFETCH_CODEC_DECODED).
int imgfetch_jxl_animation_next(struct imgfetch_jxl_animation *animation, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size);
void imgfetch_jxl_animation_close(struct imgfetch_jxl_animation *animation);

/// The image data of an 8-bit, non-interlaced PNG of `channels` samples a pixel (1 gray, 2 gray
/// and alpha, 3 RGB, 4 RGBA), read by imgfetch itself (png_rows.c) into `rgba`: `width` ×
/// `height` × 4 bytes of RGBA8, in a buffer of imgfetch_png_rows_capacity bytes (the inflated
/// rows wait at its end). `idat_offsets` are where its `idat_count` IDAT chunks start (their
/// length field), in file order, each whole within `file`. Needs imgfetch_deflate_load. Returns
/// IMGFETCH_CODEC_DECODED, or IMGFETCH_CODEC_FAILED for anything else (a wrong CRC, a stream that
/// is damaged, ends early or runs on, an unknown filter): libpng should then read the file, to
/// decode what this reader does not take or to say what is wrong.
const char *imgfetch_deflate_load(void);  // libdeflate, in png_rows.c
size_t imgfetch_png_rows_capacity(uint32_t width, uint32_t height, int channels);
int imgfetch_png_decode_rows(const uint8_t *file, const size_t *idat_offsets, size_t idat_count, uint32_t width,
                             uint32_t height, int channels, uint8_t *rgba);

/// The first page, as stored (not turned by its Orientation tag), with straight alpha.
int imgfetch_tiff_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size);
/// Decodes every strip or tile of the first page through one reused chunk buffer, keeping none:
/// verification in memory bounded by one strip or tile.
int imgfetch_tiff_verify(const uint8_t *data, size_t size, char *message, size_t message_size);

#endif
