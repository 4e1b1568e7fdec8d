// zlib: inflating the compressed chunks imgfetch reads itself (a PNG's iCCP profile). libpng
// already brings libz.so.1 into the process when it loads, so this costs a lookup, not a library.
#include "CImageCodecs.h"
#include "codec_group.h"

#include <limits.h>
#include <zlib.h>

// zlib, as (member of zlib_api, symbol).
#define ZLIB_SYMBOLS(X)            \
    X(inflate_init, inflateInit_)  \
    X(inflate, inflate)            \
    X(inflate_end, inflateEnd)
LIBRARY_GROUP(zlib, ZLIB_SYMBOLS, "libz.so.1", "zlib1g")

long imgfetch_zlib_inflate(const uint8_t *data, size_t size, uint8_t *output, size_t capacity) {
    if (size > UINT_MAX || capacity > UINT_MAX) return IMGFETCH_INFLATE_FAILED;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (zlib_api.inflate_init(&stream, ZLIB_VERSION, (int)sizeof stream) != Z_OK) return IMGFETCH_INFLATE_FAILED;
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = zlib_api.inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    int out_of_room = stream.avail_out == 0;
    zlib_api.inflate_end(&stream);
    if (status == Z_STREAM_END) return written;
    // Z_BUF_ERROR with the output full means the data goes on; with input left over or none, a
    // stream that ends early or is damaged.
    return (status == Z_BUF_ERROR || status == Z_OK) && out_of_room ? IMGFETCH_INFLATE_TOO_LARGE : IMGFETCH_INFLATE_FAILED;
}
