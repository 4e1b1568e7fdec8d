// libtiff: the first page of a TIFF file, read from memory: 8-bit strips straight into RGBA, the
// samples libtiff's RGBA reader refuses (10-, 12-, 32-bit, float) by tiff_samples.c, the rest by
// TIFFReadRGBAImage.
#include "imgfetch_tiff.h"
#include "codec_group.h"

#include <stdarg.h>
#include <stdlib.h>
#include "tiff_api.h"

static struct group tiff = {PTHREAD_ONCE_INIT, "", 0};
struct imgfetch_tiff_api tiff_api;
static void load_tiff(void) {
    LOAD(tiff, IMGFETCH_TIFF_LIBRARY, "libtiff6", tiff_api, TIFF_SYMBOLS);
    tiff.loaded = 1;
}
LOADER(tiff, tiff)

// The file in memory, with libtiff's position in it and its first error message.
struct tiff_source {
    const uint8_t *data;
    toff_t size;
    toff_t position;
    char message[256];
};

static tmsize_t tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    struct tiff_source *source = handle;
    if (count < 0 || source->position >= source->size) return 0;
    toff_t available = source->size - source->position;
    toff_t n = (toff_t)count < available ? (toff_t)count : available;
    memcpy(buffer, source->data + source->position, n);
    source->position += n;
    return (tmsize_t)n;
}
static tmsize_t tiff_write(thandle_t handle, void *buffer, tmsize_t count) { (void)handle; (void)buffer; (void)count; return -1; }
static toff_t tiff_seek(thandle_t handle, toff_t offset, int whence) {
    struct tiff_source *source = handle;
    toff_t base = whence == SEEK_CUR ? source->position : whence == SEEK_END ? source->size : 0;
    source->position = base + offset;
    return source->position;
}
static int tiff_close(thandle_t handle) { (void)handle; return 0; }
static toff_t tiff_size(thandle_t handle) { return ((struct tiff_source *)handle)->size; }
// Mapping the data lets libtiff read strips in place instead of copying them.
static int tiff_map(thandle_t handle, void **base, toff_t *size) {
    struct tiff_source *source = handle;
    *base = (void *)source->data;
    *size = source->size;
    return 1;
}
static void tiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int tiff_error(TIFF *file, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)file; (void)module;
    struct tiff_source *source = user_data;
    if (source->message[0] == '\0') vsnprintf(source->message, sizeof source->message, format, arguments);
    return 1;  // handled: libtiff's default handler would print to stderr
}
static int tiff_warning(TIFF *file, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)file; (void)user_data; (void)module; (void)format; (void)arguments;
    return 1;
}

// TIFFReadRGBAImage premultiplies unassociated alpha, and associated alpha is premultiplied as
// stored; DecodedImage holds straight alpha.
void tiff_unpremultiply(uint8_t *rgba, size_t pixels) {
    for (size_t i = 0; i < pixels; i++, rgba += 4) {
        unsigned alpha = rgba[3];
        if (alpha == 0 || alpha == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned value = (rgba[c] * 255u + alpha / 2) / alpha;
            rgba[c] = value > 255 ? 255 : (uint8_t)value;
        }
    }
}

// The samples per pixel the strip path below can take for this page: 1 (8-bit gray), 3 (8-bit
// RGB) or 4 (8-bit RGB with unassociated alpha), in strips, interleaved, stored upright; 0 for
// anything else, which TIFFReadRGBAImage converts.
static int plain_strip_samples(TIFF *file) {
    uint16_t bits = 0, samples = 0, planar = 0, photometric = 0, orientation = 0, extra_count = 0;
    uint16_t *extra_types = NULL;
    tiff_api.get_field_defaulted(file, TIFFTAG_BITSPERSAMPLE, &bits);
    tiff_api.get_field_defaulted(file, TIFFTAG_SAMPLESPERPIXEL, &samples);
    tiff_api.get_field_defaulted(file, TIFFTAG_PLANARCONFIG, &planar);
    tiff_api.get_field_defaulted(file, TIFFTAG_PHOTOMETRIC, &photometric);
    tiff_api.get_field_defaulted(file, TIFFTAG_ORIENTATION, &orientation);
    tiff_api.get_field_defaulted(file, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types);
    if (tiff_api.is_tiled(file) || bits != 8 || planar != PLANARCONFIG_CONTIG || orientation != ORIENTATION_TOPLEFT) return 0;
    if (photometric == PHOTOMETRIC_MINISBLACK && samples == 1) return 1;
    if (photometric == PHOTOMETRIC_RGB && samples == 3 && extra_count == 0) return 3;
    if (photometric == PHOTOMETRIC_RGB && samples == 4 && extra_count == 1 && extra_types[0] == EXTRASAMPLE_UNASSALPHA) return 4;
    return 0;
}

// Decodes each strip straight into its rows of `rgba`: the strip's samples land at the end of
// the rows' RGBA space and are spread forward in place, which never overwrites an unread sample.
// This skips TIFFReadRGBAImage's intermediate strip buffer and per-pixel packing.
static int read_plain_strips(TIFF *file, uint8_t *rgba, uint32_t width, uint32_t height, int samples) {
    uint32_t rows_per_strip = 0;
    tiff_api.get_field_defaulted(file, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > height) rows_per_strip = height;
    uint32_t strips = tiff_api.number_of_strips(file);
    for (uint32_t strip = 0, row = 0; row < height; strip++, row += rows_per_strip) {
        if (strip >= strips) return 0;
        uint32_t rows = height - row < rows_per_strip ? height - row : rows_per_strip;
        size_t pixels = (size_t)rows * width;
        uint8_t *region = rgba + (size_t)row * width * 4;
        uint8_t *samples_at = region + pixels * (size_t)(4 - samples);
        tmsize_t wanted = (tmsize_t)(pixels * (size_t)samples);
        if (tiff_api.read_encoded_strip(file, strip, samples_at, wanted) < wanted) return 0;
        if (samples == 4) continue;
        for (size_t i = 0; i < pixels; i++) {
            const uint8_t *in = samples_at + i * (size_t)samples;
            uint8_t r = in[0], g = samples == 3 ? in[1] : r, b = samples == 3 ? in[2] : r;
            region[i * 4] = r;
            region[i * 4 + 1] = g;
            region[i * 4 + 2] = b;
            region[i * 4 + 3] = 255;
        }
    }
    return 1;
}

static TIFF *tiff_open(struct tiff_source *source) {
    TIFFOpenOptions *options = tiff_api.options_alloc();
    tiff_api.options_set_error_handler(options, tiff_error, source);
    tiff_api.options_set_warning_handler(options, tiff_warning, source);
    TIFF *file = tiff_api.client_open("image", "r", source, tiff_read, tiff_write, tiff_seek, tiff_close, tiff_size,
                                      tiff_map, tiff_unmap, options);
    tiff_api.options_free(options);
    return file;
}

int imgfetch_tiff_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         char *message, size_t message_size) {
    struct tiff_source source = {data, size, 0, ""};
    TIFF *file = tiff_open(&source);
    if (file == NULL) {
        imgfetch_copy_message(message, message_size, source.message, "libtiff cannot open it");
        return IMGFETCH_CODEC_FAILED;
    }
    uint32_t stored_width = 0, stored_height = 0;
    tiff_api.get_field_defaulted(file, TIFFTAG_IMAGEWIDTH, &stored_width);
    tiff_api.get_field_defaulted(file, TIFFTAG_IMAGELENGTH, &stored_height);
    int status = IMGFETCH_CODEC_FAILED;
    int samples = 0;
    if (stored_width != width || stored_height != height) {
        imgfetch_copy_message(message, message_size, NULL, "the image decodes to a size other than its header's");
    } else if ((samples = plain_strip_samples(file)) != 0) {
        if (read_plain_strips(file, rgba, width, height, samples)) status = IMGFETCH_CODEC_DECODED;
        else imgfetch_copy_message(message, message_size, source.message, "libtiff cannot decode a strip");
    } else if (tiff_samples_readable(file)) {
        if (read_tiff_samples(file, rgba, width, height)) status = IMGFETCH_CODEC_DECODED;
        else imgfetch_copy_message(message, message_size, source.message, "libtiff cannot decode a strip or tile");
    } else if (!tiff_api.read_rgba_image_oriented(file, width, height, (uint32_t *)rgba, ORIENTATION_TOPLEFT, 0)) {
        imgfetch_copy_message(message, message_size, source.message, "libtiff cannot decode it");
    } else {
        uint16_t extra_count = 0;
        uint16_t *extra_types = NULL;
        tiff_api.get_field_defaulted(file, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types);
        if (extra_count > 0 && extra_types[0] == EXTRASAMPLE_UNASSALPHA) tiff_unpremultiply(rgba, (size_t)width * height);
        status = IMGFETCH_CODEC_DECODED;
    }
    tiff_api.close(file);
    return status;
}

int imgfetch_tiff_verify(const uint8_t *data, size_t size, char *message, size_t message_size) {
    struct tiff_source source = {data, size, 0, ""};
    TIFF *file = tiff_open(&source);
    if (file == NULL) {
        imgfetch_copy_message(message, message_size, source.message, "libtiff cannot open it");
        return IMGFETCH_CODEC_FAILED;
    }
    int tiled = tiff_api.is_tiled(file);
    tmsize_t chunk_size = tiled ? tiff_api.tile_size(file) : tiff_api.strip_size(file);
    uint32_t chunks = tiled ? tiff_api.number_of_tiles(file) : tiff_api.number_of_strips(file);
    uint8_t *chunk = chunk_size > 0 ? malloc((size_t)chunk_size) : NULL;
    int status = chunk != NULL ? IMGFETCH_CODEC_DECODED : IMGFETCH_CODEC_FAILED;
    for (uint32_t i = 0; status == IMGFETCH_CODEC_DECODED && i < chunks; i++) {
        tmsize_t read = tiled ? tiff_api.read_encoded_tile(file, i, chunk, chunk_size)
                              : tiff_api.read_encoded_strip(file, i, chunk, chunk_size);
        if (read < 0) status = IMGFETCH_CODEC_FAILED;
    }
    if (status != IMGFETCH_CODEC_DECODED) imgfetch_copy_message(message, message_size, source.message, "libtiff cannot decode it");
    free(chunk);
    tiff_api.close(file);
    return status;
}
