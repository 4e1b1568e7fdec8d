// libheif (HEVC through libde265): the primary image of a HEIC/HEIF file.
#include "imgfetch_heif.h"
#include "codec_group.h"

#include <libheif/heif.h>

static struct group heif = {PTHREAD_ONCE_INIT, "", 0};
// libheif, as (member of heif_api, symbol).
#define HEIF_SYMBOLS(X)                                                           \
    X(init, heif_init)                                                            \
    X(context_alloc, heif_context_alloc)                                          \
    X(context_free, heif_context_free)                                            \
    X(read_from_memory_without_copy, heif_context_read_from_memory_without_copy)  \
    X(get_primary_image_handle, heif_context_get_primary_image_handle)            \
    X(handle_release, heif_image_handle_release)                                  \
    X(decode_image, heif_decode_image)                                            \
    X(image_get_width, heif_image_get_width)                                      \
    X(image_get_height, heif_image_get_height)                                    \
    X(get_plane_readonly, heif_image_get_plane_readonly)                          \
    X(image_release, heif_image_release)
static struct {
    HEIF_SYMBOLS(IMGFETCH_POINTER)
} heif_api;

static void load_heif(void) {
    LOAD(heif, IMGFETCH_HEIF_LIBRARY, "libheif1", heif_api, HEIF_SYMBOLS);
    // Registers the decoder plugins (libde265 for HEVC); kept for the life of the process.
    struct heif_error error = heif_api.init(NULL);
    if (error.code != heif_error_Ok) {
        snprintf(heif.error, sizeof heif.error, "libheif.so.1 could not start: %s", error.message);
        return;
    }
    heif.loaded = 1;
}
LOADER(heif, heif)

int imgfetch_heif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size) {
    struct heif_context *context = heif_api.context_alloc();
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    int status = IMGFETCH_CODEC_FAILED;
    struct heif_error error = heif_api.read_from_memory_without_copy(context, data, size, NULL);
    if (error.code == heif_error_Ok) error = heif_api.get_primary_image_handle(context, &handle);
    // libheif turns the image by its irot and imir properties, as the probe's size assumes.
    // Without a buffer the image stays in its coded colour space: decoded, not converted.
    if (error.code == heif_error_Ok && rgba == NULL)
        error = heif_api.decode_image(handle, &image, heif_colorspace_undefined, heif_chroma_undefined, NULL);
    else if (error.code == heif_error_Ok)
        error = heif_api.decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    if (error.code != heif_error_Ok) {
        imgfetch_copy_message(message, message_size, error.message, "libheif cannot decode it");
        if (error.subcode == heif_suberror_End_of_data) status = IMGFETCH_CODEC_TRUNCATED;
    } else if (rgba == NULL) {
        status = IMGFETCH_CODEC_DECODED;
    } else if (heif_api.image_get_width(image, heif_channel_interleaved) != (int)width
               || heif_api.image_get_height(image, heif_channel_interleaved) != (int)height) {
        imgfetch_copy_message(message, message_size, NULL, "the image decodes to a size other than its header's");
    } else {
        int stride = 0;
        const uint8_t *plane = heif_api.get_plane_readonly(image, heif_channel_interleaved, &stride);
        if (plane == NULL || stride < (int)width * 4) {
            imgfetch_copy_message(message, message_size, NULL, "libheif returned no RGBA plane");
        } else {
            for (uint32_t row = 0; row < height; row++)
                memcpy(rgba + (size_t)row * width * 4, plane + (size_t)row * (size_t)stride, (size_t)width * 4);
            status = IMGFETCH_CODEC_DECODED;
        }
    }
    if (image != NULL) heif_api.image_release(image);
    if (handle != NULL) heif_api.handle_release(handle);
    heif_api.context_free(context);
    return status;
}
