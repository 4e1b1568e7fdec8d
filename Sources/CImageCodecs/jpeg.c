// libjpeg-turbo: TurboJPEG, and libjpeg's scanline API for verification.
#include "imgfetch_jpeg.h"
#include "codec_group.h"

#include <setjmp.h>
#include <string.h>

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
