// libavif (with dav1d): AVIF stills and image sequences.
#include "imgfetch_avif.h"
#include "codec_group.h"

#include <avif/avif.h>
#include <stdlib.h>

// libavif, as (member of avif_api, symbol).
#define AVIF_SYMBOLS(X)                           \
    X(decoder_create, avifDecoderCreate)          \
    X(decoder_destroy, avifDecoderDestroy)        \
    X(set_io_memory, avifDecoderSetIOMemory)      \
    X(parse, avifDecoderParse)                    \
    X(next_image, avifDecoderNextImage)           \
    X(rgb_set_defaults, avifRGBImageSetDefaults)  \
    X(yuv_to_rgb, avifImageYUVToRGB)              \
    X(result_to_string, avifResultToString)
LIBRARY_GROUP(avif, AVIF_SYMBOLS, IMGFETCH_AVIF_LIBRARY, "libavif15")

static int avif_message(avifResult result, char *message, size_t message_size) {
    imgfetch_copy_message(message, message_size, avif_api.result_to_string(result), "libavif cannot decode it");
    return result == AVIF_RESULT_TRUNCATED_DATA ? IMGFETCH_CODEC_TRUNCATED : IMGFETCH_CODEC_FAILED;
}

static int avif_failure(avifDecoder *decoder, avifResult result, char *message, size_t message_size) {
    avif_api.decoder_destroy(decoder);
    return avif_message(result, message, message_size);
}

// A decoder over `data` with its container parsed, in *decoder; else the failure, nothing left open.
static int avif_open_parsed(const uint8_t *data, size_t size, avifDecoder **decoder, char *message, size_t message_size) {
    *decoder = avif_api.decoder_create();
    if (*decoder == NULL) {
        imgfetch_copy_message(message, message_size, NULL, "libavif could not create a decoder");
        return IMGFETCH_CODEC_FAILED;
    }
    avifResult result = avif_api.set_io_memory(*decoder, data, size);
    if (result == AVIF_RESULT_OK) result = avif_api.parse(*decoder);
    if (result != AVIF_RESULT_OK) {
        int status = avif_failure(*decoder, result, message, message_size);
        *decoder = NULL;
        return status;
    }
    return IMGFETCH_CODEC_DECODED;
}

int imgfetch_avif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         int every_frame, char *message, size_t message_size) {
    avifDecoder *decoder;
    int status = avif_open_parsed(data, size, &decoder, message, message_size);
    if (status != IMGFETCH_CODEC_DECODED) return status;
    avifResult result = avif_api.next_image(decoder);
    if (result != AVIF_RESULT_OK) return avif_failure(decoder, result, message, message_size);
    if (decoder->image->width != width || decoder->image->height != height) {
        imgfetch_copy_message(message, message_size, NULL, "the image decodes to a size other than its header's");
        avif_api.decoder_destroy(decoder);
        return IMGFETCH_CODEC_FAILED;
    }
    if (rgba != NULL) {
        avifRGBImage rgb;
        avif_api.rgb_set_defaults(&rgb, decoder->image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        rgb.pixels = rgba;
        rgb.rowBytes = width * 4;
        result = avif_api.yuv_to_rgb(decoder->image, &rgb);
        if (result != AVIF_RESULT_OK) return avif_failure(decoder, result, message, message_size);
    }
    // The later frames of a sequence are decoded to prove they decode; their pixels stay in YUV.
    while (every_frame && (result = avif_api.next_image(decoder)) == AVIF_RESULT_OK) {}
    if (every_frame && result != AVIF_RESULT_NO_IMAGES_REMAINING) return avif_failure(decoder, result, message, message_size);
    avif_api.decoder_destroy(decoder);
    return IMGFETCH_CODEC_DECODED;
}

// --- Image sequences, one frame at a time ---

struct imgfetch_avif_sequence {
    avifDecoder *decoder;
    uint32_t width, height;
};

int imgfetch_avif_sequence_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_avif_sequence **sequence, uint32_t *frame_count,
                                char *message, size_t message_size) {
    *sequence = NULL;
    avifDecoder *decoder;
    int status = avif_open_parsed(data, size, &decoder, message, message_size);
    if (status != IMGFETCH_CODEC_DECODED) return status;
    struct imgfetch_avif_sequence *opened = malloc(sizeof *opened);
    if (opened == NULL) {
        imgfetch_copy_message(message, message_size, NULL, "there is no memory for an AVIF decoder");
        avif_api.decoder_destroy(decoder);
        return IMGFETCH_CODEC_FAILED;
    }
    opened->decoder = decoder;
    opened->width = width;
    opened->height = height;
    *frame_count = decoder->imageCount > 0 ? (uint32_t)decoder->imageCount : 0;
    *sequence = opened;
    return IMGFETCH_CODEC_DECODED;
}

int imgfetch_avif_sequence_next(struct imgfetch_avif_sequence *sequence, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size) {
    avifDecoder *decoder = sequence->decoder;
    *decoded = 0;
    avifResult result = avif_api.next_image(decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return IMGFETCH_CODEC_DECODED;
    if (result != AVIF_RESULT_OK) return avif_message(result, message, message_size);
    if (decoder->image->width != sequence->width || decoder->image->height != sequence->height) {
        imgfetch_copy_message(message, message_size, NULL, "a frame decodes to a size other than the header's");
        return IMGFETCH_CODEC_FAILED;
    }
    avifRGBImage rgb;
    avif_api.rgb_set_defaults(&rgb, decoder->image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.pixels = rgba;
    rgb.rowBytes = sequence->width * 4;
    result = avif_api.yuv_to_rgb(decoder->image, &rgb);
    if (result != AVIF_RESULT_OK) return avif_message(result, message, message_size);
    // The track's own timescale gives whole milliseconds exactly where seconds as a double would not.
    const avifImageTiming *timing = &decoder->imageTiming;
    *duration_ms = timing->timescale > 0 ? (timing->durationInTimescales * 1000 + timing->timescale / 2) / timing->timescale
                                         : (uint64_t)(timing->duration * 1000 + 0.5);
    *decoded = 1;
    return IMGFETCH_CODEC_DECODED;
}

void imgfetch_avif_sequence_close(struct imgfetch_avif_sequence *sequence) {
    if (sequence == NULL) return;
    avif_api.decoder_destroy(sequence->decoder);
    free(sequence);
}
