#!/usr/bin/env python3
"""Draws the example site's Unsplash-style photo browser pictures: thirty photos, one original
each (1440 px wide, as drawn; sitegen makes every size the pages need), into
content/photos/images/<id>.jpg, and one abstract 128×128 avatar per photographer into
content/photos/users/<username>.png. Every fourth original is stored turned, with the EXIF
orientation tag that turns it upright again (as a camera does), so the example exercises
sitegen's orientation handling.

A development tool only: the site build never runs it and never needs Pillow. The files it
writes are what the example site uses (content/photos/photos.json names them and gives each
photo's original size, dominant colour and description); rerun it (from anywhere) after changing
a drawing:

    pip install pillow
    python3 tools/draw_unsplash_photos.py

The pictures are original, deliberately simple scenes — landscapes, architecture, still lifes,
patterns and travel — in the aspect ratios of real camera files (2:3, 3:2, 1:1, 4:5, 3:4, 4:3,
2:1, 9:16), so every size divides exactly. They contain no text, no faces and no copied artwork.
Output is deterministic: every random choice comes from a fixed seed per picture. With --colors
the tool also prints each photo's average colour, the value photos.json carries as "color".
"""

import math
import random
import sys
from functools import partial
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

import drawkit
from drawkit import (s, box, circle, pts, mix, darker, lighter, jitter, glow, ridge, fill_below, rot, veil,
                     gradient, band, waves, leaf, save_jpeg)

REGULAR = 720
# EXIF orientation → the transpose that stores an upright picture so that the tag turns it back.
STORED = {6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180}
ROOT = Path(__file__).resolve().parent.parent / "content" / "photos"
RATIOS = {"2:3": (2, 3), "3:2": (3, 2), "1:1": (1, 1), "4:5": (4, 5), "3:4": (3, 4), "4:3": (4, 3),
          "2:1": (2, 1), "9:16": (9, 16)}

# This tool's stars come in four sizes, not drawkit's five; the committed pictures were drawn so.
stars = partial(drawkit.stars, sizes=(0.5, 0.7, 0.9, 1.2))


# --- helpers of this tool (the shared ones are in drawkit.py; coordinates in regular-size px)


def pine(d, x, base, height, colour):
    """A layered conifer standing on base."""
    for k in range(4):
        top = base - height * (1 - k * 0.2)
        half = height * (0.14 + k * 0.05)
        d.polygon(pts((x, top), (x + half, top + height * 0.38), (x - half, top + height * 0.38)), fill=colour)
    d.rectangle(box(x - height * 0.02, base - height * 0.1, x + height * 0.02, base), fill=darker(colour, 0.3))


def shadow(img, draw, alpha=0.35, blur=8, colour=(20, 16, 14)):
    veil(img, colour, draw, alpha=alpha, blur=blur)


def table(img, w, top, bottom, colour):
    band(img, w, top, bottom, [(0, colour), (1, darker(colour, 0.2))])


# --- nature ---------------------------------------------------------------------------------

def fjord_morning(w, h, rng):
    img = gradient(w, h, [(0, (150, 180, 206)), (0.5, (230, 224, 214)), (0.62, (214, 206, 200))])
    water = h * 0.64
    d = ImageDraw.Draw(img)
    for k, (l, r, col) in enumerate(((0.38, 0.3, (150, 160, 176)), (0.3, 0.52, (104, 118, 134)),
                                     (0.2, 0.6, (66, 80, 92)))):
        line = ridge(w * 0.55, h * l, water, h * 0.05, rng)
        fill_below(d, line, water, col)
        line = ridge(w * 0.6, water, h * r, h * 0.05, rng)
        fill_below(d, [(w * 0.4 + x / 0.6 * 0.6, y) for x, y in line], water, col)
        veil(img, (236, 232, 226), lambda m, k=k: m.rectangle(box(0, water - h * 0.12 + k * 12, w, water - h * 0.05)),
             alpha=0.4, blur=20)
        d = ImageDraw.Draw(img)
    part = img.crop((0, s(2 * water - h), s(w), s(water))).transpose(Image.FLIP_TOP_BOTTOM)
    img.paste(Image.blend(part.filter(ImageFilter.GaussianBlur(3)), Image.new("RGB", part.size, (60, 80, 100)), 0.35),
              (0, s(water)))
    d = ImageDraw.Draw(img)
    for _ in range(40):
        y, x = rng.uniform(water + 2, h), rng.uniform(0, w)
        d.line(pts((x, y), (x + rng.uniform(10, 50), y)), fill=(190, 196, 204), width=s(0.8))
    bx, by = w * 0.58, water + h * 0.08                               # a small red boat
    d.polygon(pts((bx - 18, by), (bx + 18, by), (bx + 12, by + 7), (bx - 12, by + 7)), fill=(170, 50, 40))
    return img


def pine_fog(w, h, rng):
    img = gradient(w, h, [(0, (214, 222, 222)), (1, (160, 176, 174))])
    for k in range(6):
        col = mix((190, 202, 200), (30, 52, 46), k / 5)
        base = h * (0.42 + k * 0.11)
        d = ImageDraw.Draw(img)
        x = -20
        while x < w + 20:
            ht = rng.uniform(0.16, 0.3) * h * (0.6 + k * 0.12)
            pine(d, x, base + rng.uniform(-8, 8), ht, col)
            x += rng.uniform(14, 30) * (1 + k * 0.25)
        d.rectangle(box(0, base, w, h), fill=col)
        if k < 5:
            veil(img, (226, 232, 230), lambda m, b=base: m.rectangle(box(0, b - h * 0.08, w, b + h * 0.06)),
                 alpha=0.55, blur=26)
    return img


def aurora_snow(w, h, rng):
    img = gradient(w, h, [(0, (6, 12, 34)), (0.7, (20, 44, 70)), (0.72, (200, 214, 232)), (1, (150, 170, 200))])
    d = ImageDraw.Draw(img)
    stars(d, w, h * 0.7, 220, rng)
    for k, col in enumerate(((60, 240, 160), (90, 200, 240), (170, 110, 230))):
        line = waves(w, h * (0.24 + k * 0.08), [(30, 1), (14, 2.5)], rng)

        def curtain(m, line=line):
            for x, y in line[::2]:
                m.line(pts((x, y), (x, y + h * 0.18)), width=s(3))
        veil(img, col, curtain, alpha=0.5 - k * 0.1, blur=8)
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, h * 0.66, h * 0.7, h * 0.06, rng), h * 0.72, (40, 56, 80))
    fill_below(d, waves(w, h * 0.74, [(6, 1), (3, 3)], rng), h, (210, 222, 240))
    for x in (w * 0.12, w * 0.18, w * 0.86):
        pine(d, x, h * 0.78, h * 0.16, (18, 30, 36))
    cx = w * 0.66                                                     # a cabin with a lit window
    d.rectangle(box(cx - 26, h * 0.74 - 22, cx + 26, h * 0.74 + 4), fill=(70, 44, 36))
    d.polygon(pts((cx - 34, h * 0.74 - 20), (cx, h * 0.74 - 44), (cx + 34, h * 0.74 - 20)), fill=(236, 240, 250))
    d.rectangle(box(cx - 8, h * 0.74 - 14, cx + 6, h * 0.74 - 2), fill=(252, 210, 120))
    return img


def lake_reflection(w, h, rng):
    water = h * 0.55
    img = gradient(w, h, [(0, (120, 170, 226)), (0.55, (220, 232, 240))])
    d = ImageDraw.Draw(img)
    peak = [(0, water - h * 0.08), (w * 0.3, water - h * 0.28), (w * 0.45, water - h * 0.36),
            (w * 0.62, water - h * 0.22), (w * 0.8, water - h * 0.3), (w, water - h * 0.12), (w, water), (0, water)]
    d.polygon(pts(*peak), fill=(96, 104, 124))
    d.polygon(pts((w * 0.38, water - h * 0.31), (w * 0.45, water - h * 0.36), (w * 0.53, water - h * 0.3),
                  (w * 0.47, water - h * 0.3), (w * 0.44, water - h * 0.27)), fill=(244, 246, 250))
    d.polygon(pts((w * 0.74, water - h * 0.27), (w * 0.8, water - h * 0.3), (w * 0.86, water - h * 0.26)), fill=(244, 246, 250))
    x = -10
    while x < w + 10:
        pine(d, x, water, rng.uniform(0.06, 0.12) * h, (34, 70, 56))
        x += rng.uniform(8, 18)
    part = img.crop((0, s(2 * water - h), s(w), s(water))).transpose(Image.FLIP_TOP_BOTTOM)
    img.paste(Image.blend(part.filter(ImageFilter.GaussianBlur(2)), Image.new("RGB", part.size, (30, 60, 90)), 0.3),
              (0, s(water)))
    d = ImageDraw.Draw(img)
    for _ in range(50):
        y, x = rng.uniform(water + 3, h), rng.uniform(0, w)
        d.line(pts((x, y), (x + rng.uniform(20, 70), y)), fill=(170, 196, 220), width=s(0.8))
    return img


def dunes_noon(w, h, rng):
    img = gradient(w, h, [(0, (70, 140, 210)), (0.5, (200, 224, 236))])
    d = ImageDraw.Draw(img)
    for k in range(4):
        base = h * (0.45 + k * 0.15)
        line = waves(w, base, [(h * 0.08, 0.8), (h * 0.03, 2)], rng)
        lit, dark = mix((250, 200, 140), (226, 150, 90), k / 3), mix((200, 130, 80), (150, 80, 50), k / 3)
        fill_below(d, line, h, lit)
        crest = max(line, key=lambda p: -p[1])                    # shade one side of the crest
        d.polygon(pts(*([p for p in line if p[0] >= crest[0]] + [(w, h), (crest[0] + w * 0.1, h)])), fill=dark)
    for x in (w * 0.3, w * 0.33, w * 0.36):                          # a tiny caravan
        y = h * 0.43
        d.ellipse(box(x - 3, y - 6, x + 3, y), fill=(60, 40, 30))
        d.line(pts((x - 2, y), (x - 2, y + 4)), fill=(60, 40, 30), width=s(0.8))
    return img


def meadow_tree(w, h, rng):
    img = gradient(w, h, [(0, (250, 190, 120)), (0.5, (250, 220, 170)), (0.62, (240, 200, 150))])
    glow(img, w * 0.3, h * 0.5, h * 0.3, (255, 240, 200), 0.8)
    d = ImageDraw.Draw(img)
    d.ellipse(circle(w * 0.3, h * 0.55, h * 0.05), fill=(255, 246, 220))
    fill_below(d, waves(w, h * 0.6, [(10, 1), (4, 3)], rng), h, (170, 150, 80))
    fill_below(d, waves(w, h * 0.7, [(16, 0.8), (5, 3)], rng), h, (120, 120, 60))
    for _ in range(500):
        x, y = rng.uniform(0, w), rng.uniform(h * 0.72, h)
        d.line(pts((x, y), (x + rng.uniform(-3, 3), y - rng.uniform(6, 16))), fill=(90, 96, 50), width=s(1))
    tx, ty = w * 0.68, h * 0.68
    d.polygon(pts((tx - 8, ty), (tx + 8, ty), (tx + 4, ty - h * 0.18), (tx - 4, ty - h * 0.18)), fill=(50, 40, 34))
    for dx, dy, r in ((0, -0.28, 0.12), (-0.1, -0.22, 0.09), (0.1, -0.22, 0.09), (-0.05, -0.33, 0.08), (0.06, -0.33, 0.08)):
        d.ellipse(circle(tx + h * dx, ty + h * dy, h * r), fill=(60, 70, 40))
    return img


def monstera(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (18, 34, 30))
    d = ImageDraw.Draw(img)
    for _ in range(7):                                               # darker leaves behind
        a = rng.uniform(0, 360)
        d.polygon(pts(*leaf(rng.uniform(0, w), rng.uniform(0, h), w * 0.5, w * 0.22, a)), fill=(26, 56, 44))
    cx, cy, R = w * 0.5, h * 0.52, w * 0.36                             # the big split leaf
    d.ellipse(circle(cx, cy, R), fill=(46, 120, 74))
    for k in range(9):                                              # the splits
        a = math.radians(-80 + k * 22)
        if k == 4:
            continue
        d.polygon(pts((cx + R * 0.35 * math.cos(a), cy + R * 0.35 * math.sin(a)),
                      (cx + R * 1.05 * math.cos(a - 0.06), cy + R * 1.05 * math.sin(a - 0.06)),
                      (cx + R * 1.05 * math.cos(a + 0.05), cy + R * 1.05 * math.sin(a + 0.05))), fill=(18, 34, 30))
    for k in range(6):                                              # holes
        a = math.radians(-70 + k * 30)
        d.ellipse(circle(cx + R * 0.55 * math.cos(a), cy + R * 0.55 * math.sin(a), R * 0.05), fill=(18, 34, 30))
    for k in range(9):
        a = math.radians(-80 + k * 22 + 11)
        d.line(pts((cx, cy), (cx + R * 0.95 * math.cos(a), cy + R * 0.95 * math.sin(a))), fill=(90, 170, 110), width=s(1.5))
    d.line(pts((cx, cy), (cx - R * 0.3, cy + R * 1.6)), fill=(70, 140, 90), width=s(5))
    veil(img, (250, 250, 220), lambda m: m.polygon(pts((0, 0), (w * 0.6, 0), (0, h * 0.6))), alpha=0.08, blur=40)
    return img


def waves_cliff(w, h, rng):
    img = gradient(w, h, [(0, (150, 196, 230)), (0.35, (226, 236, 240)), (0.36, (30, 110, 150)), (1, (20, 70, 110))])
    d = ImageDraw.Draw(img)
    for k in range(14):                                             # foam lines
        y = h * (0.4 + k * 0.045)
        line = waves(w * 0.8, y, [(4, 3), (2, 7)], rng)
        d.line(pts(*line), fill=mix((240, 250, 250), (120, 190, 210), rng.random() * 0.6), width=s(1.4 + k * 0.15))
    cliff = [(w * 0.55, h * 0.3), (w * 0.7, h * 0.26), (w, h * 0.24), (w, h), (w * 0.8, h),
             (w * 0.72, h * 0.75), (w * 0.62, h * 0.6), (w * 0.58, h * 0.45)]
    d.polygon(pts(*cliff), fill=(120, 96, 80))
    d.polygon(pts((w * 0.55, h * 0.3), (w * 0.7, h * 0.26), (w, h * 0.24), (w, h * 0.28), (w * 0.6, h * 0.33)), fill=(110, 150, 80))
    for k in range(6):
        y0 = h * (0.3 + k * 0.07)
        d.line(pts((w * 0.62 + k * 6, y0), (w, y0 + 10)), fill=(100, 80, 68), width=s(2))
    edge = [(w * 0.58, h * 0.45), (w * 0.62, h * 0.6), (w * 0.72, h * 0.75), (w * 0.8, h)]

    def at(y):                                                      # the cliff's foot at height y
        for (x0, y0), (x1, y1) in zip(edge, edge[1:]):
            if y <= y1:
                return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
        return edge[-1][0]
    spray = [(at(y) - rng.uniform(0, 14), y, rng.uniform(6, 16)) for y in [h * rng.uniform(0.46, 0.98) for _ in range(26)]]
    veil(img, (250, 252, 252), lambda m: [m.ellipse(circle(x, y, r)) for x, y, r in spray], alpha=0.8, blur=4)
    return img


# --- architecture ---------------------------------------------------------------------------

def facade_grid(w, h, rng):
    img = gradient(w, h, [(0, (90, 160, 220)), (1, (190, 220, 240))])
    d = ImageDraw.Draw(img)
    # A tower seen from below at an angle: two faces converging upwards.
    vx = w * 0.5
    for face, (x0, x1, col) in enumerate(((-0.1, 0.5, (226, 222, 214)), (0.5, 1.1, (170, 166, 160)))):
        bl, br = (w * x0, h), (w * x1, h)
        tl = (bl[0] + (vx - bl[0]) * 0.35, h * 0.05 if face else h * 0.0)
        tr = (br[0] + (vx - br[0]) * 0.35, h * 0.0 if face else h * 0.05)
        d.polygon(pts(bl, br, tr, tl), fill=col)
        rows, cols = 12, 5
        for i in range(rows):
            for j in range(cols):
                def at(u, v):
                    top = (tl[0] + (tr[0] - tl[0]) * u, tl[1] + (tr[1] - tl[1]) * u)
                    bot = (bl[0] + (br[0] - bl[0]) * u, bl[1] + (br[1] - bl[1]) * u)
                    return (top[0] + (bot[0] - top[0]) * v, top[1] + (bot[1] - top[1]) * v)
                u0, u1 = (j + 0.15) / cols, (j + 0.85) / cols
                v0, v1 = (i + 0.2) / rows, (i + 0.8) / rows
                glass = mix((60, 100, 150), (150, 200, 230), (0.1 + 0.45 * (i % 3 == j % 2)) + (0.3 if face == 0 else 0))
                d.polygon(pts(at(u0, v0), at(u1, v0), at(u1, v1), at(u0, v1)), fill=glass)
    return img


def spiral_stair(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (40, 34, 30))
    d = ImageDraw.Draw(img)
    cx, cy = w * 0.5, h * 0.5
    steps = 56
    for k in range(steps, 0, -1):                                   # from the outside in
        r0 = w * 0.5 * (k / steps) ** 0.9
        r1 = r0 * 0.82
        a0, a1 = k * 24, k * 24 + 22
        col = mix((246, 240, 228), (110, 96, 84), 1 - k / steps)
        seg = [(cx + r0 * math.cos(math.radians(a)), cy + r0 * math.sin(math.radians(a))) for a in range(a0, a1 + 1, 2)]
        seg += [(cx + r1 * math.cos(math.radians(a)), cy + r1 * math.sin(math.radians(a))) for a in range(a1, a0 - 1, -2)]
        d.polygon(pts(*seg), fill=col)
    rail = [(cx + w * 0.5 * (t / 400) ** 0.9 * 0.8 * math.cos(math.radians(t / 400 * steps * 24)),
             cy + w * 0.5 * (t / 400) ** 0.9 * 0.8 * math.sin(math.radians(t / 400 * steps * 24))) for t in range(8, 400)]
    d.line(pts(*rail), fill=(40, 34, 30), width=s(2.5), joint="curve")
    d.ellipse(circle(cx, cy, w * 0.03), fill=(12, 10, 10))
    return img


def arches(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (238, 214, 180))
    d = ImageDraw.Draw(img)
    n, floor = 5, h * 0.82
    aw = w / n
    for i in range(n):                                              # openings to a bright courtyard
        x = i * aw
        d.rectangle(box(x + aw * 0.18, h * 0.36, x + aw * 0.82, floor), fill=(250, 236, 206))
        d.ellipse(box(x + aw * 0.18, h * 0.36 - aw * 0.32, x + aw * 0.82, h * 0.36 + aw * 0.32), fill=(250, 236, 206))
        d.rectangle(box(x + aw * 0.18, h * 0.6, x + aw * 0.82, floor), fill=(168, 200, 140))
    band(img, w, floor, h, [(0, (200, 160, 120)), (1, (170, 126, 90))])
    # Slanted sun patches on the floor, and the columns' shadows.
    veil(img, (255, 236, 200), lambda m: [m.polygon(pts((i * aw + aw * 0.18, floor), (i * aw + aw * 0.82, floor),
                                                        (i * aw + aw * 1.1, h), (i * aw + aw * 0.4, h))) for i in range(n)],
         alpha=0.5, blur=2)
    d = ImageDraw.Draw(img)
    d.rectangle(box(0, h * 0.08, w, h * 0.12), fill=(214, 184, 146))
    for i in range(n + 1):
        d.rectangle(box(i * aw - aw * 0.06, h * 0.12, i * aw + aw * 0.06, h * 0.16), fill=(214, 184, 146))
    return img


def skyline_dusk(w, h, rng):
    ground = h * 0.86
    img = gradient(w, h, [(0, (40, 50, 110)), (0.5, (170, 100, 150)), (0.86, (250, 170, 110))])
    d = ImageDraw.Draw(img)
    stars(d, w, h * 0.3, 40, rng)
    for layer, (col, hr, p) in enumerate((((110, 80, 130), (0.2, 0.45), 0), ((46, 36, 70), (0.12, 0.6), 0.3))):
        x = -rng.uniform(0, 20)
        while x < w:
            bw, bh = rng.uniform(18, 48), h * rng.uniform(*hr)
            d.rectangle(box(x, ground - bh, x + bw, ground), fill=col)
            if rng.random() < 0.2:
                d.line(pts((x + bw / 2, ground - bh), (x + bw / 2, ground - bh - 20)), fill=col, width=s(2))
            if p:
                for yy in range(int(ground - bh + 6), int(ground - 4), 8):
                    for xx in range(int(x + 4), int(x + bw - 5), 7):
                        if rng.random() < p:
                            d.rectangle(box(xx, yy, xx + 3, yy + 4), fill=jitter((250, 210, 130), rng, 20))
            x += bw + rng.uniform(0, 5)
    d.rectangle(box(0, ground, w, h), fill=(30, 24, 46))
    return img


def tower_up(w, h, rng):
    img = gradient(w, h, [(0, (40, 90, 170)), (1, (150, 200, 240))])
    d = ImageDraw.Draw(img)
    # Converging edges of a tall tower seen from its foot, with bands of balconies.
    cx = w * 0.5
    top_y = h * 0.06
    d.polygon(pts((w * 0.02, h), (w * 0.98, h), (cx + w * 0.08, top_y), (cx - w * 0.08, top_y)), fill=(236, 236, 230))
    d.polygon(pts((cx, h), (w * 0.98, h), (cx + w * 0.08, top_y), (cx, top_y)), fill=(196, 198, 200))
    for k in range(60):                                             # floors, closer together as they recede
        y = top_y + (h - top_y) * 0.9 ** k
        if y < top_y + 6:
            break
        step = (h - top_y) * 0.9 ** k * 0.1
        t = (y - top_y) / (h - top_y)
        half = w * 0.08 + (w * 0.48 - w * 0.08) * t
        d.line(pts((cx - half, y), (cx + half, y)), fill=(120, 130, 140), width=s(max(0.8, 3 * t)))
        d.polygon(pts((cx - half * 0.96, y - step * 0.15), (cx + half * 0.96, y - step * 0.15), (cx + half * 0.96, y - step * 0.6),
                      (cx - half * 0.96, y - step * 0.6)), fill=mix((70, 110, 150), (140, 190, 220), (k % 3) / 3))
    for _ in range(3):
        bx, by = rng.uniform(w * 0.1, w * 0.9), rng.uniform(h * 0.05, h * 0.2)
        d.line(pts((bx - 6, by - 2), (bx, by + 1), (bx + 6, by - 2)), fill=(30, 40, 60), width=s(1.2))
    return img


def hanok_roof(w, h, rng):
    img = gradient(w, h, [(0, (170, 210, 236)), (1, (236, 240, 236))])
    d = ImageDraw.Draw(img)
    d.rectangle(box(0, h * 0.72, w, h), fill=(220, 210, 190))
    # A curved tiled roof: the eave lifts at both ends.
    def eave(t, lift):
        return h * 0.5 - lift * (2 * t - 1) ** 4 * h * 0.12
    top = [(w * (0.05 + 0.9 * t / 40), h * 0.22 - (h * 0.04) * (2 * t / 40 - 1) ** 4) for t in range(41)]
    bottom = [(w * (-0.04 + 1.08 * t / 40), eave(t / 40, 1)) for t in range(40, -1, -1)]
    d.polygon(pts(*(top + bottom)), fill=(60, 64, 70))
    for k in range(34):                                             # tile rows
        t = k / 33
        x0, y0 = w * (0.05 + 0.9 * t), h * 0.22 - h * 0.04 * (2 * t - 1) ** 4
        x1, y1 = w * (-0.04 + 1.08 * t), eave(t, 1)
        d.line(pts((x0, y0), (x1, y1)), fill=(90, 96, 104), width=s(2))
    d.line(pts(*bottom), fill=(230, 230, 226), width=s(3), joint="curve")
    d.rectangle(box(w * 0.12, h * 0.5, w * 0.88, h * 0.72), fill=(236, 226, 206))
    for k in range(5):                                              # pillars and lattice doors
        x = w * (0.12 + 0.19 * k)
        d.rectangle(box(x - 5, h * 0.5, x + 5, h * 0.73), fill=(130, 70, 50))
        if k < 4:
            for j in range(1, 5):
                d.line(pts((x + w * 0.19 * j / 5, h * 0.53), (x + w * 0.19 * j / 5, h * 0.7)), fill=(170, 130, 100), width=s(1))
            for j in range(1, 6):
                d.line(pts((x + 6, h * 0.53 + j * h * 0.028), (x + w * 0.19 - 6, h * 0.53 + j * h * 0.028)),
                       fill=(170, 130, 100), width=s(1))
    d.rectangle(box(w * 0.1, h * 0.5, w * 0.9, h * 0.52), fill=(60, 120, 110))
    d.rectangle(box(w * 0.08, h * 0.73, w * 0.92, h * 0.76), fill=(160, 150, 140))
    return img


def colourful_houses(w, h, rng):
    img = gradient(w, h, [(0, (110, 180, 230)), (0.4, (200, 226, 240))])
    d = ImageDraw.Draw(img)
    water = h * 0.72
    palette = ((236, 90, 80), (250, 200, 70), (80, 150, 210), (120, 190, 120), (240, 150, 60), (200, 110, 190))
    x = 0
    while x < w:
        bw = rng.uniform(w * 0.14, w * 0.24)
        top = water - h * rng.uniform(0.3, 0.5)
        col = rng.choice(palette)
        d.rectangle(box(x, top, x + bw, water), fill=col)
        d.polygon(pts((x - 2, top), (x + bw / 2, top - bw * 0.35), (x + bw + 2, top)), fill=(170, 80, 60))
        for yy in (top + h * 0.06, top + h * 0.16):
            if yy < water - h * 0.12:
                for xx in (x + bw * 0.2, x + bw * 0.6):
                    d.rectangle(box(xx, yy, xx + bw * 0.2, yy + h * 0.06), fill=(250, 248, 240))
                    d.rectangle(box(xx + 2, yy + 2, xx + bw * 0.2 - 2, yy + h * 0.06 - 2), fill=(60, 80, 110))
        d.rectangle(box(x + bw * 0.38, water - h * 0.1, x + bw * 0.62, water), fill=darker(col, 0.4))
        x += bw
    part = img.crop((0, s(2 * water - h), s(w), s(water))).transpose(Image.FLIP_TOP_BOTTOM)
    img.paste(Image.blend(part.filter(ImageFilter.GaussianBlur(3)), Image.new("RGB", part.size, (30, 90, 110)), 0.45),
              (0, s(water)))
    d = ImageDraw.Draw(img)
    for _ in range(40):
        y, x = rng.uniform(water + 3, h), rng.uniform(0, w)
        d.line(pts((x, y), (x + rng.uniform(10, 40), y)), fill=(40, 100, 120), width=s(1.2))
    return img


def bridge_night(w, h, rng):
    water = h * 0.68
    img = gradient(w, h, [(0, (8, 14, 36)), (0.68, (40, 50, 96)), (0.681, (14, 20, 44)), (1, (6, 10, 24))])
    d = ImageDraw.Draw(img)
    stars(d, w, h * 0.5, 80, rng)
    deck = water - h * 0.12
    for px in (w * 0.3, w * 0.75):                                   # two towers and their cables
        d.rectangle(box(px - 6, h * 0.12, px + 6, water), fill=(180, 190, 210))
        for k in range(10):
            for side in (-1, 1):
                d.line(pts((px, h * 0.14 + k * 3), (px + side * (20 + k * 22), deck)), fill=(200, 210, 230), width=s(0.8))
    d.rectangle(box(0, deck - 4, w, deck + 4), fill=(150, 160, 190))
    for k in range(0, int(w), 14):
        glow(img, k, deck + 6, 5, (250, 210, 130), 0.7)
    d = ImageDraw.Draw(img)
    for _ in range(60):
        x, y = rng.uniform(0, w), rng.uniform(water + 2, h)
        d.line(pts((x, y), (x + rng.uniform(4, 20), y)), fill=(200, 170, 110), width=s(1))
    return img


# --- still life -----------------------------------------------------------------------------

def coffee_top(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (196, 150, 110))
    d = ImageDraw.Draw(img)
    for k in range(int(h / 10)):                                    # wood grain
        y = k * 10 + rng.uniform(-2, 2)
        d.line(pts(*waves(w, y, [(2, 2), (1, 6)], rng, step=20)), fill=(180, 134, 96), width=s(1.2))
    cx, cy, R = w * 0.45, h * 0.5, w * 0.22
    shadow(img, lambda m: m.ellipse(circle(cx + 14, cy + 16, R * 1.45)))
    d = ImageDraw.Draw(img)
    d.ellipse(circle(cx, cy, R * 1.45), fill=(240, 236, 228))
    d.ellipse(circle(cx, cy, R * 1.25), fill=(228, 222, 212))
    d.ellipse(circle(cx, cy, R), fill=(250, 248, 244))
    d.ellipse(circle(cx, cy, R * 0.86), fill=(140, 84, 44))
    d.ellipse(circle(cx, cy, R * 0.55), fill=(236, 210, 176))              # latte art: a heart
    d.polygon(pts((cx - R * 0.45, cy - R * 0.05), (cx, cy + R * 0.5), (cx + R * 0.45, cy - R * 0.05)), fill=(140, 84, 44))
    d.ellipse(circle(cx - R * 0.2, cy - R * 0.12, R * 0.22), fill=(236, 210, 176))
    d.ellipse(circle(cx + R * 0.2, cy - R * 0.12, R * 0.22), fill=(236, 210, 176))
    d.rounded_rectangle(box(cx + R * 0.95, cy - R * 0.15, cx + R * 1.4, cy + R * 0.15), radius=s(R * 0.1), fill=(250, 248, 244))
    sx = w * 0.82                                                    # a spoon and some beans
    d.ellipse(box(sx - 16, h * 0.2, sx + 16, h * 0.2 + 44), fill=(200, 200, 206))
    d.line(pts((sx, h * 0.2 + 40), (sx - 6, h * 0.62)), fill=(200, 200, 206), width=s(6))
    for _ in range(9):
        bx, by = rng.uniform(w * 0.1, w * 0.9), rng.uniform(h * 0.8, h * 0.95)
        a = rng.uniform(0, 180)
        d.polygon(pts(*leaf(bx, by, 16, 11, a, n=8)), fill=(70, 40, 24))
    return img


def lemons_cloth(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (52, 92, 160))
    d = ImageDraw.Draw(img)
    for k in range(0, int(w), 120):                                 # a cloth with broad soft stripes
        d.rectangle(box(k + 20, 0, k + 60, h), fill=(214, 224, 238))
        d.rectangle(box(k + 70, 0, k + 78, h), fill=(214, 224, 238))
    spots = [(0.35, 0.35, 0), (0.62, 0.5, 30), (0.4, 0.68, -20), (0.7, 0.78, 60)]
    for fx, fy, a in spots:
        x, y, r = w * fx, h * fy, w * 0.15
        shadow(img, lambda m, x=x, y=y, r=r: m.ellipse(box(x - r + 12, y - r * 0.75 + 14, x + r + 12, y + r * 0.75 + 14)), 0.4, 10)
        body = Image.new("L", img.size, 0)
        bd = ImageDraw.Draw(body)
        bd.ellipse(box(x - r, y - r * 0.75, x + r, y + r * 0.75), fill=255)
        bd.ellipse(circle(x + r * 0.98, y, r * 0.12), fill=255)
        bd.ellipse(circle(x - r * 0.98, y, r * 0.1), fill=255)
        body = body.rotate(a, center=(s(x), s(y)))
        img.paste((246, 206, 40), (0, 0) + img.size, body)
        veil(img, (255, 246, 170), lambda m, x=x, y=y, r=r: m.ellipse(circle(x - r * 0.35, y - r * 0.3, r * 0.3)), 0.6, 8)
    d = ImageDraw.Draw(img)
    lx, ly = w * 0.55, h * 0.22
    d.polygon(pts(*leaf(lx, ly, w * 0.2, w * 0.08, -30)), fill=(60, 130, 60))
    return img


def teapot(w, h, rng):
    img = gradient(w, h, [(0, (220, 210, 196)), (1, (200, 186, 170))])
    table(img, w, h * 0.66, h, (150, 110, 80))
    d = ImageDraw.Draw(img)
    cx, cy, R = w * 0.42, h * 0.54, w * 0.2
    shadow(img, lambda m: m.ellipse(box(cx - R * 1.2, h * 0.68, cx + R * 1.6, h * 0.74)), 0.4, 8)
    d = ImageDraw.Draw(img)
    body = (60, 120, 120)
    d.polygon(pts((cx + R * 0.8, cy), (cx + R * 1.6, cy - R * 0.7), (cx + R * 1.7, cy - R * 0.62), (cx + R * 0.9, cy + R * 0.4)), fill=body)
    d.arc(box(cx - R * 1.5, cy - R * 0.6, cx - R * 0.5, cy + R * 0.5), 90, 270, fill=body, width=s(R * 0.16))
    d.ellipse(box(cx - R, cy - R * 0.8, cx + R, cy + R * 0.85), fill=body)
    d.ellipse(box(cx - R * 0.5, cy - R * 0.98, cx + R * 0.5, cy - R * 0.7), fill=darker(body, 0.15))
    d.ellipse(circle(cx, cy - R * 1.02, R * 0.1), fill=darker(body, 0.2))
    d.ellipse(box(cx - R * 0.6, cy - R * 0.5, cx - R * 0.3, cy - R * 0.1), fill=lighter(body, 0.35))
    for k, x in enumerate((w * 0.78, w * 0.9)):                      # two cups
        y = h * 0.7 - k * 6
        d.ellipse(box(x - 34, y - 4, x + 34, y + 10), fill=(240, 236, 228))
        d.chord(box(x - 26, y - 42, x + 26, y + 4), 0, 180, fill=(248, 246, 240))
        d.rectangle(box(x - 26, y - 24, x + 26, y - 18), fill=(248, 246, 240))
        d.ellipse(box(x - 26, y - 30, x + 26, y - 18), fill=(170, 110, 50))
    for k in range(3):                                              # steam
        line = [(cx + R * 1.65 + 6 * math.sin(t / 3 + k), cy - R * 0.7 - t * 4) for t in range(14)]
        d.line(pts(*line), fill=(250, 248, 244), width=s(1.5), joint="curve")
    return img


def fruit_bowl(w, h, rng):
    img = gradient(w, h, [(0, (60, 66, 80)), (1, (30, 32, 40))])
    table(img, w, h * 0.7, h, (110, 80, 60))
    cx, cy, R = w * 0.5, h * 0.68, w * 0.24
    shadow(img, lambda m: m.ellipse(box(cx - R * 1.1, cy + R * 0.2, cx + R * 1.3, cy + R * 0.45)), 0.5, 10, (0, 0, 0))
    d = ImageDraw.Draw(img)
    fruit = [((230, 60, 50), 0.22, -0.55, -0.32), ((250, 160, 40), 0.22, 0.0, -0.48), ((120, 170, 60), 0.2, 0.55, -0.3),
             ((120, 50, 110), 0.14, -0.25, -0.12), ((250, 200, 60), 0.2, 0.3, -0.1)]
    for col, r, dx, dy in fruit:
        x, y = cx + dx * R, cy + dy * R
        d.ellipse(circle(x, y, r * R * 1.3), fill=col)
        d.ellipse(circle(x - r * R * 0.45, y - r * R * 0.45, r * R * 0.35), fill=lighter(col, 0.35))
    d.chord(box(cx - R * 1.1, cy - R * 0.5, cx + R * 1.1, cy + R * 0.5), 0, 180, fill=(230, 226, 214))
    d.rectangle(box(cx - R * 1.1, cy - 2, cx + R * 1.1, cy + 2), fill=(200, 194, 180))
    d.line(pts((cx + R * 0.55, cy - R * 0.58), (cx + R * 0.6, cy - R * 0.75)), fill=(90, 60, 30), width=s(3))
    veil(img, (255, 240, 210), lambda m: m.polygon(pts((0, 0), (w * 0.45, 0), (w * 0.1, h))), alpha=0.12, blur=40)
    return img


def plant_shelf(w, h, rng):
    img = gradient(w, h, [(0, (236, 228, 214)), (1, (214, 204, 188))])
    d = ImageDraw.Draw(img)
    for k, y in enumerate((h * 0.34, h * 0.66, h * 0.95)):
        shadow(img, lambda m, y=y: m.rectangle(box(w * 0.05, y, w * 0.95, y + 16)), 0.3, 6)
        d = ImageDraw.Draw(img)
        d.rectangle(box(w * 0.05, y - 6, w * 0.95, y + 4), fill=(170, 126, 86))
        for j in range(2 + k % 2):
            x = w * (0.22 + j * (0.56 / (1 + k % 2)))
            pot = rng.choice(((200, 110, 80), (240, 236, 226), (60, 70, 80), (120, 160, 150)))
            ph = h * 0.09
            d.polygon(pts((x - ph * 0.5, y - 6 - ph), (x + ph * 0.5, y - 6 - ph), (x + ph * 0.38, y - 6), (x - ph * 0.38, y - 6)), fill=pot)
            green = rng.choice(((60, 120, 70), (90, 150, 80), (40, 100, 80)))
            if rng.random() < 0.5:
                for a in range(-150, -20, 18):                      # a leafy spray
                    d.polygon(pts(*leaf(x, y - 6 - ph, ph * rng.uniform(0.9, 1.5), ph * 0.35, a)), fill=jitter(green, rng, 15))
            else:
                for _ in range(3):                                  # a cactus
                    cx2 = x + rng.uniform(-ph * 0.2, ph * 0.2)
                    d.rounded_rectangle(box(cx2 - ph * 0.14, y - 6 - ph * rng.uniform(1.6, 2.2), cx2 + ph * 0.14, y - 6 - ph),
                                        radius=s(ph * 0.14), fill=green)
            if k == 1 and j == 0:                                   # a trailing vine
                for t in range(12):
                    d.ellipse(circle(x - ph * 0.45 - t * 1.5, y + t * ph * 0.22, ph * 0.1), fill=green)
    return img


def bread_board(w, h, rng):
    img = gradient(w, h, [(0, (70, 60, 56)), (1, (40, 34, 32))])
    d = ImageDraw.Draw(img)
    bx0, by0, bx1, by1 = w * 0.1, h * 0.25, w * 0.9, h * 0.85
    shadow(img, lambda m: m.rounded_rectangle(box(bx0 + 10, by0 + 14, bx1 + 10, by1 + 14), radius=s(20)), 0.5, 10, (0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(box(bx0, by0, bx1, by1), radius=s(20), fill=(200, 150, 100))
    for k in range(12):
        y = by0 + (by1 - by0) * (k + 0.5) / 12
        d.line(pts(*waves(bx1 - bx0 - 20, y, [(2, 1.5)], rng, step=16)), fill=(186, 136, 90), width=s(1))
    cx, cy = w * 0.45, h * 0.52                                      # a loaf with scored crust
    d.ellipse(box(cx - w * 0.28, cy - h * 0.16, cx + w * 0.28, cy + h * 0.16), fill=(176, 110, 50))
    d.ellipse(box(cx - w * 0.26, cy - h * 0.15, cx + w * 0.26, cy + h * 0.12), fill=(206, 140, 70))
    for k in range(4):
        x = cx - w * 0.15 + k * w * 0.1
        d.arc(box(x - 24, cy - h * 0.1, x + 24, cy + h * 0.06), 230, 310, fill=(250, 220, 160), width=s(6))
    for _ in range(60):
        x, y = rng.uniform(bx0 + 10, bx1 - 10), rng.uniform(by0 + 10, by1 - 10)
        d.ellipse(circle(x, y, 1.2), fill=(240, 230, 210))
    sx, sy = w * 0.78, h * 0.7                                       # a slice
    d.rounded_rectangle(box(sx - 34, sy - 28, sx + 34, sy + 28), radius=s(16), fill=(176, 110, 50))
    d.rounded_rectangle(box(sx - 29, sy - 23, sx + 29, sy + 23), radius=s(13), fill=(246, 230, 196))
    return img


def vase_flowers(w, h, rng):
    img = gradient(w, h, [(0, (226, 196, 180)), (1, (210, 176, 160))])
    table(img, w, h * 0.78, h, (236, 226, 214))
    d = ImageDraw.Draw(img)
    veil(img, (255, 236, 220), lambda m: m.polygon(pts((w * 0.6, 0), (w, 0), (w, h * 0.5), (w * 0.3, h * 0.78))),
         alpha=0.35, blur=20)
    d = ImageDraw.Draw(img)
    cx, base = w * 0.5, h * 0.8
    for _ in range(9):                                              # dried stems
        a = math.radians(rng.uniform(-120, -60))
        L = h * rng.uniform(0.35, 0.55)
        x1, y1 = cx + L * math.cos(a), base - h * 0.2 + L * math.sin(a)
        d.line(pts((cx, base - h * 0.2), (x1, y1)), fill=(140, 110, 70), width=s(1.5))
        for t in range(8):
            tx = cx + (x1 - cx) * (0.6 + t * 0.05)
            ty = base - h * 0.2 + (y1 - base + h * 0.2) * (0.6 + t * 0.05)
            d.ellipse(circle(tx + rng.uniform(-4, 4), ty, rng.uniform(3, 6)), fill=jitter((214, 180, 130), rng, 16))
    for _ in range(3):
        x, y = cx + rng.uniform(-w * 0.15, w * 0.15), base - h * rng.uniform(0.45, 0.6)
        d.line(pts((cx, base - h * 0.2), (x, y)), fill=(120, 100, 60), width=s(1.5))
        d.ellipse(circle(x, y, 12), fill=(240, 236, 226))
    shadow(img, lambda m: m.ellipse(box(cx - w * 0.1, base - 6, cx + w * 0.26, base + 10)), 0.35, 8)
    d = ImageDraw.Draw(img)
    d.polygon(pts((cx - w * 0.05, base - h * 0.24), (cx + w * 0.05, base - h * 0.24), (cx + w * 0.05, base - h * 0.19),
                  (cx + w * 0.12, base - h * 0.1), (cx + w * 0.09, base), (cx - w * 0.09, base), (cx - w * 0.12, base - h * 0.1),
                  (cx - w * 0.05, base - h * 0.19)), fill=(70, 80, 110))
    d.line(pts((cx - w * 0.07, base - h * 0.16), (cx - w * 0.1, base - h * 0.06)), fill=(120, 130, 160), width=s(3))
    return img


# --- patterns -------------------------------------------------------------------------------

def terrazzo(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (238, 232, 222))
    d = ImageDraw.Draw(img)
    palette = ((220, 110, 90), (60, 80, 120), (240, 190, 90), (140, 170, 150), (50, 50, 56), (200, 170, 160))
    for _ in range(int(w * h / 700)):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.choice((3, 4, 6, 9, 14))
        n = rng.randint(4, 7)
        a0 = rng.uniform(0, 6.28)
        poly = [(x + r * rng.uniform(0.6, 1.2) * math.cos(a0 + k * 6.28 / n), y + r * rng.uniform(0.6, 1.2) * math.sin(a0 + k * 6.28 / n))
                for k in range(n)]
        d.polygon(pts(*poly), fill=rng.choice(palette))
    return img


def raked_sand(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (226, 218, 200))
    d = ImageDraw.Draw(img)
    stones = [(w * 0.3, h * 0.45, 44), (w * 0.72, h * 0.6, 30)]
    for k in range(0, int(h) + 20, 9):                              # straight rake lines
        d.line(pts((0, k), (w, k)), fill=(200, 190, 170), width=s(2))
    for x, y, r in stones:                                          # circles round each stone
        for j in range(1, 7):
            d.ellipse(circle(x, y, r + j * 11), fill=(226, 218, 200))
        for j in range(1, 7):
            d.ellipse(circle(x, y, r + j * 11), outline=(200, 190, 170), width=s(2))
    for x, y, r in stones:
        shadow(img, lambda m, x=x, y=y, r=r: m.ellipse(box(x - r + 6, y - r * 0.7 + 10, x + r + 6, y + r * 0.7 + 10)), 0.4, 6)
        d = ImageDraw.Draw(img)
        d.ellipse(box(x - r, y - r * 0.75, x + r, y + r * 0.75), fill=(96, 94, 92))
        d.ellipse(box(x - r * 0.6, y - r * 0.6, x + r * 0.2, y - r * 0.1), fill=(130, 128, 124))
        d.chord(box(x - r, y - r * 0.75, x + r, y + r * 0.75), 200, 300, fill=(90, 130, 80))    # moss
    return img


def paper_folds(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (240, 160, 140))
    d = ImageDraw.Draw(img)
    base = (240, 150, 130)
    rows, cols = 5, 4
    cw, ch = w / cols, h / rows
    for i in range(cols):
        for j in range(rows):
            x, y = i * cw, j * ch
            mid = (x + cw / 2, y + ch / 2)
            for k, (a, b) in enumerate((((x, y), (x + cw, y)), ((x + cw, y), (x + cw, y + ch)),
                                        ((x + cw, y + ch), (x, y + ch)), ((x, y + ch), (x, y)))):
                shade = (0.0, 0.12, 0.28, -0.12)[(k + i + j) % 4]
                col = darker(base, shade) if shade > 0 else lighter(base, -shade)
                d.polygon(pts(a, b, mid), fill=col)
    return img


def bokeh(w, h, rng):
    img = gradient(w, h, [(0, (30, 20, 50)), (1, (70, 30, 60))])
    for _ in range(40):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(14, 60)
        col = rng.choice(((250, 180, 90), (250, 120, 150), (130, 170, 250), (250, 230, 160)))
        veil(img, col, lambda m, x=x, y=y, r=r: m.ellipse(circle(x, y, r)), alpha=rng.uniform(0.15, 0.45), blur=r * 0.08)
    return img


def tiles(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (246, 244, 238))
    d = ImageDraw.Draw(img)
    blue, light = (30, 70, 150), (110, 150, 210)
    t = w / 4
    for i in range(4):
        for j in range(int(h / t) + 1):
            x, y = i * t, j * t
            cx, cy = x + t / 2, y + t / 2
            d.rectangle(box(x, y, x + t, y + t), outline=(200, 200, 200), width=s(1))
            for k in range(4):                                      # a four-petal star in each tile
                d.polygon(pts(*leaf(cx, cy, t * 0.42, t * 0.2, k * 90 + 45)), fill=blue)
            d.ellipse(circle(cx, cy, t * 0.1), fill=(246, 244, 238))
            d.ellipse(circle(cx, cy, t * 0.05), fill=(240, 180, 60))
            for ex, ey in ((x, y), (x + t, y), (x, y + t), (x + t, y + t)):   # quarter circles at the corners
                d.ellipse(circle(ex, ey, t * 0.16), fill=light)
                d.ellipse(circle(ex, ey, t * 0.08), fill=(246, 244, 238))
    return img


# --- travel ---------------------------------------------------------------------------------

def road_trip(w, h, rng):
    horizon = h * 0.5
    img = gradient(w, h, [(0, (90, 150, 220)), (0.5, (240, 214, 180))])
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, horizon - h * 0.12, horizon - h * 0.08, h * 0.1, rng), horizon + 2, (150, 130, 150))
    fill_below(d, ridge(w, horizon - h * 0.04, horizon - h * 0.06, h * 0.04, rng), horizon + 2, (110, 100, 120))
    band(img, w, horizon, h, [(0, (190, 160, 110)), (1, (150, 120, 70))])
    d = ImageDraw.Draw(img)
    vx = w * 0.52
    d.polygon(pts((vx - 3, horizon), (vx + 3, horizon), (w * 0.95, h), (w * 0.05, h)), fill=(60, 60, 66))
    y, seg = horizon + 4, 6
    while y < h:                                                    # centre dashes, longer nearer
        t = (y - horizon) / (h - horizon)
        d.polygon(pts((vx - 0.5 - t * 4, y), (vx + 0.5 + t * 4, y), (vx + 0.5 + t * 5, y + seg), (vx - 0.5 - t * 5, y + seg)),
                  fill=(250, 220, 90))
        y += seg * 2
        seg *= 1.35
    for k in range(10):                                             # telegraph poles
        t = (k + 1) / 10
        x = vx + (w * 0.02 - vx) * t ** 1.6 * 1.05 - 10
        yb = horizon + (h - horizon) * t ** 1.6
        ph = 6 + 120 * t ** 1.6
        d.line(pts((x, yb), (x, yb - ph)), fill=(70, 50, 40), width=s(max(1, 3 * t)))
        d.line(pts((x - ph * 0.12, yb - ph * 0.9), (x + ph * 0.12, yb - ph * 0.9)), fill=(70, 50, 40), width=s(max(1, 2 * t)))
    return img


def tram_street(w, h, rng):
    img = gradient(w, h, [(0, (120, 190, 240)), (1, (220, 236, 246))])
    d = ImageDraw.Draw(img)
    slope = lambda x: h * 0.82 - x * 0.22                           # the street climbs to the right
    x = -10
    while x < w:                                                    # tiled houses along the slope
        bw = rng.uniform(70, 110)
        top = slope(x + bw) - h * rng.uniform(0.42, 0.6)
        col = rng.choice(((240, 200, 150), (230, 150, 120), (250, 236, 210), (150, 190, 210), (240, 220, 120)))
        d.polygon(pts((x, slope(x)), (x + bw, slope(x + bw)), (x + bw, top), (x, top)), fill=col)
        d.rectangle(box(x - 3, top - 8, x + bw + 3, top), fill=(180, 90, 60))
        for fy in range(int(top + 20), int(slope(x + bw) - 60), 46):
            for fx in (x + bw * 0.2, x + bw * 0.6):
                d.rectangle(box(fx, fy, fx + bw * 0.2, fy + 28), fill=(60, 90, 110))
                d.rectangle(box(fx - 3, fy + 28, fx + bw * 0.2 + 3, fy + 32), fill=(50, 50, 54))
        x += bw
    d.polygon(pts((0, slope(0)), (w, slope(w)), (w, h), (0, h)), fill=(170, 160, 150))
    for k in range(2):                                              # rails
        off = 18 + k * 26
        d.line(pts((0, slope(0) + off), (w, slope(w) + off)), fill=(120, 116, 110), width=s(2))
    tx = w * 0.32                                                   # the yellow tram, tilted with the street
    body = rot(tx, slope(tx) - 40, [(-110, -46), (110, -46), (110, 30), (-110, 30)], -math.degrees(math.atan(0.22)))
    d.polygon(pts(*body), fill=(250, 200, 40))
    stripe = rot(tx, slope(tx) - 40, [(-110, 14), (110, 14), (110, 30), (-110, 30)], -math.degrees(math.atan(0.22)))
    d.polygon(pts(*stripe), fill=(250, 248, 240))
    for k in range(5):
        win = rot(tx, slope(tx) - 40, [(-100 + k * 42, -38), (-70 + k * 42, -38), (-70 + k * 42, 2), (-100 + k * 42, 2)],
                  -math.degrees(math.atan(0.22)))
        d.polygon(pts(*win), fill=(70, 100, 120))
    px, py = rot(tx, slope(tx) - 40, [(0, -46)], -math.degrees(math.atan(0.22)))[0]
    d.line(pts((px, py), (px + 30, py - 60)), fill=(40, 40, 44), width=s(2))
    d.line(pts((0, h * 0.1), (w, h * 0.1 - w * 0.22)), fill=(40, 40, 44), width=s(1))
    return img


# id: (drawing, aspect ratio) — the order of photos.json
PHOTOS = {
    "kZDiZ6nxdLX": (fjord_morning, "3:2"),
    "2yxJla2LitO": (pine_fog, "2:3"),
    "uUMykpyNM1-": (aurora_snow, "3:2"),
    "wlK6oPbDzTI": (lake_reflection, "4:5"),
    "asJT2zkIeMN": (dunes_noon, "2:1"),
    "971du5YeajC": (meadow_tree, "4:3"),
    "1lLbLOI2wYb": (monstera, "1:1"),
    "JhPbiLWp6Gx": (waves_cliff, "2:3"),
    "yzGSbOvgGUv": (facade_grid, "3:4"),
    "j21r16dpqlk": (spiral_stair, "1:1"),
    "wSH4i0UJ2_f": (arches, "3:2"),
    "6YqHdbayxAK": (skyline_dusk, "2:1"),
    "kTi-0iOhtC-": (tower_up, "9:16"),
    "_pdxx-0KlIt": (hanok_roof, "4:3"),
    "X-huQQb8q8P": (colourful_houses, "4:5"),
    "yPSz6RzoLCG": (bridge_night, "3:2"),
    "0K1RMWaMWaR": (coffee_top, "1:1"),
    "_B0JJt5kmYp": (lemons_cloth, "4:5"),
    "7LYKEJ6fSyu": (teapot, "3:4"),
    "rZOYtFtSsQc": (fruit_bowl, "3:2"),
    "f68d7zXF4ui": (plant_shelf, "2:3"),
    "Opp1kwRIXp0": (bread_board, "4:3"),
    "rl_H1XrotGd": (vase_flowers, "2:3"),
    "FZzbGNuELsl": (terrazzo, "1:1"),
    "KvCqPqE0SFO": (raked_sand, "3:2"),
    "X30l1WM0wCV": (paper_folds, "4:5"),
    "021XwUIoBz_": (bokeh, "2:3"),
    "YTnxEE3DNs3": (tiles, "3:4"),
    "rgrfol_f7xV": (road_trip, "2:3"),
    "FOR2_TeeVlA": (tram_street, "3:2"),
}


# --- avatars --------------------------------------------------------------------------------

AVATAR = 128

# username: (background, shape colours) — abstract marks, no faces
USERS = {
    "minseo_park": ((40, 60, 110), ((250, 200, 80), (240, 110, 90))),
    "lea_fontaine": ((236, 200, 170), ((200, 80, 70), (90, 130, 110))),
    "arne_holm": ((60, 120, 110), ((230, 240, 236), (150, 200, 180))),
    "noa_tanaka": ((30, 30, 34), ((240, 90, 120), (90, 200, 230))),
    "sam_okoro": ((250, 190, 60), ((40, 90, 160), (250, 246, 236))),
}


def avatar(username, index):
    bg, (a, b) = USERS[username]
    rng = random.Random(5000 + index)
    n = AVATAR * 4                                                   # drawn at 4x: small marks need it
    img = Image.new("RGB", (n, n), bg)
    d = ImageDraw.Draw(img)
    kind = index % 5
    c = n / 2
    if kind == 0:                                                    # sun over stripes
        d.ellipse((c - n * 0.22, c - n * 0.32, c + n * 0.22, c + n * 0.12), fill=a)
        for k in range(4):
            y = c + n * 0.08 + k * n * 0.08
            d.rectangle((0, y, n, y + n * 0.04), fill=b)
    elif kind == 1:                                                  # overlapping circles
        d.ellipse((n * 0.12, n * 0.22, n * 0.64, n * 0.74), fill=a)
        d.ellipse((n * 0.38, n * 0.3, n * 0.86, n * 0.78), fill=b)
    elif kind == 2:                                                  # mountains
        d.polygon([(0, n * 0.8), (n * 0.35, n * 0.28), (n * 0.62, n * 0.62), (n * 0.78, n * 0.42), (n, n * 0.75), (n, n), (0, n)],
                  fill=b)
        d.polygon([(n * 0.27, n * 0.4), (n * 0.35, n * 0.28), (n * 0.43, n * 0.4)], fill=a)
    elif kind == 3:                                                  # a grid of dots
        for i in range(5):
            for j in range(5):
                r = n * (0.03 + 0.05 * rng.random())
                x, y = n * (0.14 + i * 0.18), n * (0.14 + j * 0.18)
                d.ellipse((x - r, y - r, x + r, y + r), fill=a if (i + j) % 2 else b)
    else:                                                            # quarter-circle tiles
        for i in range(2):
            for j in range(2):
                x, y = i * c, j * c
                corner = rng.choice(((x, y), (x + c, y), (x, y + c), (x + c, y + c)))
                d.ellipse((corner[0] - c, corner[1] - c, corner[0] + c, corner[1] + c), fill=a if (i + j) % 2 else b)
    img = img.resize((AVATAR, AVATAR), Image.LANCZOS)
    # Few colours keep the PNG small; the round crop is the page's job (CSS), not the file's.
    return img.quantize(colors=48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def average_colour(img):
    r, g, b = img.convert("RGB").resize((1, 1), Image.BOX).getpixel((0, 0))
    return f"#{r:02x}{g:02x}{b:02x}"


def main():
    (ROOT / "images").mkdir(parents=True, exist_ok=True)
    (ROOT / "users").mkdir(parents=True, exist_ok=True)
    colours = "--colors" in sys.argv[1:]
    total = 0
    for index, (photo_id, (draw, ratio)) in enumerate(PHOTOS.items()):
        rw, rh = RATIOS[ratio]
        w, h = REGULAR, REGULAR * rh // rw
        big = draw(w, h, random.Random(4000 + index))
        path = ROOT / "images" / f"{photo_id}.jpg"
        orientation = (6, 8, 3)[index // 4 % 3] if index % 4 == 3 else 1
        stored = big.transpose(STORED[orientation]) if orientation in STORED else big
        exif = Image.Exif()
        exif[0x0112] = orientation
        stored.save(path, "JPEG", quality=80, progressive=False, optimize=True, exif=exif.tobytes())
        size = path.stat().st_size
        total += size
        extra = f"  {average_colour(big)}" if colours else ""
        print(f"{photo_id}  {ratio:4}  {big.width}×{big.height}  orientation {orientation}  {size} bytes  ({draw.__name__}){extra}")
    for index, username in enumerate(USERS):
        path = ROOT / "users" / f"{username}.png"
        avatar(username, index).save(path, "PNG", optimize=True)
        total += path.stat().st_size
        print(f"{path.name}  {path.stat().st_size} bytes")
    print(f"{len(PHOTOS)} photos, {len(USERS)} avatars, {total} bytes")


if __name__ == "__main__":
    main()
