// TIFF pages whose samples libtiff's RGBA reader refuses ("Sorry, can not handle images with
// 12-bit samples"): integer samples of any width from 1 to 32 bits, IEEE float samples of 16, 32
// or 64 bits, signed integers, contiguous or in separate planes, in strips or tiles. Each strip or
// tile is decoded by libtiff (which undoes compression, predictors, fill order and byte order)
// and its samples are scaled here to 8 bits: what `info --decode` reads, a conversion now writes.
#include "imgfetch_tiff.h"
#include "tiff_api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct layout {
    uint16_t bits, samples, planar, photometric, format, alpha;  // alpha: 0 none, 1 straight, 2 associated
    int colours;                                                 // 1 gray, 3 RGB
    int inverted;                                                // MinIsWhite
};

static int read_layout(TIFF *file, struct layout *page) {
    uint16_t extra_count = 0;
    uint16_t *extra_types = NULL;
    memset(page, 0, sizeof *page);
    tiff_api.get_field_defaulted(file, TIFFTAG_BITSPERSAMPLE, &page->bits);
    tiff_api.get_field_defaulted(file, TIFFTAG_SAMPLESPERPIXEL, &page->samples);
    tiff_api.get_field_defaulted(file, TIFFTAG_PLANARCONFIG, &page->planar);
    tiff_api.get_field_defaulted(file, TIFFTAG_PHOTOMETRIC, &page->photometric);
    tiff_api.get_field_defaulted(file, TIFFTAG_SAMPLEFORMAT, &page->format);
    tiff_api.get_field_defaulted(file, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_types);
    switch (page->photometric) {
    case PHOTOMETRIC_MINISWHITE: page->inverted = 1; page->colours = 1; break;
    case PHOTOMETRIC_MINISBLACK: page->colours = 1; break;
    case PHOTOMETRIC_RGB: page->colours = 3; break;
    default: return 0;
    }
    if (page->samples < page->colours || page->samples > 8 || page->samples - page->colours != extra_count) return 0;
    if (extra_count > 0 && extra_types != NULL) {
        page->alpha = extra_types[0] == EXTRASAMPLE_UNASSALPHA ? 1 : extra_types[0] == EXTRASAMPLE_ASSOCALPHA ? 2 : 0;
    }
    switch (page->format) {
    case SAMPLEFORMAT_UINT: case SAMPLEFORMAT_INT: return page->bits >= 1 && page->bits <= 32 && page->bits != 24;
    case SAMPLEFORMAT_IEEEFP: return page->bits == 16 || page->bits == 32 || page->bits == 64;
    default: return 0;
    }
}

int tiff_samples_readable(TIFF *file) {
    struct layout page;
    if (!read_layout(file, &page)) return 0;
    if (page.format != SAMPLEFORMAT_UINT) return 1;
    if (page.bits != 1 && page.bits != 2 && page.bits != 4 && page.bits != 8 && page.bits != 16) return 1;
    char reason[1024];
    return !tiff_api.rgba_image_ok(file, reason);
}

static float half_to_float(uint16_t half) {
    int exponent = (half >> 10) & 0x1F, mantissa = half & 0x3FF;
    float value = exponent == 0 ? ldexpf((float)mantissa, -24)
                : exponent == 31 ? (mantissa ? NAN : INFINITY)
                : ldexpf((float)(mantissa | 0x400), exponent - 25);
    return (half & 0x8000) ? -value : value;
}

// Sample `index` of a row of `bits`-bit samples (libtiff gives 8-, 16-, 32- and 64-bit samples in
// the machine's byte order, narrower ones and odd widths as a big-endian bit stream), scaled to
// 0–255. Float samples are taken as 0.0–1.0, as ImageMagick reads them; out of range is clamped.
static uint8_t sample(const uint8_t *row, size_t index, const struct layout *page) {
    double value;
    switch (page->format == SAMPLEFORMAT_IEEEFP ? page->bits : 0) {
    case 16: { uint16_t h; memcpy(&h, row + index * 2, 2); value = half_to_float(h); break; }
    case 32: { float f; memcpy(&f, row + index * 4, 4); value = f; break; }
    case 64: { double d; memcpy(&d, row + index * 8, 8); value = d; break; }
    default: {
        uint64_t raw = 0;
        if (page->bits == 8) raw = row[index];
        else if (page->bits == 16) { uint16_t v; memcpy(&v, row + index * 2, 2); raw = v; }
        else if (page->bits == 32) { uint32_t v; memcpy(&v, row + index * 4, 4); raw = v; }
        else {
            size_t bit = index * page->bits;
            for (int i = 0; i < page->bits; i++, bit++) raw = raw << 1 | ((row[bit >> 3] >> (7 - (bit & 7))) & 1);
        }
        double top = (double)((UINT64_C(1) << page->bits) - 1);
        if (page->format == SAMPLEFORMAT_INT) {
            uint64_t sign = UINT64_C(1) << (page->bits - 1);
            double signed_value = (raw & sign) ? (double)raw - (double)(UINT64_C(1) << page->bits) : (double)raw;
            value = signed_value / (double)(sign - 1);
        } else {
            value = (double)raw / top;
        }
    }
    }
    if (!(value > 0)) return 0;  // also NaN
    if (value >= 1) return 255;
    return (uint8_t)(value * 255 + 0.5);
}

// Writes one block (a strip or tile) of `rows` × `columns` pixels at (`x`, `y`) of the page: all
// samples when contiguous, else the samples of `plane`.
static void place_block(const uint8_t *block, size_t row_bytes, uint32_t x, uint32_t y, uint32_t columns, uint32_t rows,
                        int plane, const struct layout *page, uint8_t *rgba, uint32_t width, uint32_t height) {
    int per_pixel = page->planar == PLANARCONFIG_SEPARATE ? 1 : page->samples;
    for (uint32_t r = 0; r < rows && y + r < height; r++) {
        const uint8_t *row = block + (size_t)r * row_bytes;
        uint8_t *out = rgba + ((size_t)(y + r) * width + x) * 4;
        for (uint32_t c = 0; c < columns && x + c < width; c++, out += 4) {
            for (int s = 0; s < per_pixel; s++) {
                int channel = per_pixel == 1 ? plane : s;
                uint8_t value = sample(row, (size_t)c * per_pixel + s, page);
                if (channel < page->colours) {
                    if (page->inverted) value = 255 - value;
                    if (page->colours == 1) out[0] = out[1] = out[2] = value;
                    else out[channel] = value;
                } else if (channel == page->colours && page->alpha) {
                    out[3] = value;
                }
            }
        }
    }
}

int read_tiff_samples(TIFF *file, uint8_t *rgba, uint32_t width, uint32_t height) {
    struct layout page;
    if (!read_layout(file, &page)) return 0;
    for (size_t i = 0; i < (size_t)width * height; i++) memcpy(rgba + i * 4, "\0\0\0\xff", 4);
    int planes = page.planar == PLANARCONFIG_SEPARATE ? page.samples : 1;
    int per_pixel = planes > 1 ? 1 : page.samples;
    int tiled = tiff_api.is_tiled(file);
    uint32_t block_width = width, block_height = 0;
    if (tiled) {
        tiff_api.get_field_defaulted(file, TIFFTAG_TILEWIDTH, &block_width);
        tiff_api.get_field_defaulted(file, TIFFTAG_TILELENGTH, &block_height);
    } else {
        tiff_api.get_field_defaulted(file, TIFFTAG_ROWSPERSTRIP, &block_height);
        if (block_height == 0 || block_height > height) block_height = height;
    }
    if (block_width == 0 || block_height == 0) return 0;
    size_t row_bytes = ((size_t)block_width * per_pixel * page.bits + 7) / 8;
    tmsize_t block_size = tiled ? tiff_api.tile_size(file) : tiff_api.strip_size(file);
    if (block_size <= 0 || (size_t)block_size < row_bytes) return 0;
    uint8_t *block = malloc((size_t)block_size);
    if (block == NULL) return 0;
    uint32_t across = (width + block_width - 1) / block_width, down = (height + block_height - 1) / block_height;
    uint32_t count = tiled ? tiff_api.number_of_tiles(file) : tiff_api.number_of_strips(file);
    int ok = (uint64_t)across * down * planes <= count;
    for (int plane = 0; ok && plane < planes; plane++) {
        for (uint32_t by = 0; ok && by < down; by++) {
            for (uint32_t bx = 0; ok && bx < across; bx++) {
                uint32_t index = (uint32_t)plane * across * down + by * across + bx;
                tmsize_t read = tiled ? tiff_api.read_encoded_tile(file, index, block, block_size)
                                      : tiff_api.read_encoded_strip(file, index, block, block_size);
                uint32_t rows = tiled ? block_height : (height - by * block_height < block_height ? height - by * block_height : block_height);
                if (read < (tmsize_t)(row_bytes * rows)) { ok = 0; break; }
                place_block(block, row_bytes, bx * block_width, by * block_height, block_width, rows, plane, &page, rgba, width, height);
            }
        }
    }
    free(block);
    if (ok && page.alpha == 2) tiff_unpremultiply(rgba, (size_t)width * height);
    return ok;
}
