# The filesystem every tool writes to: bench_fresh_dir makes its directories under $BENCH_OUT/run.
#
# This machine's root filesystem is ext4 without a journal, and there the kernel, before it hands
# out a new inode, checks each inode of the group deleted in the last 30 s (5.5 min while its
# inode-table block is still unwritten) and skips it (fs/ext4/ialloc.c, find_inode_bit and
# recently_deleted). After a round's 1000 files are removed, every file the next tool creates
# scans them: measured, 1000 images of 165 bytes fetched into a cache emptied just before took
# 1.63 s, 1.2 s of it system time, against 1.46 s and 0.4 s on a journaled ext4, and a 100-image
# batch's times swung with what the rounds before had deleted. mkfs.ext4 makes a journal by
# default and a journaled ext4 never scans, so, as root, the bench writes into an ext4 of its
# own, as a user's disk is: a sparse file, $BENCH_OUT/run.img, mounted on $BENCH_OUT/run with
# discard, so deleted files give their space back. BENCH_RUN_FS=host keeps the run directory on
# the filesystem $BENCH_OUT is on.

# runfs_mount: mounts the bench's ext4 on $BENCH_OUT/run unless it is mounted already or cannot
# be (not root, no loop device, BENCH_RUN_FS=host); 0 only when this call mounted it. Logs why not.
runfs_mount() {
  local run="$BENCH_OUT/run" image="$BENCH_OUT/run.img"
  [ "${BENCH_RUN_FS:-ext4}" != host ] || return 1
  ! mountpoint -q "$run" || return 1
  if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null 2>&1; then
    echo "bench: tools write to $run on the host filesystem (mounting an ext4 needs root and mkfs.ext4)" >&2
    return 1
  fi
  if [ ! -f "$image" ] && ! { truncate -s 48G "$image" && mkfs.ext4 -q -F "$image"; } >&2; then
    rm -f "$image"
    echo "bench: could not make $image; tools write to $run on the host filesystem" >&2
    return 1
  fi
  # What the host directory held would only be hidden under the mount, taking space.
  rm -rf "$run"
  mkdir -p "$run"
  # Right after an unmount the loop device can still hold the image for a moment, and mount then
  # says it is already mounted: a few tries.
  local tries=5
  while ((tries-- > 0)); do
    if mount -o loop,discard "$image" "$run" 2>>"$BENCH_OUT/logs/runfs.log"; then return 0; fi
    sleep 0.5
  done
  echo "bench: could not mount $image (see $BENCH_OUT/logs/runfs.log); tools write to $run on the host filesystem" >&2
  return 1
}

# runfs_unmount: undoes runfs_mount.
runfs_unmount() { umount "$BENCH_OUT/run" 2>/dev/null || umount -l "$BENCH_OUT/run" 2>/dev/null || true; }

# runfs_describe: what the tools write to, for the table's heading.
runfs_describe() {
  local run="$BENCH_OUT/run" type
  type="$(findmnt -n -o FSTYPE -T "$run" 2>/dev/null || echo unknown)"
  if mountpoint -q "$run" && [ -f "$BENCH_OUT/run.img" ]; then
    echo "the tools write to a journaled $type of the bench's own (bench-out/run.img)"
  else
    echo "the tools write to the host's $type"
  fi
}
