// libwebp and libwebpdemux.
#include "imgfetch_webp.h"
#include "codec_group.h"

static struct group webp = {PTHREAD_ONCE_INIT, "", 0};
// libwebp, as (member of webp_api, symbol).
#define WEBP_SYMBOLS(X)                                    \
    X(init_decoder_config, WebPInitDecoderConfigInternal)  \
    X(decode, WebPDecode)                                  \
    X(free_dec_buffer, WebPFreeDecBuffer)
// libwebpdemux, as (member of webp_api, symbol).
#define WEBP_DEMUX_SYMBOLS(X)                                 \
    X(anim_options_init, WebPAnimDecoderOptionsInitInternal)  \
    X(anim_new, WebPAnimDecoderNewInternal)                   \
    X(anim_has_more_frames, WebPAnimDecoderHasMoreFrames)     \
    X(anim_get_next, WebPAnimDecoderGetNext)                  \
    X(anim_delete, WebPAnimDecoderDelete)                     \
    X(anim_get_info, WebPAnimDecoderGetInfo)
static struct {
    WEBP_SYMBOLS(IMGFETCH_POINTER) WEBP_DEMUX_SYMBOLS(IMGFETCH_POINTER)
} webp_api;

static void load_webp(void) {
    LOAD(webp, IMGFETCH_WEBP_LIBRARY, "libwebp7", webp_api, WEBP_SYMBOLS);
    LOAD(webp, "libwebpdemux.so.2", "libwebpdemux2", webp_api, WEBP_DEMUX_SYMBOLS);
    webp.loaded = 1;
}
LOADER(webp, webp)

int imgfetch_WebPInitDecoderConfig(WebPDecoderConfig *config) {
    return webp_api.init_decoder_config(config, WEBP_DECODER_ABI_VERSION);
}
VP8StatusCode imgfetch_WebPDecode(const uint8_t *data, size_t size, WebPDecoderConfig *config) {
    return webp_api.decode(data, size, config);
}
void imgfetch_WebPFreeDecBuffer(WebPDecBuffer *buffer) { webp_api.free_dec_buffer(buffer); }
int imgfetch_WebPAnimDecoderOptionsInit(WebPAnimDecoderOptions *options) {
    return webp_api.anim_options_init(options, WEBP_DEMUX_ABI_VERSION);
}
WebPAnimDecoder *imgfetch_WebPAnimDecoderNew(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return webp_api.anim_new(data, options, WEBP_DEMUX_ABI_VERSION);
}
int imgfetch_WebPAnimDecoderHasMoreFrames(const WebPAnimDecoder *decoder) { return webp_api.anim_has_more_frames(decoder); }
int imgfetch_WebPAnimDecoderGetNext(WebPAnimDecoder *decoder, uint8_t **buffer, int *timestamp) {
    return webp_api.anim_get_next(decoder, buffer, timestamp);
}
void imgfetch_WebPAnimDecoderDelete(WebPAnimDecoder *decoder) { webp_api.anim_delete(decoder); }
int imgfetch_WebPAnimDecoderGetInfo(const WebPAnimDecoder *decoder, WebPAnimInfo *info) {
    return webp_api.anim_get_info(decoder, info);
}
