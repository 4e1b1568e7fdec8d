// The AVIF encoder: libavif with the AV1 encoder it was built with (libaom on Debian), loaded at
// the first image encoded as AVIF.
#include "CImageTransform.h"
#include "codec_group.h"

#include <avif/avif.h>
#include <stdlib.h>
#include <unistd.h>

// libavif, as (member of avif_encoder_api, symbol).
#define AVIF_ENCODER_SYMBOLS(X)                   \
    X(create, avifEncoderCreate)                  \
    X(destroy, avifEncoderDestroy)                \
    X(write, avifEncoderWrite)                    \
    X(image_create, avifImageCreate)              \
    X(image_destroy, avifImageDestroy)            \
    X(rgb_set_defaults, avifRGBImageSetDefaults)  \
    X(rgb_to_yuv, avifImageRGBToYUV)              \
    X(rw_data_free, avifRWDataFree)               \
    X(result_to_string, avifResultToString)       \
    X(set_profile_icc, avifImageSetProfileICC)    \
    X(set_metadata_exif, avifImageSetMetadataExif)
LIBRARY_GROUP(avif_encoder, AVIF_ENCODER_SYMBOLS, "libavif.so.15", "libavif15")

int imgfetch_avif_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int effort, int has_alpha,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size) {
    avifImage *image = avif_encoder_api.image_create(width, height, 8, AVIF_PIXEL_FORMAT_YUV420);
    avifEncoder *encoder = avif_encoder_api.create();
    avifResult result = image != NULL && encoder != NULL ? AVIF_RESULT_OK : AVIF_RESULT_OUT_OF_MEMORY;
    if (result == AVIF_RESULT_OK) {
        // Said in the file, as avifenc writes an sRGB image, rather than left unspecified (libavif
        // 0.11's default), which a decoder may read as BT.709's matrix: the YUV below is BT.601's,
        // and the pixels sRGB unless a kept ICC profile says what they are.
        image->matrixCoefficients = AVIF_MATRIX_COEFFICIENTS_BT601;
        int has_profile = metadata != NULL && metadata->icc != NULL;
        image->colorPrimaries = has_profile ? AVIF_COLOR_PRIMARIES_UNSPECIFIED : AVIF_COLOR_PRIMARIES_BT709;
        image->transferCharacteristics = has_profile ? AVIF_TRANSFER_CHARACTERISTICS_UNSPECIFIED : AVIF_TRANSFER_CHARACTERISTICS_SRGB;
        avifRGBImage rgb;
        avif_encoder_api.rgb_set_defaults(&rgb, image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        rgb.ignoreAlpha = has_alpha ? AVIF_FALSE : AVIF_TRUE;
        rgb.pixels = (uint8_t *)rgba;
        rgb.rowBytes = width * 4;
        result = avif_encoder_api.rgb_to_yuv(image, &rgb);
    }
    if (result == AVIF_RESULT_OK && metadata != NULL) {
        if (metadata->icc != NULL) avif_encoder_api.set_profile_icc(image, metadata->icc, metadata->icc_size);
        if (metadata->exif != NULL) avif_encoder_api.set_metadata_exif(image, metadata->exif, metadata->exif_size);
    }
    avifRWData encoded = AVIF_DATA_EMPTY;
    if (result == AVIF_RESULT_OK) {
        // Quality 1–100 onto AV1's quantizer 63–0 as sharp's quality reaches libaom (through
        // libvips and libheif, which rounds to nearest: 50 is 32, as vipsthumbnail encodes; 31
        // made a file 12% larger, though libaom 3.6 encoded it in 8-19% less CPU);
        // effort 0–9 onto speed 9–0.
        int quantizer = ((100 - quality) * 63 + 50) / 100;
        encoder->minQuantizer = encoder->maxQuantizer = quantizer;
        encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = has_alpha ? quantizer : AVIF_QUANTIZER_LOSSLESS;
        encoder->speed = 9 - effort;
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        encoder->maxThreads = cores > 1 ? (int)cores : 1;
        result = avif_encoder_api.write(encoder, image, &encoded);
    }
    int status = IMGFETCH_ENCODE_FAILED;
    if (result == AVIF_RESULT_OK) {
        // Copied into memory imgfetch_encoded_free releases with free(): libavif frees its own.
        out->bytes = malloc(encoded.size);
        if (out->bytes != NULL) {
            memcpy(out->bytes, encoded.data, encoded.size);
            out->size = encoded.size;
            out->free_bytes = free;
            status = IMGFETCH_ENCODED;
        } else {
            imgfetch_copy_message(message, message_size, NULL, "there is not enough memory for the AVIF");
        }
    } else {
        imgfetch_copy_message(message, message_size, avif_encoder_api.result_to_string(result), "libavif cannot encode the image");
    }
    avif_encoder_api.rw_data_free(&encoded);
    if (encoder != NULL) avif_encoder_api.destroy(encoder);
    if (image != NULL) avif_encoder_api.image_destroy(image);
    return status;
}
