#include "CImageCodecs.h"

#include "codec_group.h"
#include <pthread.h>
#include <setjmp.h>
#include <string.h>

// --- libpng ---

static struct group png = {PTHREAD_ONCE_INIT, "", 0};
// libpng, as (member of png_api, symbol).
#define PNG_SYMBOLS(X)                                           \
    X(begin_read_from_memory, png_image_begin_read_from_memory)  \
    X(finish_read, png_image_finish_read)                        \
    X(image_free, png_image_free)
static struct {
    PNG_SYMBOLS(IMGFETCH_POINTER)
} png_api;

static void load_png(void) {
    LOAD(png, IMGFETCH_PNG_LIBRARY, "libpng16-16", png_api, PNG_SYMBOLS);
    png.loaded = 1;
}
LOADER(png, png)

int imgfetch_png_image_begin_read_from_memory(png_imagep image, png_const_voidp memory, size_t size) {
    return png_api.begin_read_from_memory(image, memory, size);
}
int imgfetch_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap) {
    return png_api.finish_read(image, background, buffer, row_stride, colormap);
}
void imgfetch_png_image_free(png_imagep image) { png_api.image_free(image); }

// --- libjpeg-turbo: TurboJPEG, and libjpeg's scanline API for verification ---

static struct group jpeg = {PTHREAD_ONCE_INIT, "", 0};
// libturbojpeg, as (member of jpeg_api, symbol).
#define TURBOJPEG_SYMBOLS(X)              \
    X(init_decompress, tjInitDecompress)  \
    X(decompress2, tjDecompress2)         \
    X(destroy, tjDestroy)                 \
    X(get_error_code, tjGetErrorCode)     \
    X(get_error_str2, tjGetErrorStr2)
// libjpeg, as (member of jpeg_api, symbol).
#define JPEG_SYMBOLS(X)                             \
    X(std_error, jpeg_std_error)                    \
    X(create_decompress, jpeg_CreateDecompress)     \
    X(mem_src, jpeg_mem_src)                        \
    X(read_header, jpeg_read_header)                \
    X(start_decompress, jpeg_start_decompress)      \
    X(read_scanlines, jpeg_read_scanlines)          \
    X(finish_decompress, jpeg_finish_decompress)    \
    X(destroy_decompress, jpeg_destroy_decompress)
static struct {
    TURBOJPEG_SYMBOLS(IMGFETCH_POINTER) JPEG_SYMBOLS(IMGFETCH_POINTER)
} jpeg_api;

static void load_jpeg(void) {
    LOAD(jpeg, IMGFETCH_JPEG_LIBRARY, "libturbojpeg0", jpeg_api, TURBOJPEG_SYMBOLS);
    LOAD(jpeg, "libjpeg.so.62", "libjpeg62-turbo", jpeg_api, JPEG_SYMBOLS);
    jpeg.loaded = 1;
}
LOADER(jpeg, jpeg)

tjhandle imgfetch_tjInitDecompress(void) { return jpeg_api.init_decompress(); }
int imgfetch_tjDecompress2(tjhandle handle, const unsigned char *jpegBuf, unsigned long jpegSize,
                           unsigned char *dstBuf, int width, int pitch, int height, int pixelFormat, int flags) {
    return jpeg_api.decompress2(handle, jpegBuf, jpegSize, dstBuf, width, pitch, height, pixelFormat, flags);
}
int imgfetch_tjDestroy(tjhandle handle) { return jpeg_api.destroy(handle); }
int imgfetch_tjGetErrorCode(tjhandle handle) { return jpeg_api.get_error_code(handle); }
char *imgfetch_tjGetErrorStr2(tjhandle handle) { return jpeg_api.get_error_str2(handle); }

struct jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void jpeg_error_exit(j_common_ptr cinfo) { longjmp(((struct jpeg_error *)cinfo->err)->jump, 1); }

// Warnings (such as corrupt data in one scan) are not errors: the image still decodes whole.
static void jpeg_emit_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

int imgfetch_jpeg_decode_discarding(const unsigned char *data, unsigned long size, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error error;
    cinfo.err = jpeg_api.std_error(&error.manager);
    error.manager.error_exit = jpeg_error_exit;
    error.manager.emit_message = jpeg_emit_message;
    if (setjmp(error.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
        if (message_size > 0) {
            strncpy(message, text, message_size - 1);
            message[message_size - 1] = '\0';
        }
        jpeg_api.destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_api.create_decompress(&cinfo, JPEG_LIB_VERSION, sizeof cinfo);
    jpeg_api.mem_src(&cinfo, data, size);
    jpeg_api.read_header(&cinfo, TRUE);
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_api.start_decompress(&cinfo);
    JSAMPARRAY rows = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                                 cinfo.output_width * cinfo.output_components,
                                                 cinfo.rec_outbuf_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        jpeg_api.read_scanlines(&cinfo, rows, cinfo.rec_outbuf_height);
    }
    jpeg_api.finish_decompress(&cinfo);
    jpeg_api.destroy_decompress(&cinfo);
    return 0;
}

// --- libwebp and libwebpdemux ---

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

// --- giflib ---

static struct group gif = {PTHREAD_ONCE_INIT, "", 0};
// giflib, as (member of gif_api, symbol).
#define GIF_SYMBOLS(X)                                  \
    X(open, DGifOpen)                                   \
    X(slurp, DGifSlurp)                                 \
    X(close_file, DGifCloseFile)                        \
    X(saved_extension_to_gcb, DGifSavedExtensionToGCB)  \
    X(error_string, GifErrorString)                     \
    X(get_record_type, DGifGetRecordType)               \
    X(get_image_desc, DGifGetImageDesc)                 \
    X(get_line, DGifGetLine)                            \
    X(get_extension, DGifGetExtension)                  \
    X(get_extension_next, DGifGetExtensionNext)         \
    X(get_code, DGifGetCode)                            \
    X(get_code_next, DGifGetCodeNext)
static struct {
    GIF_SYMBOLS(IMGFETCH_POINTER)
} gif_api;

static void load_gif(void) {
    LOAD(gif, IMGFETCH_GIF_LIBRARY, "libgif7", gif_api, GIF_SYMBOLS);
    gif.loaded = 1;
}
LOADER(gif, gif)

GifFileType *imgfetch_DGifOpen(void *userData, InputFunc readFunc, int *error) { return gif_api.open(userData, readFunc, error); }
int imgfetch_DGifSlurp(GifFileType *file) { return gif_api.slurp(file); }
int imgfetch_DGifCloseFile(GifFileType *file, int *error) { return gif_api.close_file(file, error); }
int imgfetch_DGifSavedExtensionToGCB(GifFileType *file, int imageIndex, GraphicsControlBlock *control) {
    return gif_api.saved_extension_to_gcb(file, imageIndex, control);
}
const char *imgfetch_GifErrorString(int error) { return gif_api.error_string(error); }
int imgfetch_DGifGetRecordType(GifFileType *file, GifRecordType *type) { return gif_api.get_record_type(file, type); }
int imgfetch_DGifGetImageDesc(GifFileType *file) { return gif_api.get_image_desc(file); }
int imgfetch_DGifGetLine(GifFileType *file, GifPixelType *line, int length) { return gif_api.get_line(file, line, length); }
int imgfetch_DGifGetExtension(GifFileType *file, int *code, GifByteType **extension) {
    return gif_api.get_extension(file, code, extension);
}
int imgfetch_DGifGetExtensionNext(GifFileType *file, GifByteType **extension) { return gif_api.get_extension_next(file, extension); }
int imgfetch_DGifGetCode(GifFileType *file, int *codeSize, GifByteType **codeBlock) {
    return gif_api.get_code(file, codeSize, codeBlock);
}
int imgfetch_DGifGetCodeNext(GifFileType *file, GifByteType **codeBlock) { return gif_api.get_code_next(file, codeBlock); }
