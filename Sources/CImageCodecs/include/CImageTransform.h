#ifndef IMGFETCH_CIMAGETRANSFORM_H
#define IMGFETCH_CIMAGETRANSFORM_H
// What the transforms need from C: Little CMS for ICC profiles (lcms.c) and the encoders,
// libjpeg-turbo, libpng, libwebp and libwebpmux (encode.c), libavif (avif_encode.c). Loaded at first use, like the
// decoders (see CImageCodecs.h): a cache hit or an untransformed download never loads them.
#include <stddef.h>
#include <stdint.h>
#include <lcms2.h>

// --- Little CMS 2 (lcms.c) ---

/// Loads liblcms2 once per process (thread-safe); NULL on success, else why it could not.
const char *imgfetch_lcms_load(void);

// lcms' own calls, forwarded. Profiles and transforms are used by one thread at a time.
cmsHPROFILE imgfetch_cmsOpenProfileFromMem(const void *memory, cmsUInt32Number size);
cmsBool imgfetch_cmsCloseProfile(cmsHPROFILE profile);
cmsColorSpaceSignature imgfetch_cmsGetColorSpace(cmsHPROFILE profile);
cmsHPROFILE imgfetch_cmsCreate_sRGBProfile(void);
cmsHTRANSFORM imgfetch_cmsCreateTransform(cmsHPROFILE input, cmsUInt32Number input_format, cmsHPROFILE output,
                                          cmsUInt32Number output_format, cmsUInt32Number intent, cmsUInt32Number flags);
void imgfetch_cmsDoTransform(cmsHTRANSFORM transform, const void *input, void *output, cmsUInt32Number pixels);
void imgfetch_cmsDeleteTransform(cmsHTRANSFORM transform);

// lcms' pixel formats are compound macros Swift cannot import.
static const cmsUInt32Number imgfetch_lcms_rgba_8 = TYPE_RGBA_8;
static const cmsUInt32Number imgfetch_lcms_cmyk_8 = TYPE_CMYK_8;
static const cmsUInt32Number imgfetch_lcms_cmyk_8_reversed = TYPE_CMYK_8_REV;  // 255 = no ink (Adobe)

// --- Encoders (encode.c) ---
// Each call below encodes a whole image into memory the library allocates, handed over in an
// imgfetch_encoded that the caller releases with imgfetch_encoded_free. Each returns
// IMGFETCH_ENCODED, or IMGFETCH_ENCODE_FAILED with the library's message, NUL-terminated, in
// `message` (`message_size` bytes). Nothing is written but pixels and what the format requires
// (JFIF, PNG's sRGB chunk), unless the still encoders are given metadata to keep.

enum { IMGFETCH_ENCODED = 0, IMGFETCH_ENCODE_FAILED = -1 };

/// Encoded bytes and the function that frees them (each library allocates its own way).
struct imgfetch_encoded {
    uint8_t *bytes;
    size_t size;
    void (*free_bytes)(void *);
};
void imgfetch_encoded_free(struct imgfetch_encoded *encoded);

/// What a still keeps of its original (--keep-metadata), each part NULL when there is none: the
/// ICC profile of the pixels' RGB colour space, and an EXIF block, TIFF-structured (from its
/// II*\0 or MM\0* header, without JPEG's "Exif\0\0"). A NULL `imgfetch_metadata *` keeps nothing.
struct imgfetch_metadata {
    const uint8_t *icc;
    size_t icc_size;
    const uint8_t *exif;
    size_t exif_size;
};

/// Each loads its libraries once per process (thread-safe); NULL on success, else why not.
const char *imgfetch_jpeg_encoder_load(void);       // libjpeg
const char *imgfetch_png_encoder_load(void);        // libpng
const char *imgfetch_webp_encoder_load(void);       // libwebp
const char *imgfetch_webp_animation_load(void);     // libwebp and libwebpmux
const char *imgfetch_webp_mux_load(void);           // libwebp and libwebpmux, for a still's metadata chunks
const char *imgfetch_avif_encoder_load(void);       // libavif (avif_encode.c)

/// JPEG from `rgbx` (4 bytes a pixel, the fourth ignored): 4:2:0, optimised Huffman tables,
/// `quality` 1–100 as libjpeg's, progressive when `progressive` is nonzero; `metadata` as APP2
/// ICC_PROFILE and APP1 Exif segments (an EXIF block over one segment's 65527 bytes is left out).
/// libjpeg reports errors by longjmp, so its calls stay in C.
int imgfetch_jpeg_encode(const uint8_t *rgbx, uint32_t width, uint32_t height, int quality, int progressive,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size);
/// PNG from RGBA (`has_alpha`) or packed RGB pixels, 8 bits per channel; `metadata` as iCCP
/// (then no sRGB chunk) and eXIf chunks.
int imgfetch_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int has_alpha,
                        const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                        size_t message_size);
/// WebP from RGBA at `quality` 0–100 (libwebp's scale), lossless when `lossless` (quality then
/// sets the effort); alpha is kept when not all opaque. `metadata` as ICCP and EXIF chunks, by
/// libwebpmux (loaded with imgfetch_webp_mux_load).
int imgfetch_webp_encode(const uint8_t *rgba, uint32_t width, uint32_t height, float quality, int lossless,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size);

/// AVIF from RGBA: 8-bit 4:2:0, `quality` 1–100 mapped onto AV1's quantizer as sharp maps it,
/// `effort` 0–9 (libavif's speed 9–0), alpha kept (at the same quantizer) when `has_alpha`;
/// `metadata` as the colr profile and the Exif item.
int imgfetch_avif_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality, int effort, int has_alpha,
                         const struct imgfetch_metadata *metadata, struct imgfetch_encoded *out, char *message,
                         size_t message_size);

/// An animated WebP being written, frame by frame: libwebpmux's WebPAnimEncoder holds the
/// previous canvas and the encoded frames, never the frames' pixels. One thread at a time.
struct imgfetch_webp_animation;
/// A `width` × `height` animation played `loop_count` times (0 = forever), at `quality`, lossless
/// when `lossless`; NULL with the reason in `message` when libwebp refuses.
struct imgfetch_webp_animation *imgfetch_webp_animation_new(uint32_t width, uint32_t height, int loop_count, float quality,
                                                            int lossless, char *message, size_t message_size);
/// Adds a canvas-sized RGBA frame shown for `duration_ms` milliseconds.
int imgfetch_webp_animation_add(struct imgfetch_webp_animation *animation, const uint8_t *rgba, int duration_ms,
                                char *message, size_t message_size);
/// Ends the animation and assembles the file, with `metadata` (may be NULL) as ICCP and EXIF
/// chunks (then libwebpmux must be loaded: imgfetch_webp_mux_load); no frame may be added afterwards.
int imgfetch_webp_animation_finish(struct imgfetch_webp_animation *animation, const struct imgfetch_metadata *metadata,
                                   struct imgfetch_encoded *out, char *message, size_t message_size);
void imgfetch_webp_animation_free(struct imgfetch_webp_animation *animation);

#endif
