// libjxl and libjxl_threads: JPEG XL stills and animations.
#include "imgfetch_jxl.h"
#include "codec_group.h"

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct group jxl = {PTHREAD_ONCE_INIT, "", 0};
// libjxl, as (member of jxl_api, symbol).
#define JXL_SYMBOLS(X)                                      \
    X(create, JxlDecoderCreate)                             \
    X(destroy, JxlDecoderDestroy)                           \
    X(subscribe_events, JxlDecoderSubscribeEvents)          \
    X(set_input, JxlDecoderSetInput)                        \
    X(process_input, JxlDecoderProcessInput)                \
    X(get_basic_info, JxlDecoderGetBasicInfo)               \
    X(image_out_buffer_size, JxlDecoderImageOutBufferSize)  \
    X(set_image_out_buffer, JxlDecoderSetImageOutBuffer)    \
    X(set_parallel_runner, JxlDecoderSetParallelRunner)     \
    X(get_frame_header, JxlDecoderGetFrameHeader)           \
    X(close_input, JxlDecoderCloseInput)                    \
    X(set_decompress_boxes, JxlDecoderSetDecompressBoxes)   \
    X(set_box_buffer, JxlDecoderSetBoxBuffer)               \
    X(release_box_buffer, JxlDecoderReleaseBoxBuffer)       \
    X(get_box_type, JxlDecoderGetBoxType)
// libjxl_threads, as (member of jxl_api, symbol).
#define JXL_THREADS_SYMBOLS(X)                                                 \
    X(runner_create, JxlThreadParallelRunnerCreate)                            \
    X(runner_destroy, JxlThreadParallelRunnerDestroy)                          \
    X(runner_default_threads, JxlThreadParallelRunnerDefaultNumWorkerThreads)  \
    X(runner, JxlThreadParallelRunner)
static struct {
    JXL_SYMBOLS(IMGFETCH_POINTER) JXL_THREADS_SYMBOLS(IMGFETCH_POINTER)
} jxl_api;

static void load_jxl(void) {
    LOAD(jxl, IMGFETCH_JXL_LIBRARY, "libjxl0.7", jxl_api, JXL_SYMBOLS);
    LOAD(jxl, "libjxl_threads.so.0.7", "libjxl0.7", jxl_api, JXL_THREADS_SYMBOLS);
    jxl.loaded = 1;
}
LOADER(jxl, jxl)

// The input is not closed: then a codestream that stops early makes libjxl ask for more input
// (a truncation) instead of failing with a message on stderr.
static JxlDecoder *jxl_decoder(const uint8_t *data, size_t size, int events) {
    JxlDecoder *decoder = jxl_api.create(NULL);
    if (decoder == NULL) return NULL;
    if (jxl_api.subscribe_events(decoder, events) != JXL_DEC_SUCCESS
        || jxl_api.set_input(decoder, data, size) != JXL_DEC_SUCCESS) {
        jxl_api.destroy(decoder);
        return NULL;
    }
    return decoder;
}

int imgfetch_jxl_probe(const uint8_t *data, size_t size, struct imgfetch_jxl_info *info, char *message, size_t message_size) {
    // Frame headers only: without JXL_DEC_FULL_IMAGE libjxl skips each frame's pixel data by its table of contents.
    JxlDecoder *decoder = jxl_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_FRAME);
    if (decoder == NULL) {
        imgfetch_copy_message(message, message_size, NULL, "libjxl could not create a decoder");
        return IMGFETCH_CODEC_FAILED;
    }
    info->frames = 0;
    for (;;) {
        JxlDecoderStatus status = jxl_api.process_input(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            jxl_api.get_basic_info(decoder, &basic);
            // Orientations 5 to 8 turn the image on its side; libjxl decodes it upright.
            int turned = basic.orientation >= JXL_ORIENT_TRANSPOSE;
            info->width = turned ? basic.ysize : basic.xsize;
            info->height = turned ? basic.xsize : basic.ysize;
            info->has_alpha = basic.alpha_bits > 0;
            info->bits_per_sample = basic.bits_per_sample;
        } else if (status == JXL_DEC_FRAME) {
            info->frames++;
        } else if (status == JXL_DEC_SUCCESS) {
            jxl_api.destroy(decoder);
            return IMGFETCH_CODEC_DECODED;
        } else {
            jxl_api.destroy(decoder);
            if (status == JXL_DEC_NEED_MORE_INPUT) return IMGFETCH_CODEC_TRUNCATED;
            imgfetch_copy_message(message, message_size, NULL, "libjxl cannot read its headers");
            return IMGFETCH_CODEC_FAILED;
        }
    }
}

/// A decoder with a thread runner on `data`, subscribed to `events`; NULL (and the message) when
/// libjxl cannot make one.
static JxlDecoder *jxl_threaded_decoder(const uint8_t *data, size_t size, int events, void **runner,
                                        char *message, size_t message_size) {
    JxlDecoder *decoder = jxl_decoder(data, size, events);
    *runner = decoder ? jxl_api.runner_create(NULL, jxl_api.runner_default_threads()) : NULL;
    if (*runner == NULL || jxl_api.set_parallel_runner(decoder, jxl_api.runner, *runner) != JXL_DEC_SUCCESS) {
        imgfetch_copy_message(message, message_size, NULL, "libjxl could not create a decoder");
        if (*runner != NULL) jxl_api.runner_destroy(*runner);
        if (decoder != NULL) jxl_api.destroy(decoder);
        *runner = NULL;
        return NULL;
    }
    return decoder;
}

/// Reads a box's content (a `brob` box decompressed by libjxl) into `sink`, over and over, only
/// to prove it reads: libjxl checks a box's data only when it is asked for it.
static int jxl_read_box(JxlDecoder *decoder, JxlDecoderStatus status, uint8_t *sink, size_t sink_size,
                        char *box_type) {
    if (status == JXL_DEC_BOX) {
        jxl_api.release_box_buffer(decoder);
        // The codestream's own boxes are not named: its damage is the image's, not a box's.
        JxlBoxType type;
        int named = jxl_api.get_box_type(decoder, type, JXL_TRUE) == JXL_DEC_SUCCESS
                    && memcmp(type, "jxlc", 4) != 0 && memcmp(type, "jxlp", 4) != 0;
        if (named) memcpy(box_type, type, 4);
        box_type[named ? 4 : 0] = 0;
    } else {
        jxl_api.release_box_buffer(decoder);
    }
    return jxl_api.set_box_buffer(decoder, sink, sink_size) == JXL_DEC_SUCCESS;
}

/// The first frame into `rgba`. With `to_the_end` (verification) the decoder runs to
/// JXL_DEC_SUCCESS: every later frame is decoded into a scratch buffer and every box read, so
/// damage after the first full image (a later frame, a compressed metadata box) fails it, as
/// it fails djxl. Without it (a transform) it stops at the first full image.
int imgfetch_jxl_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                        int to_the_end, char *message, size_t message_size) {
    void *runner;
    int events = to_the_end ? JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE | JXL_DEC_BOX : JXL_DEC_FULL_IMAGE;
    JxlDecoder *decoder = jxl_threaded_decoder(data, size, events, &runner, message, message_size);
    if (decoder == NULL) return IMGFETCH_CODEC_FAILED;
    if (to_the_end) jxl_api.set_decompress_boxes(decoder, JXL_TRUE);
    const JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    const size_t frame_bytes = (size_t)width * height * 4;
    uint8_t *scratch = NULL;  // the later frames of an animation, decoded to prove they decode
    uint8_t box_sink[4096];
    char box_type[5] = "";
    int frames = 0;
    int last_frame_seen = 0, last_frame_decoded = 0;
    int result = IMGFETCH_CODEC_DECODED;
    for (;;) {
        JxlDecoderStatus status = jxl_api.process_input(decoder);
        if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            jxl_api.image_out_buffer_size(decoder, &format, &needed);
            if (needed != frame_bytes) {
                imgfetch_copy_message(message, message_size, NULL, "the image decodes to a size other than its header's");
                result = IMGFETCH_CODEC_FAILED;
                break;
            }
            if (frames > 0 && scratch == NULL && (scratch = malloc(frame_bytes)) == NULL) {
                imgfetch_copy_message(message, message_size, NULL, "no memory for a frame");
                result = IMGFETCH_CODEC_FAILED;
                break;
            }
            jxl_api.set_image_out_buffer(decoder, &format, frames == 0 ? rgba : scratch, frame_bytes);
        } else if (status == JXL_DEC_FRAME) {
            JxlFrameHeader header;
            last_frame_seen = jxl_api.get_frame_header(decoder, &header) == JXL_DEC_SUCCESS && header.is_last;
        } else if (status == JXL_DEC_FULL_IMAGE) {
            frames++;
            last_frame_decoded = last_frame_seen;
            if (!to_the_end) break;
        } else if (status == JXL_DEC_BOX || status == JXL_DEC_BOX_NEED_MORE_OUTPUT) {
            if (!jxl_read_box(decoder, status, box_sink, sizeof box_sink, box_type)) {
                imgfetch_copy_message(message, message_size, NULL, "libjxl cannot read its boxes");
                result = IMGFETCH_CODEC_FAILED;
                break;
            }
        } else if (status == JXL_DEC_NEED_MORE_INPUT && last_frame_decoded) {
            // Boxes may follow the codestream: only the closed input tells libjxl the file ends here
            // (the probe's box walk has proved every box whole).
            jxl_api.close_input(decoder);
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        } else {
            result = status == JXL_DEC_NEED_MORE_INPUT ? IMGFETCH_CODEC_TRUNCATED : IMGFETCH_CODEC_FAILED;
            char reason[64] = "libjxl cannot decode it";
            if (box_type[0]) snprintf(reason, sizeof reason, "libjxl cannot read its '%s' box", box_type);
            imgfetch_copy_message(message, message_size, NULL, reason);
            break;
        }
    }
    free(scratch);
    jxl_api.runner_destroy(runner);
    jxl_api.destroy(decoder);
    return result;
}

// --- Animations, one displayed frame at a time ---

struct imgfetch_jxl_animation {
    JxlDecoder *decoder;
    void *runner;
    size_t frame_bytes;
    uint32_t ticks_numerator, ticks_denominator;  // ticks per second, as a fraction
    uint32_t frame_duration;                      // in ticks, from the last frame header
};

static int jxl_animation_failure(JxlDecoderStatus status, char *message, size_t message_size) {
    imgfetch_copy_message(message, message_size, NULL, "libjxl cannot decode it");
    return status == JXL_DEC_NEED_MORE_INPUT ? IMGFETCH_CODEC_TRUNCATED : IMGFETCH_CODEC_FAILED;
}

int imgfetch_jxl_animation_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_jxl_animation **animation, uint32_t *loops,
                                char *message, size_t message_size) {
    *animation = NULL;
    void *runner;
    // Frames are coalesced (libjxl's default): each displayed frame comes composed on the canvas.
    JxlDecoder *decoder = jxl_threaded_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_FRAME | JXL_DEC_FULL_IMAGE,
                                               &runner, message, message_size);
    if (decoder == NULL) return IMGFETCH_CODEC_FAILED;
    JxlDecoderStatus status = jxl_api.process_input(decoder);
    JxlBasicInfo basic;
    if (status != JXL_DEC_BASIC_INFO || jxl_api.get_basic_info(decoder, &basic) != JXL_DEC_SUCCESS
        || !basic.have_animation || basic.animation.tps_numerator == 0) {
        jxl_api.runner_destroy(runner);
        jxl_api.destroy(decoder);
        if (status != JXL_DEC_BASIC_INFO) return jxl_animation_failure(status, message, message_size);
        imgfetch_copy_message(message, message_size, NULL, "it declares no animation timing");
        return IMGFETCH_CODEC_FAILED;
    }
    struct imgfetch_jxl_animation *opened = malloc(sizeof *opened);
    if (opened == NULL) {
        jxl_api.runner_destroy(runner);
        jxl_api.destroy(decoder);
        imgfetch_copy_message(message, message_size, NULL, "there is no memory for a JPEG XL decoder");
        return IMGFETCH_CODEC_FAILED;
    }
    *opened = (struct imgfetch_jxl_animation){decoder, runner, (size_t)width * height * 4,
                                              basic.animation.tps_numerator, basic.animation.tps_denominator, 0};
    *loops = basic.animation.num_loops;
    *animation = opened;
    return IMGFETCH_CODEC_DECODED;
}

int imgfetch_jxl_animation_next(struct imgfetch_jxl_animation *animation, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size) {
    const JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    *decoded = 0;
    for (;;) {
        JxlDecoderStatus status = jxl_api.process_input(animation->decoder);
        if (status == JXL_DEC_FRAME) {
            JxlFrameHeader header;
            animation->frame_duration = jxl_api.get_frame_header(animation->decoder, &header) == JXL_DEC_SUCCESS ? header.duration : 0;
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            jxl_api.image_out_buffer_size(animation->decoder, &format, &needed);
            if (needed != animation->frame_bytes) {
                imgfetch_copy_message(message, message_size, NULL, "a frame decodes to a size other than the header's");
                return IMGFETCH_CODEC_FAILED;
            }
            jxl_api.set_image_out_buffer(animation->decoder, &format, rgba, animation->frame_bytes);
        } else if (status == JXL_DEC_FULL_IMAGE) {
            // ticks × (denominator / numerator) seconds, in milliseconds rounded to nearest.
            uint64_t scaled = (uint64_t)animation->frame_duration * animation->ticks_denominator * 1000;
            *duration_ms = (scaled + animation->ticks_numerator / 2) / animation->ticks_numerator;
            *decoded = 1;
            return IMGFETCH_CODEC_DECODED;
        } else if (status == JXL_DEC_SUCCESS) {
            return IMGFETCH_CODEC_DECODED;
        } else {
            return jxl_animation_failure(status, message, message_size);
        }
    }
}

void imgfetch_jxl_animation_close(struct imgfetch_jxl_animation *animation) {
    if (animation == NULL) return;
    jxl_api.runner_destroy(animation->runner);
    jxl_api.destroy(animation->decoder);
    free(animation);
}
