#ifndef IMGFETCH_AVIF_H
#define IMGFETCH_AVIF_H
// AVIF: libavif, with dav1d (avif.c).
#include "CImageCodecs.h"

const char *imgfetch_avif_load(void);
#define IMGFETCH_AVIF_LIBRARY "libavif.so.15"

/// The first frame to RGBA; with `every_frame`, the later frames of a sequence too (not kept).
/// With `rgba` NULL every frame is decoded and none converted to RGB (verification), but what
/// libavif could not convert to RGB fails here too.
int imgfetch_avif_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width, uint32_t height,
                         int every_frame, char *message, size_t message_size);
/// An AVIF image sequence read one frame at a time: the decoder, parsed, and the size (stored,
/// as `ispe` declares it) every frame must decode to. `data` must outlive it.
struct imgfetch_avif_sequence;
/// Parses `data` and puts the frame count libavif reads in `frame_count`; on success the caller
/// owns `*sequence` and closes it.
int imgfetch_avif_sequence_open(const uint8_t *data, size_t size, uint32_t width, uint32_t height,
                                struct imgfetch_avif_sequence **sequence, uint32_t *frame_count,
                                char *message, size_t message_size);
/// Decodes the next frame into `rgba` (width × height × 4 bytes) and its duration, rounded to
/// whole milliseconds, into `duration_ms`; `*decoded` is 0 when no frames remain (and the status
/// IMGFETCH_CODEC_DECODED).
int imgfetch_avif_sequence_next(struct imgfetch_avif_sequence *sequence, uint8_t *rgba, int *decoded,
                                uint64_t *duration_ms, char *message, size_t message_size);
void imgfetch_avif_sequence_close(struct imgfetch_avif_sequence *sequence);

#endif
