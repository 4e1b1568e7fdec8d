#ifndef IMGFETCH_CCRYPTO_H
#define IMGFETCH_CCRYPTO_H
// OpenSSL's libcrypto, loaded on first use instead of linked, for one thing: the SHA-256 of each
// object uploaded to an S3 remote cache tier, which Signature V4 signs, at the speed of the CPU's
// SHA instructions (1.8 GB/s here, against about 80 MB/s for the portable Swift SHA256 that names
// cache files). libcurl has normally loaded libcrypto already by then, so loading it costs
// nothing more. Its functions are typed from OpenSSL's own header (libssl-dev, scripts/deps build).
#include <stddef.h>

/// Loads libcrypto once per process (thread-safe). Returns NULL on success, or a message saying
/// why it could not be loaded; then `imgfetch_sha256` must not be called.
const char *imgfetch_crypto_load(void);

/// Writes the SHA-256 of `count` bytes at `data` into `digest` (32 bytes). Returns 1, or 0 if
/// libcrypto failed.
int imgfetch_sha256(const void *data, size_t count, unsigned char *digest);

#endif
