#!/usr/bin/env python3
"""Generates the benchmark corpus: distinct JPEG, PNG, WebP and GIF files, a few KB to a few MB.

Every image is a crop of one seeded plasma-plus-noise picture (made once by ImageMagick), encoded
by the libraries' own tools (cjpeg, cwebp, pnmtopng, ppmtogif). Crops sit at different offsets and
sizes, so no two files are equal, and the picture compresses like a photo (JPEG ~0.15 byte/pixel)
rather than like pure noise, so that decode and validation cost per byte is realistic.

Image i is planned from a generator seeded with i alone, so the corpus is the same on every run and
`--count 200` is a prefix of `--count 1000`: files already present are kept, and a quick run
followed by a full run only encodes the difference. Files are written under a temporary name and
renamed, so an interrupted run never leaves a truncated image behind.

Usage: corpus.py DIR COUNT      prints the relative paths of images 0..COUNT-1, one a line
       corpus.py DIR --tiny     writes DIR/tiny.png (an 8x8 PNG for the memory scenario)
       corpus.py DIR --tiny-copies N
                                links DIR/tiny/00000.png.. to tiny.png and prints their paths (the
                                latency scenario: bodies so small that the time to first byte is
                                all there is to wait for)
       corpus.py DIR --small-set N
                                writes N distinct small PNGs, DIR/small-set/0.png.., 4x4 to 20x20
                                pixels, 500 bytes on average (the soak scenario serves each behind
                                many names)
"""

import concurrent.futures
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

BASE_SIDE = 2400
MEDIAN_BYTES = 162_000  # with SIGMA this gives a mean near 280 KB once clipped
SIGMA = 1.1
SMALLEST, LARGEST = 4_000, 4_000_000

# Bytes per pixel each encoder produced on crops of the base picture (measured once; the plan only
# needs them to land near the target size, the real size is whatever the encoder writes).
BYTES_PER_PIXEL = {
    ("jpg", 75): 0.112, ("jpg", 85): 0.153, ("jpg", 95): 0.31,
    ("webp", 75): 0.055, ("webp", 90): 0.17,
    ("png", 0): 1.38,
    ("gif", 0): 0.158,
}
# How often each format appears when it can reach the target size: mostly JPEG, as on the web.
FORMAT_WEIGHTS = {"jpg": 50, "png": 20, "webp": 20, "gif": 10}


def make_base(directory):
    """The seeded base picture as binary PPM, and a 216-colour copy that GIF can encode."""
    base = os.path.join(directory, "base.ppm")
    posterized = os.path.join(directory, "base-gif.ppm")
    if not os.path.exists(base):
        half = BASE_SIDE // 2
        run(["convert", "-seed", "7", "-size", f"{half}x{half}", "plasma:fractal", "-blur", "0x1",
             "-attenuate", "0.4", "+noise", "Gaussian", "-resize", "200%", "-depth", "8",
             "ppm:" + base + ".tmp"])
        os.rename(base + ".tmp", base)
    if not os.path.exists(posterized):
        run(["convert", base, "-posterize", "6", "ppm:" + posterized + ".tmp"])
        os.rename(posterized + ".tmp", posterized)
    return read_ppm(base), read_ppm(posterized)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    # Header written by ImageMagick: "P6\n<w> <h>\n255\n"
    fields = data.split(maxsplit=4)
    width, height = int(fields[1]), int(fields[2])
    pixels = data[len(data) - width * height * 3:]
    return width, height, pixels


def plan(index):
    """What image `index` is: format, quality, crop rectangle. Depends on nothing but `index`."""
    rng = random.Random(1_000_003 * (index + 1))
    target = min(LARGEST, max(SMALLEST, rng.lognormvariate(math.log(MEDIAN_BYTES), SIGMA)))
    options = []
    for (fmt, quality), bpp in BYTES_PER_PIXEL.items():
        if bpp * BASE_SIDE * BASE_SIDE * 0.9 >= target:
            options.append((fmt, quality, bpp))
    if not options:  # bigger than any JPEG/WebP/GIF crop can be: the largest PNG it is
        options = [("png", 0, BYTES_PER_PIXEL[("png", 0)])]
    weights = [FORMAT_WEIGHTS[fmt] for fmt, _, _ in options]
    fmt, quality, bpp = rng.choices(options, weights)[0]
    pixels = target / bpp
    aspect = rng.uniform(0.6, 1.6)
    width = max(16, min(BASE_SIDE, int(math.sqrt(pixels * aspect))))
    height = max(16, min(BASE_SIDE, int(pixels / width)))
    left = rng.randrange(0, BASE_SIDE - width + 1)
    top = rng.randrange(0, BASE_SIDE - height + 1)
    return fmt, quality, (left, top, width, height)


def crop(picture, rect):
    """Binary PPM bytes of a rectangle of `picture`."""
    base_width, _, pixels = picture
    left, top, width, height = rect
    starts = (((top + y) * base_width + left) * 3 for y in range(height))
    rows = (pixels[start:start + width * 3] for start in starts)
    return b"P6\n%d %d\n255\n" % (width, height) + b"".join(rows)


def encode(fmt, quality, ppm, out):
    if fmt == "jpg":
        return run(["cjpeg", "-quality", str(quality), "-optimize"], ppm, out)
    if fmt == "png":
        return run(["pnmtopng"], ppm, out)
    if fmt == "gif":
        return run(["ppmtogif"], ppm, out)
    # cwebp reads only files, not stdin.
    with tempfile.NamedTemporaryFile(suffix=".ppm", dir=os.path.dirname(out)) as source:
        source.write(ppm)
        source.flush()
        return run(["cwebp", "-quiet", "-q", str(quality), "-m", "2", source.name, "-o", out])


def run(argv, stdin_bytes=None, stdout_path=None):
    stdout = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    try:
        subprocess.run(argv, input=stdin_bytes, stdout=stdout, stderr=subprocess.PIPE, check=True)
    except subprocess.CalledProcessError as error:
        sys.exit(f"corpus: {' '.join(argv[:1])} failed: {error.stderr.decode(errors='replace')}")
    finally:
        if stdout_path:
            stdout.close()


def make_image(directory, index, base, posterized):
    fmt, quality, rect = plan(index)
    name = os.path.join("img", f"{index:05d}.{fmt}")
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        ppm = crop(posterized if fmt == "gif" else base, rect)
        encode(fmt, quality, ppm, path + ".tmp")
        os.rename(path + ".tmp", path)
    return name


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def make_tiny(directory):
    """A small valid 8x8 RGB PNG, served for every URL of the memory scenario."""
    path = os.path.join(directory, "tiny.png")
    rows = b"".join(b"\x00" + bytes(v for x in range(8) for v in (x * 32, y * 32, 128))
                    for y in range(8))
    png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
           + png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))
    with open(path + ".tmp", "wb") as f:
        f.write(png)
    os.rename(path + ".tmp", path)


def make_tiny_copies(directory, count):
    if not os.path.exists(os.path.join(directory, "tiny.png")):
        make_tiny(directory)
    os.makedirs(os.path.join(directory, "tiny"), exist_ok=True)
    names = [os.path.join("tiny", f"{i:05d}.png") for i in range(count)]
    for name in names:
        if not os.path.exists(os.path.join(directory, name)):
            os.link(os.path.join(directory, "tiny.png"), os.path.join(directory, name))
    print("\n".join(names))


def make_small_set(directory, count):
    """N distinct small RGB PNGs: sizes and pixels from a generator seeded with the index."""
    folder = os.path.join(directory, "small-set")
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        path = os.path.join(folder, f"{i}.png")
        if os.path.exists(path):
            continue
        rng = random.Random(i)
        width, height = rng.randint(4, 20), rng.randint(4, 20)
        rows = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(width * 3)) for _ in range(height))
        png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
               + png_chunk(b"IDAT", zlib.compress(rows)) + png_chunk(b"IEND", b""))
        with open(path + ".tmp", "wb") as f:
            f.write(png)
        os.rename(path + ".tmp", path)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    directory = sys.argv[1]
    os.makedirs(os.path.join(directory, "img"), exist_ok=True)
    if sys.argv[2] == "--tiny":
        return make_tiny(directory)
    if sys.argv[2] == "--tiny-copies" and len(sys.argv) == 4:
        return make_tiny_copies(directory, int(sys.argv[3]))
    if sys.argv[2] == "--small-set" and len(sys.argv) == 4:
        return make_small_set(directory, int(sys.argv[3]))
    count = int(sys.argv[2])
    missing = [i for i in range(count) if not os.path.exists(
        os.path.join(directory, "img", f"{i:05d}.{plan(i)[0]}"))]
    if missing:
        print(f"corpus: encoding {len(missing)} of {count} images into {directory}", file=sys.stderr)
        base, posterized = make_base(directory)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            list(pool.map(lambda i: make_image(directory, i, base, posterized), missing))
    for i in range(count):
        print(os.path.join("img", f"{i:05d}.{plan(i)[0]}"))


if __name__ == "__main__":
    main()
