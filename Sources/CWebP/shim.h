#ifndef IMGFETCH_CWEBP_SHIM_H
#define IMGFETCH_CWEBP_SHIM_H
// WebPDecode* and the demux API return status codes; their init helpers are static inline and import as is.
#include <webp/decode.h>
#include <webp/demux.h>
#endif
