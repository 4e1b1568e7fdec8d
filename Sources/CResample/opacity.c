// See include/CResample.h: whether an image has any transparency.
#include "CResample.h"

int imgfetch_has_transparency(const uint8_t *rgba, size_t pixels) {
    // Blocks of 256 pixels ANDed together, branch-free within a block: the compiler vectorises it.
    size_t i = 0;
    for (; i + 256 <= pixels; i += 256) {
        uint8_t all = 255;
        for (size_t k = 0; k < 256; k++) all &= rgba[(i + k) * 4 + 3];
        if (all != 255) return 1;
    }
    for (; i < pixels; i++) {
        if (rgba[i * 4 + 3] != 255) return 1;
    }
    return 0;
}
