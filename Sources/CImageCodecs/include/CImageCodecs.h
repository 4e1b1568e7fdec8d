#ifndef IMGFETCH_CIMAGECODECS_H
#define IMGFETCH_CIMAGECODECS_H
// The image codec libraries (libpng, libjpeg-turbo, libwebp, giflib), loaded when an image is
// first decoded instead of linked: the header checks that validate a download are imgfetch's
// own, so a cache hit or a prefetch never decodes, and loading these libraries cost every start
// of the tool about half a millisecond. The headers supply types and constants only; each
// function below forwards to the library's own, resolved by its group's load function.
#include <stddef.h>
#include <stdio.h>
#include <png.h>
#include <turbojpeg.h>
#include <jpeglib.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <gif_lib.h>

/// Each loads its libraries once per process (thread-safe) and returns NULL on success, or a
/// message saying why they could not be loaded. A group's functions may be called only after
/// its load succeeded.
const char *imgfetch_png_load(void);
const char *imgfetch_jpeg_load(void);   // libturbojpeg and libjpeg
const char *imgfetch_webp_load(void);   // libwebp and libwebpdemux
const char *imgfetch_gif_load(void);

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

// giflib reports errors through an int out-parameter.
GifFileType *imgfetch_DGifOpen(void *userData, InputFunc readFunc, int *error);
int imgfetch_DGifSlurp(GifFileType *gif);
int imgfetch_DGifCloseFile(GifFileType *gif, int *error);
int imgfetch_DGifSavedExtensionToGCB(GifFileType *gif, int imageIndex, GraphicsControlBlock *control);
const char *imgfetch_GifErrorString(int error);

#endif
