#ifndef IMGFETCH_JPEG_H
#define IMGFETCH_JPEG_H
// JPEG: TurboJPEG decodes, libjpeg's scanline API verifies (jpeg.c).
#include "CImageCodecs.h"
#include <turbojpeg.h>
#include <jpeglib.h>

const char *imgfetch_jpeg_load(void);  // libturbojpeg and libjpeg
#define IMGFETCH_JPEG_LIBRARY "libturbojpeg.so.0"

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

#endif
