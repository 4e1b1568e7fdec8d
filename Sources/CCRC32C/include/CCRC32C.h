#ifndef IMGFETCH_CCRC32C_H
#define IMGFETCH_CCRC32C_H
// CRC-32C (Castagnoli, as iSCSI, ext4 and SSE 4.2's crc32 instruction compute it) of the remote
// cache tier's objects: damage detection for every byte a fresh worker reads from the tier.
// Where it runs, the CPU's crc32 instruction, chosen once by cpuid; elsewhere a portable table.
#include <stddef.h>
#include <stdint.h>

/// Continues the CRC-32C `crc` (0 to start) over `count` bytes at `data` and returns it, using
/// the fastest implementation this CPU has. Thread-safe.
uint32_t imgfetch_crc32c(uint32_t crc, const void *data, size_t count);

/// The same through the portable table only, whatever the CPU has (to test one against the other).
uint32_t imgfetch_crc32c_portable(uint32_t crc, const void *data, size_t count);

/// 1 when `imgfetch_crc32c` uses the CPU's crc32 instruction, else 0.
int imgfetch_crc32c_has_instruction(void);

#endif
