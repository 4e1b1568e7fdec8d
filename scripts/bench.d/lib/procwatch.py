#!/usr/bin/env python3
"""Samples a running process's memory and open file descriptors against a count of work done.

Usage: procwatch.py PID COUNTER_FILE OFFSET CHECKPOINT...
Every 0.2 s until PID exits: the lines appended to COUNTER_FILE after byte OFFSET (nginx's access
log: one line per request), VmRSS and VmHWM from /proc/PID/status, and the entries of /proc/PID/fd.
Prints one line the first time the count reaches each CHECKPOINT, and one at the end:
    CHECKPOINT|end  COUNT  PEAK_RSS_KIB  MOST_FDS  SECONDS
where PEAK_RSS_KIB is the high-water mark so far and MOST_FDS the most descriptors seen open so far.
"""

import os
import sys
import time


def status_kib(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return None


def open_fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except (FileNotFoundError, ProcessLookupError):
        return None


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pid, counter, offset = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    checkpoints = sorted(int(c) for c in sys.argv[4:])
    start = time.monotonic()
    count = peak = most_fds = 0
    with open(counter, "rb") as f:
        f.seek(offset)
        while True:
            alive = os.path.exists(f"/proc/{pid}/status")
            count += f.read().count(b"\n")
            hwm, fds = status_kib(pid, "VmHWM"), open_fds(pid)
            # A zombie has no memory figures left: keep what the last live sample saw.
            if hwm is not None:
                peak = max(peak, hwm)
            if fds is not None:
                most_fds = max(most_fds, fds)
            while checkpoints and count >= checkpoints[0]:
                print(f"{checkpoints.pop(0)} {count} {peak} {most_fds} {time.monotonic() - start:.1f}", flush=True)
            if not alive or status_kib(pid, "VmRSS") is None:
                break
            time.sleep(0.2)
        count += f.read().count(b"\n")
    print(f"end {count} {peak} {most_fds} {time.monotonic() - start:.1f}", flush=True)


if __name__ == "__main__":
    main()
