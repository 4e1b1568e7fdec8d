#ifndef IMGFETCH_JXL_H
#define IMGFETCH_JXL_H
// JPEG XL: libjxl and libjxl_threads (jxl.c).
#include "CImageCodecs.h"

const char *imgfetch_jxl_load(void);  // libjxl and libjxl_threads
#define IMGFETCH_JXL_LIBRARY "libjxl.so.0.7"

/// What libjxl's headers say: size as displayed (after orientation), displayed frames, alpha.
struct imgfetch_jxl_info {
    uint32_t width, height, frames, bits_per_sample;
    int has_alpha;
};
/// Reads the basic info and every frame header, skipping pixel data and allocating no pixels.
/// A codestream that ends before its last frame is IMGFETCH_CODEC_TRUNCATED.
int imgfetch_jxl_probe(const uint8_t *data, size_t size, struct imgfetch_jxl_info *info, char *message, size_t message_size);
/// The first frame, upright; with `every_frame`, the later frames of an animation too (not kept).
int imgfetch_jxl_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                        int every_frame, char *message, size_t message_size);

/// A JPEG XL animation read one displayed frame at a time, each composed on the canvas by libjxl
/// and turned upright: `width` × `height` is the displayed size. `data` must outlive it.
struct imgfetch_jxl_animation;
/// Reads the basic info and puts the animation's loop count (0 for forever) in `loops`; fails for
/// a file without animation timing. On success the caller owns `*animation` and closes it.
int imgfetch_jxl_animation_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_jxl_animation **animation, uint32_t *loops,
                                char *message, size_t message_size);
/// Decodes the next displayed frame into `rgba` and its duration, rounded to whole milliseconds,
/// into `duration_ms`; `*decoded` is 0 when no frames remain (and the status IMGFETCH_CODEC_DECODED).
int imgfetch_jxl_animation_next(struct imgfetch_jxl_animation *animation, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size);
void imgfetch_jxl_animation_close(struct imgfetch_jxl_animation *animation);

#endif
