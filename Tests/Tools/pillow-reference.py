#!/usr/bin/env python3
"""Pillow as the reference the transform tests compare imgfetch with.

Usage: pillow-reference.py sources DIR
           writes the tests' source images into DIR: landscape.jpg (640x400), portrait.jpg
           (400x640), rotated.jpg (stored 640x400 with EXIF orientation 6, so displayed 400x640),
           transparent.png (320x200 with an alpha gradient and a transparent border)
       pillow-reference.py psnr SOURCE OUTPUT FIT
           prints the PSNR in dB of OUTPUT (imgfetch's variant) against Pillow's Lanczos of the
           upright SOURCE (converted to sRGB by ImageCms when it embeds an ICC profile) to OUTPUT's size, fitted by FIT (inside and fill: the whole image;
           cover: the centre cropped to OUTPUT's aspect ratio, as ImageOps.fit does); alpha is
           compared too, colour only where both are opaque enough to show it
       pillow-reference.py frames FILE
           prints the frame count, then each frame's duration in ms, one a line
"""

import io
import math
import random
import sys

from PIL import Image, ImageCms, ImageDraw, ImageOps


def picture(width, height, seed):
    """A photo-like test picture: smooth gradients, hard edges, fine detail and some noise."""
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            r = int(127 + 127 * math.sin(x / 37.0) * math.cos(y / 53.0))
            g = int(255 * x / max(1, width - 1))
            b = int(255 * y / max(1, height - 1))
            pixels[x, y] = (r, g, b)
    draw = ImageDraw.Draw(image)
    for _ in range(24):
        x0, y0 = rng.randrange(width), rng.randrange(height)
        x1, y1 = x0 + rng.randrange(8, width // 3), y0 + rng.randrange(8, height // 3)
        colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)([x0, y0, x1, y1], fill=colour)
    for x in range(0, width, 9):
        draw.line([x, 0, x, height // 8], fill=(0, 0, 0))
    return image


def sources(directory):
    picture(640, 400, 1).save(f"{directory}/landscape.jpg", quality=92)
    picture(400, 640, 2).save(f"{directory}/portrait.jpg", quality=92)
    # Stored on its side: displayed upright it is the portrait picture turned; EXIF 6 means the
    # stored pixels must turn 90° clockwise to display, so store the upright picture turned back.
    upright = picture(400, 640, 3)
    exif = Image.Exif()
    exif[0x0112] = 6
    upright.transpose(Image.Transpose.ROTATE_90).save(f"{directory}/rotated.jpg", quality=92, exif=exif)
    rgba = picture(320, 200, 4).convert("RGBA")
    alpha = Image.new("L", rgba.size, 0)
    ImageDraw.Draw(alpha).rectangle([16, 16, 303, 183], fill=255)
    for x in range(16, 304):
        for y in range(100, 184):
            alpha.putpixel((x, y), int(255 * (x - 16) / 287))
    rgba.putalpha(alpha)
    rgba.save(f"{directory}/transparent.png")


def psnr(source_path, output_path, fit):
    source = ImageOps.exif_transpose(Image.open(source_path))
    profile = source.info.get("icc_profile")
    if profile:
        # The reference is the upright image in sRGB, as imgfetch's variants are.
        mode = "RGBA" if "A" in source.getbands() else "RGB"
        source = ImageCms.profileToProfile(
            source, ImageCms.ImageCmsProfile(io.BytesIO(profile)), ImageCms.createProfile("sRGB"),
            renderingIntent=0, outputMode=mode)
    output = Image.open(output_path)
    output.seek(0)
    size = output.size
    mode = "RGBA" if "A" in source.getbands() or "transparency" in source.info else "RGB"
    source = source.convert(mode)
    if fit.startswith("cover"):
        # "cover" or "cover GRAVITY" for a compass gravity: where ImageOps.fit centres its crop.
        gravity = fit.split()[1] if " " in fit else "centre"
        x = {"west": 0.0, "northwest": 0.0, "southwest": 0.0, "east": 1.0, "northeast": 1.0, "southeast": 1.0}.get(gravity, 0.5)
        y = {"north": 0.0, "northwest": 0.0, "northeast": 0.0, "south": 1.0, "southwest": 1.0, "southeast": 1.0}.get(gravity, 0.5)
        reference = ImageOps.fit(source, size, method=Image.Resampling.LANCZOS, centering=(x, y))
    else:
        reference = source.resize(size, Image.Resampling.LANCZOS)
    output = output.convert(mode)
    ref, out = reference.load(), output.load()
    total, count = 0.0, 0
    for y in range(size[1]):
        for x in range(size[0]):
            a, b = ref[x, y], out[x, y]
            if mode == "RGBA":
                total += (a[3] - b[3]) ** 2
                count += 1
                if min(a[3], b[3]) < 128:
                    continue
            for c in range(3):
                total += (a[c] - b[c]) ** 2
                count += 1
    mse = total / max(1, count)
    print("inf" if mse == 0 else f"{10 * math.log10(255 * 255 / mse):.2f}")


def frames(path):
    image = Image.open(path)
    durations = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        image.load()  # WebP sets a frame's duration when it is loaded
        durations.append(int(image.info.get("duration", 0)))
    print(len(durations))
    for duration in durations:
        print(duration)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "sources" and len(sys.argv) == 3:
        sources(sys.argv[2])
    elif command == "psnr" and len(sys.argv) == 5:
        psnr(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "frames" and len(sys.argv) == 3:
        frames(sys.argv[2])
    else:
        sys.exit(__doc__)
