#ifndef IMGFETCH_CTURBOJPEG_SHIM_H
#define IMGFETCH_CTURBOJPEG_SHIM_H
// TurboJPEG returns error codes instead of longjmp-ing, so Swift can call it directly.
#include <turbojpeg.h>

// Verification decodes every scanline without keeping the image, which TurboJPEG 2.1 cannot do:
// it needs the whole output buffer. libjpeg's scanline API can, but reports errors by longjmp,
// which Swift cannot survive; so the setjmp and every libjpeg call stay in this C function and
// no Swift frame is ever jumped over.
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <jpeglib.h>

struct imgfetch_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static inline void imgfetch_jpeg_error_exit(j_common_ptr cinfo) {
    longjmp(((struct imgfetch_jpeg_error *)cinfo->err)->jump, 1);
}

// Warnings (such as corrupt data in one scan) are not errors: the image still decodes whole.
static inline void imgfetch_jpeg_emit_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

/// Decodes every scanline of the JPEG in `data` to RGB, as djpeg does (CMYK for CMYK files), through a few
/// reused rows, and discards them. Returns 0 on success; on failure returns -1 and writes
/// libjpeg's message, NUL-terminated, into `message` (`message_size` bytes).
static inline int imgfetch_jpeg_decode_discarding(const unsigned char *data, unsigned long size,
                                                  char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct imgfetch_jpeg_error error;
    cinfo.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = imgfetch_jpeg_error_exit;
    error.manager.emit_message = imgfetch_jpeg_emit_message;
    if (setjmp(error.jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo.err->format_message)((j_common_ptr)&cinfo, text);
        if (message_size > 0) {
            strncpy(message, text, message_size - 1);
            message[message_size - 1] = '\0';
        }
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, size);
    jpeg_read_header(&cinfo, TRUE);
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    JSAMPARRAY rows = (*cinfo.mem->alloc_sarray)((j_common_ptr)&cinfo, JPOOL_IMAGE,
                                                 cinfo.output_width * cinfo.output_components,
                                                 cinfo.rec_outbuf_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        jpeg_read_scanlines(&cinfo, rows, cinfo.rec_outbuf_height);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

#endif
