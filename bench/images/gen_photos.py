#!/usr/bin/env python3
"""A deterministic corpus of camera-like photos for the image benchmark (issue 17):

    python3 bench/images/gen_photos.py OUT --count 200 [--width 4000 --height 3000]

writes OUT/photos/pNNNN.jpg (stored as a camera does: orientations 1, 6, 3, 8 in turn, the stored
picture turned so the tag makes it upright; EXIF with a camera make and a GPS position; JPEG
quality 90 with grain) and OUT/photos.json (one item per
photo). Needs Pillow (development only, like tools/). Photo k depends only on k: the same corpus
every run, and --change K rewrites photo K with other shapes (the "one photo changed" round).
"""

import argparse
import json
import random
from pathlib import Path

from PIL import Image, ImageDraw

ORIENTATIONS = (1, 6, 3, 8)
STORED = {6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180}


def picture(k: int, w: int, h: int, salt: int = 0) -> Image.Image:
    """Drawn at a quarter of the size (gradient, discs, grain) and scaled up: camera-sized files
    in well under a second each."""
    rng = random.Random(k * 7919 + salt)
    small = Image.new("RGB", (w // 4, h // 4))
    d = ImageDraw.Draw(small)
    top = tuple(rng.randrange(256) for _ in range(3))
    bottom = tuple(rng.randrange(256) for _ in range(3))
    for y in range(small.height):
        t = y / small.height
        d.line([(0, y), (small.width, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)))
    for _ in range(12):
        x, y, r = rng.randrange(small.width), rng.randrange(small.height), rng.randrange(20, small.height // 2)
        d.ellipse((x - r, y - r, x + r, y + r), fill=tuple(rng.randrange(256) for _ in range(3)))
    grain = Image.effect_noise(small.size, 40).convert("RGB")
    return Image.blend(small, grain, 0.1).resize((w, h), Image.BICUBIC)


def write(out: Path, k: int, w: int, h: int, salt: int = 0) -> Path:
    orientation = ORIENTATIONS[k % 4]
    img = picture(k, w, h, salt)
    stored = img.transpose(STORED[orientation]) if orientation in STORED else img
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "BenchCam"
    exif[0x0110] = "BC-1"
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2], gps[3], gps[4] = "N", (37.0, 33.0, 59.0), "E", (126.0, 58.0, 40.0)
    path = out / "photos" / f"p{k:04d}.jpg"
    stored.save(path, "JPEG", quality=90, exif=exif.tobytes())
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--width", type=int, default=4000)
    ap.add_argument("--height", type=int, default=3000)
    ap.add_argument("--change", type=int, help="rewrite this photo with other shapes")
    ap.add_argument("--salt", type=int, default=1, help="with --change: 0 restores the original")
    a = ap.parse_args()
    (a.out / "photos").mkdir(parents=True, exist_ok=True)
    if a.change is not None:
        print(write(a.out, a.change, a.width, a.height, salt=a.salt))
        return
    for k in range(a.count):
        write(a.out, k, a.width, a.height)
    items = [{"name": f"p{k:04d}", "photo": f"photos/p{k:04d}.jpg", "title": f"Photo {k}"} for k in range(a.count)]
    (a.out / "photos.json").write_text(json.dumps(items, indent=1) + "\n")
    print(f"{a.count} photos in {a.out}")


if __name__ == "__main__":
    main()
