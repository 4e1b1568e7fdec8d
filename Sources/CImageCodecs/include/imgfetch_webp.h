#ifndef IMGFETCH_WEBP_H
#define IMGFETCH_WEBP_H
// WebP: libwebp for stills, libwebpdemux for animations (webp.c).
#include "CImageCodecs.h"
#include <webp/decode.h>
#include <webp/demux.h>

const char *imgfetch_webp_load(void);  // libwebp and libwebpdemux
#define IMGFETCH_WEBP_LIBRARY "libwebp.so.7"

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

#endif
