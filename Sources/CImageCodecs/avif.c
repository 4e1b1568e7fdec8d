// libavif (with dav1d): AVIF stills and image sequences.
#include "imgfetch_avif.h"
#include "codec_group.h"

#include <avif/avif.h>
#include <stdlib.h>

// libavif, as (member of avif_api, symbol).
#define AVIF_SYMBOLS(X)                               \
    X(decoder_create, avifDecoderCreate)              \
    X(decoder_destroy, avifDecoderDestroy)            \
    X(set_io_memory, avifDecoderSetIOMemory)          \
    X(parse, avifDecoderParse)                        \
    X(next_image, avifDecoderNextImage)               \
    X(rgb_set_defaults, avifRGBImageSetDefaults)      \
    X(yuv_to_rgb, avifImageYUVToRGB)                  \
    X(image_create, avifImageCreate)                  \
    X(image_allocate_planes, avifImageAllocatePlanes) \
    X(image_destroy, avifImageDestroy)                \
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

// libavif converts no constant-luminance matrix to RGB ("Reformat failed"). libheif, and so
// heif-convert, ImageMagick and libvips, converts BT.2020 constant luminance (10) with BT.2020's
// non-constant coefficients (9) and chromaticity-derived constant luminance (13) as
// chromaticity-derived non-constant (12): the stand-in libavif is asked for when it refuses one.
static avifMatrixCoefficients avif_stand_in(avifMatrixCoefficients matrix) {
    switch (matrix) {
    case AVIF_MATRIX_COEFFICIENTS_BT2020_CL: return AVIF_MATRIX_COEFFICIENTS_BT2020_NCL;
    case AVIF_MATRIX_COEFFICIENTS_CHROMA_DERIVED_CL: return AVIF_MATRIX_COEFFICIENTS_CHROMA_DERIVED_NCL;
    default: return matrix;
    }
}

// `image` to 8-bit RGBA in `pixels` (rows of `row_bytes`), through the stand-in matrix if libavif
// refuses the image's own.
static avifResult avif_to_rgba(avifImage *image, uint8_t *pixels, uint32_t row_bytes) {
    avifRGBImage rgb;
    avif_api.rgb_set_defaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.pixels = pixels;
    rgb.rowBytes = row_bytes;
    avifResult result = avif_api.yuv_to_rgb(image, &rgb);
    avifMatrixCoefficients own = image->matrixCoefficients;
    if (result == AVIF_RESULT_OK || avif_stand_in(own) == own) return result;
    image->matrixCoefficients = avif_stand_in(own);
    result = avif_api.yuv_to_rgb(image, &rgb);
    image->matrixCoefficients = own;
    return result;
}

// Whether libavif converts `image`'s colours to RGB, asked of a 2×2 image of its format, depth,
// range and matrix: verification decodes no frame to RGB, yet must refuse what a conversion would
// (an image `--decode` accepts must convert).
static avifResult avif_check_convertible(const avifImage *image) {
    avifImage *trial = avif_api.image_create(2, 2, image->depth, image->yuvFormat);
    if (trial == NULL) return AVIF_RESULT_OUT_OF_MEMORY;
    trial->yuvRange = image->yuvRange;
    trial->colorPrimaries = image->colorPrimaries;
    trial->transferCharacteristics = image->transferCharacteristics;
    trial->matrixCoefficients = image->matrixCoefficients;
    avifResult result = avif_api.image_allocate_planes(trial, AVIF_PLANES_YUV);
    if (result == AVIF_RESULT_OK) {
        uint32_t chroma_rows = image->yuvFormat == AVIF_PIXEL_FORMAT_YUV420 ? 1 : 2;
        for (int plane = 0; plane < 3; plane++) {
            if (trial->yuvPlanes[plane] == NULL) continue;  // a monochrome image has no chroma
            memset(trial->yuvPlanes[plane], 0, (size_t)trial->yuvRowBytes[plane] * (plane == 0 ? 2 : chroma_rows));
        }
        uint8_t pixels[2 * 2 * 4];
        result = avif_to_rgba(trial, pixels, 2 * 4);
    }
    avif_api.image_destroy(trial);
    return result;
}

// A failure naming the matrix when it is the image's colours libavif cannot convert.
static int avif_conversion_failure(avifResult result, const avifImage *image, char *message, size_t message_size) {
    if (result != AVIF_RESULT_REFORMAT_FAILED && result != AVIF_RESULT_NOT_IMPLEMENTED) return avif_message(result, message, message_size);
    snprintf(message, message_size, "libavif cannot convert its colours to RGB (matrix coefficients %u): %s",
             (unsigned)image->matrixCoefficients, avif_api.result_to_string(result));
    return IMGFETCH_CODEC_FAILED;
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
    result = rgba != NULL ? avif_to_rgba(decoder->image, rgba, width * 4) : avif_check_convertible(decoder->image);
    if (result != AVIF_RESULT_OK) {
        status = avif_conversion_failure(result, decoder->image, message, message_size);
        avif_api.decoder_destroy(decoder);
        return status;
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
    result = avif_to_rgba(decoder->image, rgba, sequence->width * 4);
    if (result != AVIF_RESULT_OK) return avif_conversion_failure(result, decoder->image, message, message_size);
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
