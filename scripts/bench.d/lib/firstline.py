#!/usr/bin/env python3
"""Times a command the way `COMMAND | head -n LINES` uses it.

Usage: firstline.py LINES COMMAND...
Runs COMMAND with its stdout on a pipe, reads LINES lines, closes the pipe and waits for the
command to end. Prints: SECONDS_TO_FIRST_LINE SECONDS_TO_EXIT EXIT_STATUS LINES_READ
(the status of a command killed by a signal is 128 + the signal, as a shell shows it).
"""

import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    wanted = int(sys.argv[1])
    start = time.monotonic()
    process = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE)
    first, read = None, 0
    while read < wanted:
        line = process.stdout.readline()
        if not line:
            break
        read += 1
        if first is None:
            first = time.monotonic() - start
    process.stdout.close()
    status = process.wait()
    total = time.monotonic() - start
    status = 128 - status if status < 0 else status
    print(f"{first if first is not None else total:.4f} {total:.4f} {status} {read}")


if __name__ == "__main__":
    main()
