// The encoders: libjpeg (libjpeg-turbo's libjpeg API), libwebp and libwebpmux's WebPAnimEncoder
// (PNG's is png_encode.c). Each group loads at the first image encoded in its format.
#include "imgfetch_jpeg.h"
#include "codec_group.h"

#include <setjmp.h>
#include <stdlib.h>
#include <webp/encode.h>
#include <webp/mux.h>

void imgfetch_encoded_free(struct imgfetch_encoded *encoded) {
    if (encoded->bytes != NULL && encoded->free_bytes != NULL) encoded->free_bytes(encoded->bytes);
    encoded->bytes = NULL;
    encoded->size = 0;
}

// --- JPEG (libjpeg) ---

// libjpeg, as (member of jpeg_encoder_api, symbol).
#define JPEG_ENCODER_SYMBOLS(X)                     \
    X(std_error, jpeg_std_error)                    \
    X(create_compress, jpeg_CreateCompress)         \
    X(mem_dest, jpeg_mem_dest)                      \
    X(set_defaults, jpeg_set_defaults)              \
    X(set_quality, jpeg_set_quality)                \
    X(simple_progression, jpeg_simple_progression)  \
    X(start_compress, jpeg_start_compress)          \
    X(write_scanlines, jpeg_write_scanlines)        \
    X(finish_compress, jpeg_finish_compress)        \
    X(destroy_compress, jpeg_destroy_compress)      \
    X(write_marker, jpeg_write_marker)              \
    X(write_icc_profile, jpeg_write_icc_profile)
LIBRARY_GROUP(jpeg_encoder, JPEG_ENCODER_SYMBOLS, "libjpeg.so.62", "libjpeg62-turbo")

// Everything a compression touches lives here, in the caller's frame: the function that calls
// setjmp changes none of its own locals, so none is indeterminate after libjpeg's longjmp.
struct jpeg_job {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    unsigned char *buffer;
    unsigned long size;
    unsigned char *exif_segment;  // "Exif\0\0" and the block: APP1's payload
};

static void jpeg_encoder_error_exit(j_common_ptr cinfo) {
    struct jpeg_job *job = (struct jpeg_job *)((char *)cinfo - offsetof(struct jpeg_job, cinfo));
    longjmp(job->jump, 1);
}

static void jpeg_encoder_emit_message(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

// APP1 Exif after libjpeg's JFIF APP0, then the profile in APP2 segments, as libvips writes them.
static void jpeg_write_metadata(struct jpeg_job *job, const struct imgfetch_metadata *metadata) {
    if (metadata == NULL) return;
    const size_t exif_prefix = 6;
    if (metadata->exif != NULL && metadata->exif_size + exif_prefix <= 65533
        && (job->exif_segment = malloc(metadata->exif_size + exif_prefix)) != NULL) {
        memcpy(job->exif_segment, "Exif\0\0", exif_prefix);
        memcpy(job->exif_segment + exif_prefix, metadata->exif, metadata->exif_size);
        jpeg_encoder_api.write_marker(&job->cinfo, JPEG_APP0 + 1, job->exif_segment,
                                      (unsigned int)(metadata->exif_size + exif_prefix));
    }
    if (metadata->icc != NULL) {
        jpeg_encoder_api.write_icc_profile(&job->cinfo, metadata->icc, (unsigned int)metadata->icc_size);
    }
}

static int jpeg_compress(struct jpeg_job *job, const uint8_t *rgbx, uint32_t width, uint32_t height, int quality,
                         int progressive, const struct imgfetch_metadata *metadata, char *message,
                         size_t message_size) {
    struct jpeg_compress_struct *cinfo = &job->cinfo;
    cinfo->err = jpeg_encoder_api.std_error(&job->error);
    job->error.error_exit = jpeg_encoder_error_exit;
    job->error.emit_message = jpeg_encoder_emit_message;
    if (setjmp(job->jump)) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)((j_common_ptr)cinfo, text);
        imgfetch_copy_message(message, message_size, text, "libjpeg cannot encode the image");
        jpeg_encoder_api.destroy_compress(cinfo);
        return IMGFETCH_ENCODE_FAILED;
    }
    jpeg_encoder_api.create_compress(cinfo, JPEG_LIB_VERSION, sizeof *cinfo);
    jpeg_encoder_api.mem_dest(cinfo, &job->buffer, &job->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBX;
    jpeg_encoder_api.set_defaults(cinfo);
    jpeg_encoder_api.set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = TRUE;
    // 4:2:0 whatever the library's default: luma 2×2, chroma 1×1.
    cinfo->comp_info[0].h_samp_factor = 2;
    cinfo->comp_info[0].v_samp_factor = 2;
    for (int i = 1; i < 3; i++) cinfo->comp_info[i].h_samp_factor = cinfo->comp_info[i].v_samp_factor = 1;
    if (progressive) jpeg_encoder_api.simple_progression(cinfo);
    jpeg_encoder_api.start_compress(cinfo, TRUE);
    jpeg_write_metadata(job, metadata);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(rgbx + (size_t)cinfo->next_scanline * width * 4);
        jpeg_encoder_api.write_scanlines(cinfo, &row, 1);
    }
    jpeg_encoder_api.finish_compress(cinfo);
    jpeg_encoder_api.destroy_compress(cinfo);
    return IMGFETCH_ENCODED;
}

int imgfetch_jpeg_encode(const uint8_t *rgbx, uint32_t width, uint32_t height, int quality, int progressive,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size) {
    struct jpeg_job job;
    memset(&job, 0, sizeof job);
    int status = jpeg_compress(&job, rgbx, width, height, quality, progressive, metadata, message, message_size);
    free(job.exif_segment);
    if (status != IMGFETCH_ENCODED) {
        free(job.buffer);  // jpeg_mem_dest's buffer comes from malloc
        return status;
    }
    out->bytes = job.buffer;
    out->size = job.size;
    out->free_bytes = free;
    return IMGFETCH_ENCODED;
}

// --- WebP (libwebp) and animated WebP (libwebpmux) ---

// libwebp, as (member of webp_encoder_api, symbol).
#define WEBP_ENCODER_SYMBOLS(X)                    \
    X(config_init, WebPConfigInitInternal)         \
    X(picture_init, WebPPictureInitInternal)       \
    X(import_rgba, WebPPictureImportRGBA)          \
    X(encode, WebPEncode)                          \
    X(picture_free, WebPPictureFree)               \
    X(memory_writer_init, WebPMemoryWriterInit)    \
    X(memory_write, WebPMemoryWrite)               \
    X(memory_writer_clear, WebPMemoryWriterClear)  \
    X(free, WebPFree)
LIBRARY_GROUP(webp_encoder, WEBP_ENCODER_SYMBOLS, "libwebp.so.7", "libwebp7")

static const char *webp_error(WebPEncodingError error) {
    switch (error) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "libwebp ran out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "the size is beyond WebP's limit of 16383x16383";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "the image is too large for one WebP partition";
    default: return "libwebp cannot encode the image";
    }
}

/// A config for encoding at `quality` (0–100; for lossless, the effort spent on compression),
/// lossless when `lossless`, or 0 when libwebp refuses it.
static int webp_config(WebPConfig *config, float quality, int lossless) {
    if (!webp_encoder_api.config_init(config, WEBP_PRESET_DEFAULT, quality, WEBP_ENCODER_ABI_VERSION)) return 0;
    config->lossless = lossless ? 1 : 0;
    config->exact = lossless ? 1 : 0;  // keep the colour under transparent pixels too: every pixel as given
    return 1;
}

/// `picture` set up for `width` × `height` RGBA, in ARGB when `argb` (what WebPAnimEncoder takes).
static int webp_import(WebPPicture *picture, const uint8_t *rgba, uint32_t width, uint32_t height, int argb) {
    if (!webp_encoder_api.picture_init(picture, WEBP_ENCODER_ABI_VERSION)) return 0;
    picture->width = (int)width;
    picture->height = (int)height;
    picture->use_argb = argb;
    return webp_encoder_api.import_rgba(picture, rgba, (int)width * 4);
}

static int webp_add_metadata(WebPData *file, const struct imgfetch_metadata *metadata, char *message,
                             size_t message_size);

/// Whether `metadata` has a chunk to write.
static int has_metadata(const struct imgfetch_metadata *metadata) {
    return metadata != NULL && (metadata->icc != NULL || metadata->exif != NULL);
}

int imgfetch_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, float quality, int lossless,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size) {
    WebPConfig config;
    WebPPicture picture;
    if (!webp_config(&config, quality, lossless)) {
        imgfetch_copy_message(message, message_size, NULL, "libwebp refused its configuration");
        return IMGFETCH_ENCODE_FAILED;
    }
    if (width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        imgfetch_copy_message(message, message_size, NULL, webp_error(VP8_ENC_ERROR_BAD_DIMENSION));
        return IMGFETCH_ENCODE_FAILED;
    }
    // Lossless takes ARGB; importing as YUV would already lose colour.
    if (!webp_import(&picture, rgba, width, height, lossless)) {
        webp_encoder_api.picture_free(&picture);
        imgfetch_copy_message(message, message_size, NULL, webp_error(VP8_ENC_ERROR_OUT_OF_MEMORY));
        return IMGFETCH_ENCODE_FAILED;
    }
    WebPMemoryWriter writer;
    webp_encoder_api.memory_writer_init(&writer);
    picture.writer = webp_encoder_api.memory_write;
    picture.custom_ptr = &writer;
    int encoded = webp_encoder_api.encode(&config, &picture);
    WebPEncodingError error = picture.error_code;
    webp_encoder_api.picture_free(&picture);
    if (!encoded) {
        webp_encoder_api.memory_writer_clear(&writer);
        imgfetch_copy_message(message, message_size, NULL, webp_error(error));
        return IMGFETCH_ENCODE_FAILED;
    }
    // The writer's bytes come from libwebp's allocator, as the mux's do: WebPFree frees either.
    WebPData file = {writer.mem, writer.size};
    if (has_metadata(metadata) && webp_add_metadata(&file, metadata, message, message_size) != IMGFETCH_ENCODED) {
        webp_encoder_api.memory_writer_clear(&writer);
        return IMGFETCH_ENCODE_FAILED;
    }
    out->bytes = (uint8_t *)file.bytes;
    out->size = file.size;
    out->free_bytes = webp_encoder_api.free;
    return IMGFETCH_ENCODED;
}

static struct group webp_animation = {PTHREAD_ONCE_INIT, "", 0};
// libwebpmux, as (member of webp_animation_api, symbol).
#define WEBP_ANIM_ENCODER_SYMBOLS(X)                     \
    X(options_init, WebPAnimEncoderOptionsInitInternal)  \
    X(encoder_new, WebPAnimEncoderNewInternal)           \
    X(add, WebPAnimEncoderAdd)                           \
    X(assemble, WebPAnimEncoderAssemble)                 \
    X(get_error, WebPAnimEncoderGetError)                \
    X(encoder_delete, WebPAnimEncoderDelete)
static struct {
    WEBP_ANIM_ENCODER_SYMBOLS(IMGFETCH_POINTER)
} webp_animation_api;

static void load_webp_animation(void) {
    const char *still = imgfetch_webp_encoder_load();  // frames are pictures of libwebp's
    if (still != NULL) {
        imgfetch_copy_message(webp_animation.error, sizeof webp_animation.error, still, still);
        return;
    }
    LOAD(webp_animation, "libwebpmux.so.3", "libwebpmux3", webp_animation_api, WEBP_ANIM_ENCODER_SYMBOLS);
    webp_animation.loaded = 1;
}
LOADER(webp_animation, webp_animation)

struct imgfetch_webp_animation {
    WebPAnimEncoder *encoder;
    WebPConfig config;
    uint32_t width, height;
    int timestamp;  // where the next frame starts, in milliseconds
};

static void webp_animation_message(struct imgfetch_webp_animation *animation, char *message, size_t message_size,
                                   const char *fallback) {
    imgfetch_copy_message(message, message_size, webp_animation_api.get_error(animation->encoder), fallback);
}

struct imgfetch_webp_animation *imgfetch_webp_animation_new(uint32_t width, uint32_t height, int loop_count, float quality,
                                                            int lossless, char *message, size_t message_size) {
    if (width == 0 || height == 0 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        imgfetch_copy_message(message, message_size, NULL, webp_error(VP8_ENC_ERROR_BAD_DIMENSION));
        return NULL;
    }
    struct imgfetch_webp_animation *animation = calloc(1, sizeof *animation);
    WebPAnimEncoderOptions options;
    if (animation == NULL || !webp_config(&animation->config, quality, lossless) ||
        !webp_animation_api.options_init(&options, WEBP_MUX_ABI_VERSION)) {
        free(animation);
        imgfetch_copy_message(message, message_size, NULL, "libwebp refused its configuration");
        return NULL;
    }
    options.anim_params.loop_count = loop_count;
    animation->encoder = webp_animation_api.encoder_new((int)width, (int)height, &options, WEBP_MUX_ABI_VERSION);
    if (animation->encoder == NULL) {
        free(animation);
        imgfetch_copy_message(message, message_size, NULL, "libwebpmux could not create an animation encoder");
        return NULL;
    }
    animation->width = width;
    animation->height = height;
    return animation;
}

int imgfetch_webp_animation_add(struct imgfetch_webp_animation *animation, const uint8_t *rgba, int duration_ms,
                                char *message, size_t message_size) {
    WebPPicture picture;
    if (!webp_import(&picture, rgba, animation->width, animation->height, 1)) {
        webp_encoder_api.picture_free(&picture);
        imgfetch_copy_message(message, message_size, NULL, webp_error(VP8_ENC_ERROR_OUT_OF_MEMORY));
        return IMGFETCH_ENCODE_FAILED;
    }
    int added = webp_animation_api.add(animation->encoder, &picture, animation->timestamp, &animation->config);
    webp_encoder_api.picture_free(&picture);
    if (!added) {
        webp_animation_message(animation, message, message_size, "libwebpmux cannot add the frame");
        return IMGFETCH_ENCODE_FAILED;
    }
    animation->timestamp += duration_ms;
    return IMGFETCH_ENCODED;
}

int imgfetch_webp_animation_finish(struct imgfetch_webp_animation *animation, const struct imgfetch_metadata *metadata,
                                   struct imgfetch_encoded *out, char *message, size_t message_size) {
    // A NULL frame marks the end: it gives the last frame its duration.
    WebPData data = {NULL, 0};
    if (!webp_animation_api.add(animation->encoder, NULL, animation->timestamp, NULL) ||
        !webp_animation_api.assemble(animation->encoder, &data)) {
        webp_animation_message(animation, message, message_size, "libwebpmux cannot assemble the animation");
        return IMGFETCH_ENCODE_FAILED;
    }
    if (has_metadata(metadata) && webp_add_metadata(&data, metadata, message, message_size) != IMGFETCH_ENCODED) {
        webp_encoder_api.free((void *)data.bytes);
        return IMGFETCH_ENCODE_FAILED;
    }
    out->bytes = (uint8_t *)data.bytes;
    out->size = data.size;
    out->free_bytes = webp_encoder_api.free;
    return IMGFETCH_ENCODED;
}

void imgfetch_webp_animation_free(struct imgfetch_webp_animation *animation) {
    if (animation == NULL) return;
    webp_animation_api.encoder_delete(animation->encoder);
    free(animation);
}

// --- A still WebP's metadata chunks (libwebpmux) ---

static struct group webp_mux = {PTHREAD_ONCE_INIT, "", 0};
// libwebpmux, as (member of webp_mux_api, symbol).
#define WEBP_MUX_SYMBOLS(X)                  \
    X(create, WebPMuxCreateInternal)         \
    X(set_chunk, WebPMuxSetChunk)            \
    X(assemble, WebPMuxAssemble)             \
    X(delete, WebPMuxDelete)
static struct {
    WEBP_MUX_SYMBOLS(IMGFETCH_POINTER)
} webp_mux_api;

static void load_webp_mux(void) {
    const char *still = imgfetch_webp_encoder_load();  // the mux's output is freed with WebPFree
    if (still != NULL) {
        imgfetch_copy_message(webp_mux.error, sizeof webp_mux.error, still, still);
        return;
    }
    LOAD(webp_mux, "libwebpmux.so.3", "libwebpmux3", webp_mux_api, WEBP_MUX_SYMBOLS);
    webp_mux.loaded = 1;
}
LOADER(webp_mux, webp_mux)

/// Rewrites the WebP file in `file` (a bare VP8/VP8L still or an animation) as an extended one
/// carrying `metadata`'s ICCP and EXIF chunks (libwebpmux sets VP8X's flags); the new bytes
/// replace `file`'s, which are freed. On failure `file` is left as it was.
static int webp_add_metadata(WebPData *file, const struct imgfetch_metadata *metadata, char *message,
                             size_t message_size) {
    WebPMux *mux = webp_mux_api.create(file, 0, WEBP_MUX_ABI_VERSION);
    WebPMuxError error = mux != NULL ? WEBP_MUX_OK : WEBP_MUX_MEMORY_ERROR;
    if (error == WEBP_MUX_OK && metadata->icc != NULL) {
        const WebPData icc = {metadata->icc, metadata->icc_size};
        error = webp_mux_api.set_chunk(mux, "ICCP", &icc, 0);
    }
    if (error == WEBP_MUX_OK && metadata->exif != NULL) {
        const WebPData exif = {metadata->exif, metadata->exif_size};
        error = webp_mux_api.set_chunk(mux, "EXIF", &exif, 0);
    }
    WebPData assembled = {NULL, 0};
    if (error == WEBP_MUX_OK) error = webp_mux_api.assemble(mux, &assembled);
    if (mux != NULL) webp_mux_api.delete(mux);
    if (error != WEBP_MUX_OK) {
        imgfetch_copy_message(message, message_size, NULL, "libwebpmux cannot add the metadata chunks");
        return IMGFETCH_ENCODE_FAILED;
    }
    webp_encoder_api.free((void *)file->bytes);
    *file = assembled;
    return IMGFETCH_ENCODED;
}
