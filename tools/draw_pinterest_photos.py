#!/usr/bin/env python3
"""Draws the example site's 34 photo-stream pictures into content/pinterest/photos/<NN>.jpg.

A development tool only: the site build never runs it and never needs Pillow. The JPEGs it
writes are what the example site's Pinterest-style masonry page uses (content/pinterest/Photos.plist
names them and describes each one); rerun it (from anywhere) after changing a drawing:

    pip install pillow
    python3 tools/draw_pinterest_photos.py

The pictures are original, deliberately simple scenes (skies, mountains, sea, food, flowers,
skylines, patterns) in varied palettes and, on purpose, varied aspect ratios — portrait,
landscape, square and a few extreme ones — so the masonry columns come out uneven, like a real
photo stream. They contain no text and no copied artwork. Output is deterministic: every random
choice comes from a fixed seed per picture.
"""

import math
import random
from functools import partial
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

import drawkit
from drawkit import (s, box, circle, pts, mix, darker, lighter, jitter, ridge, fill_below, rot, veil, gradient,
                     band, waves, save_jpeg)

OUT = Path(__file__).resolve().parent.parent / "content" / "pinterest" / "photos"

# This tool's leaves are a little coarser and its stars a little larger and bluer than the
# drawkit defaults; the committed pictures were drawn with them.
leaf = partial(drawkit.leaf, n=10)
stars = partial(drawkit.stars, sizes=(0.6, 0.7, 0.8, 1.0, 1.3), dusk=(90, 100, 150))


# --- helpers of this tool (the shared ones are in drawkit.py) -------------------------------


def canvas(w, h, stops):
    return gradient(w, h, stops)


def rot_rect(cx, cy, w, h, angle):
    return rot(cx, cy, [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)], angle)


def cloud(d, x, y, size, fill):
    for dx, dy, r in ((-0.9, 0.15, 0.45), (-0.35, -0.2, 0.6), (0.3, -0.1, 0.55), (0.85, 0.15, 0.42)):
        d.ellipse(circle(x + dx * size, y + dy * size, r * size), fill=fill)
    d.rounded_rectangle(box(x - 1.3 * size, y, x + 1.25 * size, y + 0.55 * size), radius=s(0.27 * size), fill=fill)


def birds(d, x, y, n, rng, colour, size=6):
    for _ in range(n):
        bx, by, k = x + rng.uniform(-40, 40), y + rng.uniform(-20, 20), size * rng.uniform(0.7, 1.2)
        d.line(pts((bx - k, by - k * 0.4), (bx - k * 0.3, by - k * 0.1), (bx, by + k * 0.15)),
               fill=colour, width=s(1.4), joint="curve")
        d.line(pts((bx, by + k * 0.15), (bx + k * 0.3, by - k * 0.1), (bx + k, by - k * 0.4)),
               fill=colour, width=s(1.4), joint="curve")


def reflect(img, w, h, horizon, darken=0.3, tint=None):
    """Mirrors everything above the horizon into the water below it, a little darker."""
    top = max(0, s(2 * horizon - h))
    part = img.crop((0, top, s(w), s(horizon))).transpose(Image.FLIP_TOP_BOTTOM)
    part = part.filter(ImageFilter.GaussianBlur(s(1.2)))
    over = Image.new("RGB", part.size, tint or (10, 20, 40))
    img.paste(Image.blend(part, over, darken), (0, s(horizon)))


# --- the scenes ---------------------------------------------------------------------------
# Each takes the picture's size and a seeded random source and returns the drawing-size image.

def sunset_sea(w, h, rng):
    horizon = h * 0.6
    img = canvas(w, h, [(0, (44, 36, 92)), (0.25, (122, 62, 120)), (0.45, (232, 110, 96)),
                        (0.6, (252, 196, 120))])
    sx, sy, sr = w * 0.5, horizon - h * 0.02, w * 0.14
    veil(img, (255, 226, 160), lambda d: d.ellipse(circle(sx, sy, sr * 3)), alpha=0.55, blur=40)
    ImageDraw.Draw(img).ellipse(circle(sx, sy, sr), fill=(255, 238, 186))
    veil(img, (214, 96, 120), lambda d: [
        d.ellipse(box(x, y, x + rng.uniform(90, 200), y + rng.uniform(6, 12)))
        for x, y in [(rng.uniform(-60, w - 60), rng.uniform(h * 0.12, h * 0.45)) for _ in range(7)]
    ], alpha=0.75, blur=3)
    band(img, w, horizon, h, [(0, (196, 108, 110)), (0.3, (110, 62, 104)), (1, (38, 30, 70))])
    d = ImageDraw.Draw(img)
    for i in range(46):
        y = horizon + 3 + (h - horizon) * (i / 46) ** 1.3
        half = sr * (0.9 + 1.6 * (y - horizon) / (h - horizon)) * rng.uniform(0.3, 1.1)
        off = rng.uniform(-8, 8)
        d.line(pts((sx - half + off, y), (sx + half + off, y)),
               fill=mix((255, 222, 160), (200, 110, 120), (y - horizon) / (h - horizon)), width=s(1.6))
    birds(d, w * 0.3, h * 0.3, 4, rng, (50, 30, 60))
    return img


def mountains_dawn(w, h, rng):
    img = canvas(w, h, [(0, (92, 120, 178)), (0.45, (236, 178, 160)), (0.7, (252, 220, 170))])
    veil(img, (255, 240, 200), lambda d: d.ellipse(circle(w * 0.72, h * 0.5, 90)), alpha=0.6, blur=30)
    ImageDraw.Draw(img).ellipse(circle(w * 0.72, h * 0.5, 20), fill=(255, 246, 220))
    layers = [(0.48, (168, 150, 178)), (0.58, (126, 112, 150)), (0.68, (88, 80, 120)),
              (0.8, (58, 54, 88)), (0.92, (34, 32, 56))]
    for k, (base, colour) in enumerate(layers):
        line = ridge(w, h * base + rng.uniform(-20, 20), h * base + rng.uniform(-20, 20),
                     h * (0.22 - k * 0.03), rng)
        fill_below(ImageDraw.Draw(img), line, h, colour)
        if k < 4:
            veil(img, (250, 226, 210), lambda d, b=base: d.rectangle(box(0, h * b + 18, w, h * b + 50)),
                 alpha=0.35, blur=14)
    birds(ImageDraw.Draw(img), w * 0.35, h * 0.25, 3, rng, (60, 50, 80), size=5)
    return img


def triangles(w, h, rng):
    palette = [(24, 120, 128), (238, 108, 82), (246, 190, 72), (244, 234, 214), (30, 48, 86), (140, 190, 178)]
    img = Image.new("RGB", (s(w), s(h)), palette[3])
    d = ImageDraw.Draw(img)
    n = 6
    c = w / n
    for i in range(n):
        for j in range(n):
            x, y = i * c, j * c
            a, b = rng.sample(palette, 2)
            if rng.random() < 0.5:
                d.polygon(pts((x, y), (x + c, y), (x, y + c)), fill=a)
                d.polygon(pts((x + c, y), (x + c, y + c), (x, y + c)), fill=b)
            else:
                d.polygon(pts((x, y), (x + c, y), (x + c, y + c)), fill=a)
                d.polygon(pts((x, y), (x + c, y + c), (x, y + c)), fill=b)
            if rng.random() < 0.15:
                d.ellipse(circle(x + c / 2, y + c / 2, c * 0.22), fill=rng.choice(palette))
    return img


def balloon(img, cx, cy, r, colours):
    """A hot-air balloon: gored envelope, ropes and a basket; (cx, cy) is the envelope's centre."""
    mask = Image.new("L", img.size, 0)
    md = ImageDraw.Draw(mask)
    md.ellipse(box(cx - r, cy - r, cx + r, cy + r * 0.9), fill=255)
    md.polygon(pts((cx - r * 0.93, cy + r * 0.2), (cx + r * 0.93, cy + r * 0.2),
                   (cx + r * 0.32, cy + r * 1.3), (cx - r * 0.32, cy + r * 1.3)), fill=255)
    gores = Image.new("RGB", img.size, colours[0])
    gd = ImageDraw.Draw(gores)
    n = 7
    for k in range(n):
        rw = r * (1 - k / n)
        gd.ellipse(box(cx - rw, cy - r * 1.05, cx + rw, cy + r * 1.6), fill=colours[k % len(colours)])
    shade = Image.new("L", img.size, 0)
    ImageDraw.Draw(shade).ellipse(box(cx + r * 0.1, cy - r, cx + r * 1.6, cy + r * 1.4), fill=80)
    gores.paste((20, 20, 40), (0, 0) + gores.size, shade.filter(ImageFilter.GaussianBlur(s(r * 0.3))))
    img.paste(gores, (0, 0), mask)
    d = ImageDraw.Draw(img)
    by = cy + r * 1.62
    for x0, x1 in ((cx - r * 0.3, cx - r * 0.14), (cx + r * 0.3, cx + r * 0.14)):
        d.line(pts((x0, cy + r * 1.3), (x1, by)), fill=(90, 70, 60), width=max(1, s(r * 0.02)))
    d.rounded_rectangle(box(cx - r * 0.16, by, cx + r * 0.16, by + r * 0.24), radius=s(r * 0.04),
                        fill=(132, 88, 52))


def balloons_tall(w, h, rng):
    img = canvas(w, h, [(0, (64, 128, 204)), (0.55, (150, 196, 232)), (0.85, (252, 222, 190))])
    veil(img, (255, 255, 255), lambda d: [cloud(d, rng.uniform(0, w), rng.uniform(h * 0.1, h * 0.8),
                                                rng.uniform(22, 40), 255) for _ in range(5)],
         alpha=0.7, blur=3)
    d = ImageDraw.Draw(img)
    fill_below(d, waves(w, h * 0.9, [(10, 1), (4, 3)], rng), h, (108, 150, 96))
    fill_below(d, waves(w, h * 0.95, [(8, 1.5), (3, 4)], rng), h, (76, 118, 72))
    for cx, cy, r, cols in ((w * 0.7, h * 0.12, 22, [(240, 200, 60), (224, 84, 60)]),
                            (w * 0.25, h * 0.3, 32, [(70, 160, 200), (250, 250, 240)]),
                            (w * 0.66, h * 0.5, 46, [(214, 60, 80), (250, 180, 60), (250, 240, 220)]),
                            (w * 0.3, h * 0.7, 28, [(130, 80, 170), (90, 190, 160)])):
        balloon(img, cx, cy, r, cols)
    return img


def donuts(w, h, rng):
    bg = (250, 214, 222)
    img = Image.new("RGB", (s(w), s(h)), bg)
    d = ImageDraw.Draw(img)
    for i in range(0, int(w) + 40, 40):
        for j in range(0, int(h) + 40, 40):
            d.ellipse(circle(i + (j // 40 % 2) * 20, j, 3), fill=(255, 232, 238))
    icings = [(250, 130, 170), (110, 62, 40), (252, 246, 236), (150, 220, 200), (250, 130, 170), (200, 160, 230)]
    sprinkle = [(250, 240, 120), (90, 180, 240), (250, 250, 250), (240, 90, 90), (120, 210, 120)]
    spots = [(0.25, 0.24), (0.72, 0.22), (0.5, 0.5), (0.2, 0.76), (0.76, 0.74)]
    for k, (fx, fy) in enumerate(spots):
        cx, cy, R = w * fx + rng.uniform(-10, 10), h * fy + rng.uniform(-10, 10), w * 0.17
        veil(img, (170, 110, 120), lambda m: m.ellipse(circle(cx + 6, cy + 8, R)), alpha=0.45, blur=6)
        d.ellipse(circle(cx, cy, R), fill=(214, 156, 92))
        phase = rng.uniform(0, 6.28)
        icing = [(cx + R * (0.86 + 0.06 * math.sin(7 * t + phase)) * math.cos(t),
                  cy + R * (0.86 + 0.06 * math.sin(7 * t + phase)) * math.sin(t))
                 for t in [i * 2 * math.pi / 90 for i in range(90)]]
        colour = icings[k]
        d.polygon(pts(*icing), fill=colour)
        d.ellipse(circle(cx - R * 0.3, cy - R * 0.4, R * 0.14), fill=lighter(colour, 0.3))
        d.ellipse(circle(cx, cy, R * 0.36), fill=(196, 138, 80))
        d.ellipse(circle(cx, cy, R * 0.28), fill=bg)
        if colour != (252, 246, 236):
            for _ in range(26):
                a, rr = rng.uniform(0, 2 * math.pi), rng.uniform(R * 0.45, R * 0.8)
                x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
                b = rng.uniform(0, math.pi)
                d.line(pts((x - 4 * math.cos(b), y - 4 * math.sin(b)), (x + 4 * math.cos(b), y + 4 * math.sin(b))),
                       fill=rng.choice(sprinkle), width=s(2.2))
        else:
            for _ in range(5):
                y = cy + rng.uniform(-R * 0.7, R * 0.7)
                d.line(pts((cx - R * 0.75, y), (cx + R * 0.75, y + rng.uniform(-10, 10))),
                       fill=(110, 62, 40), width=s(2))
            d.ellipse(circle(cx, cy, R * 0.36), fill=(196, 138, 80))
            d.ellipse(circle(cx, cy, R * 0.28), fill=bg)
    return img


def building_row(img, w, h, base, width_range, height_range, colour, rng, windows=None, p=0.35):
    d = ImageDraw.Draw(img)
    x = -rng.uniform(0, 20)
    while x < w:
        bw = rng.uniform(*width_range)
        bh = rng.uniform(*height_range)
        top = base - bh
        d.rectangle(box(x, top, x + bw, h), fill=colour)
        if rng.random() < 0.25:
            d.line(pts((x + bw / 2, top), (x + bw / 2, top - rng.uniform(10, 28))), fill=colour, width=s(2))
        elif rng.random() < 0.2:
            d.polygon(pts((x, top), (x + bw / 2, top - bw * 0.5), (x + bw, top)), fill=colour)
        if windows:
            for wy in range(int(top + 8), int(base - 4), 9):
                for wx in range(int(x + 5), int(x + bw - 6), 8):
                    if rng.random() < p:
                        d.rectangle(box(wx, wy, wx + 3.5, wy + 4.5), fill=jitter(windows, rng, 20))
        x += bw + rng.uniform(0, 6)


def city_night(w, h, rng):
    water = h * 0.8
    img = canvas(w, h, [(0, (14, 18, 48)), (0.6, (52, 40, 96)), (0.8, (150, 84, 120))])
    stars(ImageDraw.Draw(img), w, h * 0.45, 90, rng)
    veil(img, (230, 230, 255), lambda d: d.ellipse(circle(w * 0.82, h * 0.2, 50)), alpha=0.35, blur=20)
    ImageDraw.Draw(img).ellipse(circle(w * 0.82, h * 0.2, 16), fill=(246, 242, 226))
    building_row(img, w, water, water, (30, 60), (80, 200), (58, 52, 102), rng)
    building_row(img, w, water, water, (24, 54), (40, 130), (26, 26, 56), rng, windows=(250, 214, 120))
    band(img, w, water, h, [(0, (40, 34, 80)), (1, (12, 14, 36))])
    d = ImageDraw.Draw(img)
    for _ in range(90):
        x, y = rng.uniform(0, w), rng.uniform(water + 3, h)
        l = rng.uniform(4, 16)
        d.line(pts((x, y), (x + l, y)), fill=mix((250, 214, 120), (40, 34, 80), rng.uniform(0.2, 0.7)), width=s(1.2))
    return img


def tulip(d, x, y, size, colour, angle=0):
    body = rot(x, y, [(-size * 0.5, -size * 0.35), (-size * 0.55, size * 0.1), (-size * 0.3, size * 0.5),
                      (size * 0.3, size * 0.5), (size * 0.55, size * 0.1), (size * 0.5, -size * 0.35),
                      (size * 0.25, -size * 0.05), (0, -size * 0.5), (-size * 0.25, -size * 0.05)], angle)
    d.polygon(pts(*body), fill=colour)
    d.polygon(pts(*rot(x, y, [(-size * 0.12, -size * 0.2), (0, -size * 0.5), (size * 0.12, -size * 0.2),
                              (0, size * 0.45)], angle)), fill=darker(colour, 0.12))


def tulips_vase(w, h, rng):
    table = h * 0.8
    img = canvas(w, h, [(0, (206, 220, 200)), (0.8, (236, 236, 216))])
    veil(img, (255, 255, 240), lambda d: d.polygon(pts((w * 0.5, 0), (w, 0), (w, h * 0.5), (w * 0.2, h * 0.7))),
         alpha=0.35, blur=30)
    band(img, w, table, h, [(0, (198, 150, 110)), (1, (150, 104, 72))])
    d = ImageDraw.Draw(img)
    vx, vtop = w * 0.5, h * 0.56
    heads = []
    colours = [(226, 52, 70), (250, 150, 180), (248, 204, 60), (244, 120, 50), (160, 90, 190),
               (226, 52, 70), (250, 150, 180), (248, 204, 60)]
    for k, colour in enumerate(colours):
        a = -160 + k * (140 / (len(colours) - 1)) + rng.uniform(-6, 6)
        dist = rng.uniform(h * 0.3, h * 0.42)
        tx = vx + dist * math.cos(math.radians(a)) * 0.62
        ty = vtop + dist * math.sin(math.radians(a))
        heads.append((tx, ty, colour, a + 90))
        mx = (vx + tx) / 2 + rng.uniform(-14, 14)
        curve = [((1 - t) ** 2 * vx + 2 * (1 - t) * t * mx + t * t * tx,
                  (1 - t) ** 2 * (vtop + 20) + 2 * (1 - t) * t * (vtop - 40) + t * t * ty) for t in
                 [i / 20 for i in range(21)]]
        d.line(pts(*curve), fill=(86, 140, 70), width=s(3.5), joint="curve")
        if k % 2 == 0:
            lx, ly = curve[9]
            d.polygon(pts(*leaf(lx, ly, h * 0.16, 16, a + rng.uniform(-20, 20))), fill=(104, 160, 84))
    for tx, ty, colour, a in heads:
        tulip(d, tx, ty, w * 0.1, colour, a * 0.35)
    veil(img, (120, 100, 90), lambda m: m.ellipse(box(vx - w * 0.2, table - 8, vx + w * 0.24, table + 16)),
         alpha=0.4, blur=6)
    d.polygon(pts((vx - w * 0.1, vtop), (vx + w * 0.1, vtop), (vx + w * 0.12, vtop + 14),
                  (vx + w * 0.19, table - 60), (vx + w * 0.14, table), (vx - w * 0.14, table),
                  (vx - w * 0.19, table - 60), (vx - w * 0.12, vtop + 14)), fill=(64, 106, 160))
    d.rectangle(box(vx - w * 0.115, vtop, vx + w * 0.115, vtop + 8), fill=(84, 126, 178))
    for y in (table - 70, table - 48):
        d.line(pts((vx - w * 0.17, y), (vx + w * 0.17, y)), fill=(236, 230, 210), width=s(3))
    veil(img, (255, 255, 255), lambda m: m.rounded_rectangle(box(vx - w * 0.13, vtop + 20, vx - w * 0.09, table - 14),
                                                              radius=s(6)), alpha=0.25, blur=3)
    return img


def dunes(w, h, rng):
    img = canvas(w, h, [(0, (110, 160, 214)), (0.55, (244, 214, 184)), (0.7, (252, 226, 190))])
    veil(img, (255, 240, 200), lambda d: d.ellipse(circle(w * 0.2, h * 0.4, 70)), alpha=0.6, blur=24)
    ImageDraw.Draw(img).ellipse(circle(w * 0.2, h * 0.4, 16), fill=(255, 248, 226))
    layers = [(0.58, (234, 176, 120), (210, 140, 96)), (0.68, (226, 150, 90), (190, 112, 70)),
              (0.8, (214, 128, 72), (168, 88, 52)), (0.92, (196, 106, 58), (140, 70, 42))]
    for base, top, bottom in layers:
        line = waves(w, h * base, [(h * 0.06, 1.2), (h * 0.035, 2.6), (h * 0.015, 5)], rng)
        veil(img, gradient(w, h, [(0, top), (base, top), (1, bottom)]),
             lambda d, l=line: fill_below(d, l, h, 255))
        ImageDraw.Draw(img).line(pts(*line), fill=lighter(top, 0.25), width=s(1.2))
    birds(ImageDraw.Draw(img), w * 0.62, h * 0.28, 3, rng, (110, 80, 80), size=5)
    return img


def latte(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)))
    d = ImageDraw.Draw(img)
    plank = h / 5
    for k in range(6):
        c = jitter((150, 102, 66), rng, 14)
        d.rectangle(box(0, k * plank, w, (k + 1) * plank), fill=c)
        for _ in range(5):
            y = k * plank + rng.uniform(6, plank - 6)
            line = waves(w, y, [(2, 1.5), (1, 4)], rng, step=8)
            d.line(pts(*line), fill=darker(c, 0.12), width=s(1))
        d.line(pts((0, (k + 1) * plank), (w, (k + 1) * plank)), fill=darker(c, 0.35), width=s(2))
    cx, cy = w * 0.46, h * 0.5
    veil(img, (40, 24, 14), lambda m: m.ellipse(circle(cx + 10, cy + 12, w * 0.36)), alpha=0.4, blur=10)
    d.ellipse(circle(cx, cy, w * 0.36), fill=(244, 242, 236))
    d.ellipse(circle(cx, cy, w * 0.3), fill=(230, 228, 220))
    d.rounded_rectangle(box(cx + w * 0.2, cy - 12, cx + w * 0.33, cy + 12), radius=s(10), fill=(250, 248, 244))
    d.ellipse(circle(cx, cy, w * 0.24), fill=(252, 250, 246))
    for i in range(12):
        t = i / 11
        d.ellipse(circle(cx, cy, w * (0.205 - 0.02 * t)), fill=mix((196, 140, 90), (150, 96, 58), t))
    hx, hy, r = cx, cy + 4, w * 0.07
    d.ellipse(circle(hx - r * 0.55, hy - r * 0.4, r * 0.62), fill=(246, 232, 210))
    d.ellipse(circle(hx + r * 0.55, hy - r * 0.4, r * 0.62), fill=(246, 232, 210))
    d.polygon(pts((hx - r * 1.12, hy - r * 0.2), (hx + r * 1.12, hy - r * 0.2), (hx, hy + r * 1.2)),
              fill=(246, 232, 210))
    d.line(pts((cx - w * 0.28, cy + w * 0.2), (cx - w * 0.14, cy + w * 0.1)), fill=(190, 192, 198), width=s(5))
    d.ellipse(box(cx - w * 0.16, cy + w * 0.06, cx - w * 0.1, cy + w * 0.12), fill=(200, 202, 208))
    kx, ky, kr = w * 0.86, h * 0.14, w * 0.09
    d.ellipse(circle(kx, ky, kr), fill=(214, 170, 108))
    for _ in range(7):
        a, rr = rng.uniform(0, 6.28), rng.uniform(0, kr * 0.75)
        d.ellipse(circle(kx + rr * math.cos(a), ky + rr * math.sin(a), 4), fill=(90, 56, 36))
    return img


def pine(d, x, base, height, colour, snow=None):
    d.rectangle(box(x - height * 0.04, base - height * 0.15, x + height * 0.04, base), fill=(80, 60, 50))
    tiers = 4
    for k in range(tiers):
        top = base - height + k * height * 0.18
        bottom = top + height * 0.4
        half = height * (0.16 + 0.07 * k)
        d.polygon(pts((x, top), (x + half, bottom), (x - half, bottom)), fill=colour)
        if snow:
            d.polygon(pts((x, top), (x + half * 0.45, top + height * 0.14), (x + half * 0.1, top + height * 0.11),
                          (x - half * 0.2, top + height * 0.15), (x - half * 0.45, top + height * 0.14)), fill=snow)


def pine_snow(w, h, rng):
    img = canvas(w, h, [(0, (120, 150, 190)), (0.5, (214, 196, 212)), (0.6, (240, 214, 206))])
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, h * 0.5, h * 0.46, h * 0.08, rng), h, (176, 184, 210))
    fill_below(d, waves(w, h * 0.6, [(10, 1), (6, 2.5)], rng), h, (226, 232, 242))
    rows = [(0.62, 40, (118, 150, 158)), (0.7, 70, (76, 118, 120)), (0.8, 110, (44, 88, 84)), (0.97, 190, (24, 60, 56))]
    for base, size, colour in rows:
        if base > 0.75:
            fill_below(d, waves(w, h * base - 10, [(8, 1), (4, 3)], rng), h, (242, 246, 252))
        x = rng.uniform(-20, 20)
        while x < w + 30:
            pine(d, x, h * base + rng.uniform(-6, 6), size * rng.uniform(0.8, 1.15), colour, snow=(244, 248, 252))
            x += size * rng.uniform(0.6, 1.05)
    veil(img, (255, 255, 255), lambda m: [m.ellipse(circle(rng.uniform(0, w), rng.uniform(0, h),
                                                          rng.uniform(1.2, 2.4))) for _ in range(90)], alpha=0.85)
    return img


def lighthouse(w, h, rng):
    sea = h * 0.7
    img = canvas(w, h, [(0, (26, 40, 90)), (0.4, (64, 110, 150)), (0.7, (244, 190, 150))])
    stars(ImageDraw.Draw(img), w, h * 0.3, 40, rng)
    band(img, w, sea, h, [(0, (70, 110, 140)), (1, (20, 44, 70))])
    lx, ltop, lbase = w * 0.32, h * 0.26, h * 0.6
    veil(img, (255, 240, 180), lambda m: m.polygon(pts((lx, ltop + 12), (w + 40, ltop - 60), (w + 40, ltop + 90))),
         alpha=0.3, blur=5)
    d = ImageDraw.Draw(img)
    d.polygon(pts((-10, lbase), (w * 0.55, lbase), (w * 0.62, h * 0.7), (w * 0.7, h * 0.8), (w * 0.66, h),
                  (-10, h)), fill=(70, 66, 70))
    d.polygon(pts((-10, lbase - 4), (w * 0.56, lbase - 2), (w * 0.58, lbase + 6), (-10, lbase + 8)), fill=(84, 130, 70))
    for k in range(5):
        y = h * 0.66 + k * 24
        d.line(pts((0, y), (w * 0.5, y + 10)), fill=(58, 54, 60), width=s(2))
    tower = Image.new("RGB", img.size, (246, 244, 236))
    td = ImageDraw.Draw(tower)
    for k in range(6):
        if k % 2 == 0:
            y0 = ltop + 30 + k * (lbase - ltop - 30) / 6
            td.rectangle(box(0, y0, w, y0 + (lbase - ltop - 30) / 6), fill=(206, 52, 52))
    veil(img, tower, lambda m: m.polygon(pts((lx - 14, ltop + 30), (lx + 14, ltop + 30), (lx + 24, lbase),
                                             (lx - 24, lbase))))
    d.rectangle(box(lx - 20, ltop + 24, lx + 20, ltop + 30), fill=(40, 40, 44))
    d.rectangle(box(lx - 12, ltop + 6, lx + 12, ltop + 24), fill=(255, 236, 150))
    d.line(pts((lx, ltop + 6), (lx, ltop + 24)), fill=(40, 40, 44), width=s(1.5))
    d.chord(box(lx - 14, ltop - 8, lx + 14, ltop + 14), 180, 360, fill=(206, 52, 52))
    d.rectangle(box(lx - 14, ltop + 3, lx + 14, ltop + 6), fill=(40, 40, 44))
    for k in range(14):
        y = sea + 6 + k * 7
        x = w * 0.62 + k * 6 + rng.uniform(-6, 6)
        d.line(pts((x, y), (x + rng.uniform(20, 50), y)), fill=(200, 220, 230), width=s(1.3))
    for _ in range(30):
        x, y = rng.uniform(w * 0.6, w), rng.uniform(sea + 4, h)
        d.line(pts((x, y), (x + rng.uniform(6, 18), y)), fill=(110, 150, 170), width=s(1))
    return img


def sailboat(w, h, rng):
    horizon = h * 0.55
    img = canvas(w, h, [(0, (90, 160, 222)), (0.55, (200, 228, 244))])
    veil(img, (255, 255, 255), lambda m: [cloud(m, x, y, sz, 255) for x, y, sz in
                                          ((w * 0.18, h * 0.2, 34), (w * 0.55, h * 0.12, 26), (w * 0.85, h * 0.3, 40))],
         alpha=0.9, blur=2)
    d = ImageDraw.Draw(img)
    d.polygon(pts((w * 0.62, horizon), (w * 0.7, horizon - 22), (w * 0.78, horizon - 30), (w * 0.9, horizon - 12),
                  (w * 0.98, horizon)), fill=(110, 150, 150))
    band(img, w, horizon, h, [(0, (70, 160, 180)), (1, (20, 90, 130))])
    d = ImageDraw.Draw(img)
    for _ in range(140):
        x, y = rng.uniform(0, w), rng.uniform(horizon + 3, h)
        l = rng.uniform(4, 10) * (1 + (y - horizon) / (h - horizon))
        d.line(pts((x, y), (x + l, y)), fill=rng.choice([(140, 210, 220), (40, 120, 150)]), width=s(1.2))
    bx, by = w * 0.4, h * 0.72
    veil(img, (250, 250, 240), lambda m: m.polygon(pts((bx - 2, by + 10), (bx + 2, by + 10), (bx + 40, by + 90),
                                                       (bx - 30, by + 90))), alpha=0.22, blur=6)
    d.polygon(pts((bx - 70, by), (bx + 80, by), (bx + 60, by + 20), (bx - 56, by + 20)), fill=(30, 52, 92))
    d.line(pts((bx - 66, by + 4), (bx + 76, by + 4)), fill=(220, 70, 60), width=s(2))
    d.line(pts((bx, by), (bx, by - 170)), fill=(70, 60, 56), width=s(3))
    d.polygon(pts((bx + 4, by - 166), (bx + 4, by - 8), (bx + 90, by - 8)), fill=(250, 248, 240))
    d.polygon(pts((bx - 4, by - 150), (bx - 4, by - 8), (bx - 70, by - 8)), fill=(236, 230, 214))
    d.polygon(pts((bx, by - 170), (bx + 18, by - 164), (bx, by - 158)), fill=(220, 70, 60))
    return img


def sunflower(w, h, rng):
    img = canvas(w, h, [(0, (66, 140, 214)), (1, (170, 214, 240))])
    veil(img, (255, 255, 255), lambda m: cloud(m, w * 0.75, h * 0.12, 30, 255), alpha=0.8, blur=2)
    d = ImageDraw.Draw(img)
    cx, cy, R = w * 0.48, h * 0.38, w * 0.3
    d.line(pts((cx, cy), (cx + 10, h * 0.7), (cx - 4, h + 10)), fill=(70, 130, 60), width=s(9), joint="curve")
    d.polygon(pts(*leaf(cx + 6, h * 0.72, 90, 44, -30)), fill=(80, 150, 66))
    d.polygon(pts(*leaf(cx + 2, h * 0.82, 80, 40, 200)), fill=(66, 134, 56))
    for k in range(22):
        a = k * 360 / 22 + 8
        d.polygon(pts(*leaf(cx, cy, R, R * 0.32, a)), fill=(232, 150, 30))
    for k in range(22):
        a = k * 360 / 22
        d.polygon(pts(*leaf(cx, cy, R * 0.92, R * 0.3, a)), fill=(252, 196, 40))
    d.ellipse(circle(cx, cy, R * 0.42), fill=(92, 56, 30))
    golden = math.pi * (3 - math.sqrt(5))
    for i in range(260):
        r = R * 0.4 * math.sqrt(i / 260)
        a = i * golden
        d.ellipse(circle(cx + r * math.cos(a), cy + r * math.sin(a), 1.6),
                  fill=mix((150, 100, 40), (50, 30, 18), r / (R * 0.4)))
    return img


def aurora(w, h, rng):
    horizon = h * 0.68
    img = canvas(w, h, [(0, (8, 12, 34)), (0.5, (16, 40, 70)), (0.68, (30, 80, 96))])
    stars(ImageDraw.Draw(img), w, horizon, 160, rng)
    for colour, base, amp, length, alpha in (((80, 240, 170), h * 0.18, 40, 120, 0.6),
                                             ((170, 110, 230), h * 0.1, 30, 70, 0.45),
                                             ((110, 250, 200), h * 0.3, 26, 80, 0.5)):
        line = waves(w, base, [(amp, 1), (amp * 0.4, 2.5)], rng, step=2)

        def curtain(m, line=line, length=length):
            for x, y in line:
                L = length * (0.75 + 0.25 * math.sin(x / 37))
                m.line(pts((x, y), (x, y + L * 0.3)), fill=255, width=s(2))
                m.line(pts((x, y + L * 0.3), (x, y + L * 0.65)), fill=150, width=s(2))
                m.line(pts((x, y + L * 0.65), (x, y + L)), fill=60, width=s(2))
        veil(img, colour, curtain, alpha=alpha, blur=4)
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, horizon - 40, horizon - 10, 40, rng), horizon, (12, 20, 30))
    d.rectangle(box(0, horizon - 1, w, horizon + 1), fill=(12, 20, 30))
    reflect(img, w, h, horizon, darken=0.45, tint=(6, 14, 26))
    d = ImageDraw.Draw(img)
    fill_below(d, waves(w, h * 0.93, [(5, 1), (2, 4)], rng), h, (10, 16, 22))
    return img


def bauhaus(w, h, rng):
    cream, red, mustard, navy, teal, ink = ((240, 230, 210), (214, 72, 52), (232, 176, 52), (34, 52, 92),
                                           (60, 140, 140), (34, 30, 30))
    palette = [cream, red, mustard, navy, teal, ink]
    img = Image.new("RGB", (s(w), s(h)), cream)
    d = ImageDraw.Draw(img)
    n = 4
    c = w / n
    for i in range(n):
        for j in range(n):
            x, y = i * c, j * c
            bg, fg, fg2 = rng.sample(palette, 3)
            d.rectangle(box(x, y, x + c, y + c), fill=bg)
            kind = rng.randrange(6)
            if kind == 0:
                d.ellipse(box(x + c * 0.12, y + c * 0.12, x + c * 0.88, y + c * 0.88), fill=fg)
                d.ellipse(box(x + c * 0.34, y + c * 0.34, x + c * 0.66, y + c * 0.66), fill=fg2)
            elif kind == 1:
                cxx, cyy = rng.choice([(x, y), (x + c, y), (x, y + c), (x + c, y + c)])
                d.ellipse(box(cxx - c, cyy - c, cxx + c, cyy + c), fill=fg)
            elif kind == 2:
                d.chord(box(x, y + c * 0.2, x + c, y + c * 1.2), 180, 360, fill=fg)
                d.rectangle(box(x, y + c * 0.7, x + c, y + c), fill=fg2)
            elif kind == 3:
                d.polygon(pts((x, y + c), (x + c / 2, y), (x + c, y + c)), fill=fg)
            elif kind == 4:
                for k in range(4):
                    d.rectangle(box(x, y + k * c / 4, x + c, y + k * c / 4 + c / 8), fill=fg)
            else:
                d.pieslice(box(x - c, y, x + c, y + 2 * c), 270, 360, fill=fg)
                d.ellipse(circle(x + c * 0.7, y + c * 0.7, c * 0.14), fill=fg2)
    return img


def watermelon(w, h, rng):
    img = canvas(w, h, [(0, (250, 236, 196)), (1, (244, 220, 170))])
    d = ImageDraw.Draw(img)
    for k in range(0, int(w), 30):
        d.line(pts((k, 0), (k, h)), fill=(246, 226, 186), width=s(6))
    slices = [(w * 0.28, h * 0.18, 160, 30), (w * 0.66, h * 0.22, 150, 26), (w * 0.44, h * 0.5, 170, 32)]
    for cx, cy, R, spread in slices:
        start = 90 - spread + rng.uniform(-30, 30)
        end = start + 2 * spread
        veil(img, (180, 150, 100), lambda m: m.pieslice(circle(cx + 6, cy + 8, R), start, end), alpha=0.5, blur=6)
        d.pieslice(circle(cx, cy, R), start, end, fill=(52, 112, 52))
        d.pieslice(circle(cx, cy, R * 0.95), start, end, fill=(150, 200, 110))
        d.pieslice(circle(cx, cy, R * 0.91), start, end, fill=(246, 236, 210))
        d.pieslice(circle(cx, cy, R * 0.87), start, end, fill=(232, 66, 80))
        for _ in range(10):
            a = math.radians(rng.uniform(start + 6, end - 6))
            r = rng.uniform(R * 0.35, R * 0.72)
            x, y = cx + r * math.cos(a), cy + r * math.sin(a)
            d.polygon(pts(*leaf(x, y, 9, 5, math.degrees(a))), fill=(40, 26, 24))
    return img


def crescent_moon(w, h, rng):
    img = canvas(w, h, [(0, (16, 20, 58)), (0.55, (62, 48, 110)), (0.85, (190, 110, 140))])
    stars(ImageDraw.Draw(img), w, h * 0.75, 120, rng)
    for _ in range(6):
        x, y = rng.uniform(20, w - 20), rng.uniform(20, h * 0.6)
        veil(img, (255, 250, 220), lambda m: m.ellipse(circle(x, y, 6)), alpha=0.6, blur=3)
        ImageDraw.Draw(img).ellipse(circle(x, y, 1.6), fill=(255, 252, 236))
    mx, my, mr = w * 0.62, h * 0.24, w * 0.16

    def moon(m):
        m.ellipse(circle(mx, my, mr), fill=255)
        m.ellipse(circle(mx + mr * 0.45, my - mr * 0.25, mr * 0.88), fill=0)
    veil(img, (255, 240, 190), moon, alpha=0.6, blur=14)
    veil(img, (252, 236, 180), moon)
    d = ImageDraw.Draw(img)
    fill_below(d, waves(w, h * 0.82, [(14, 1), (5, 3)], rng), h, (40, 34, 70))
    fill_below(d, waves(w, h * 0.9, [(10, 1.2), (4, 3)], rng), h, (24, 20, 46))
    tx, ty = w * 0.28, h * 0.83
    d.line(pts((tx, ty), (tx, ty - 60)), fill=(24, 20, 46), width=s(4))
    d.ellipse(circle(tx, ty - 76, 30), fill=(24, 20, 46))
    hx, hy = w * 0.7, h * 0.855
    d.rectangle(box(hx - 22, hy - 24, hx + 22, hy + 4), fill=(24, 20, 46))
    d.polygon(pts((hx - 28, hy - 22), (hx, hy - 46), (hx + 28, hy - 22)), fill=(24, 20, 46))
    d.rectangle(box(hx - 8, hy - 16, hx + 4, hy - 6), fill=(252, 210, 110))
    return img


def city_sunset(w, h, rng):
    ground = h * 0.78
    img = canvas(w, h, [(0, (58, 36, 100)), (0.35, (170, 70, 120)), (0.6, (246, 140, 80)), (0.78, (252, 214, 130))])
    veil(img, (255, 230, 150), lambda m: m.ellipse(circle(w * 0.5, h * 0.6, 150)), alpha=0.5, blur=40)
    ImageDraw.Draw(img).ellipse(circle(w * 0.5, h * 0.6, w * 0.2), fill=(255, 226, 140))
    building_row(img, w, h, ground, (30, 70), (120, 300), (150, 70, 110), rng)
    building_row(img, w, h, ground, (26, 60), (60, 200), (62, 30, 72), rng, windows=(255, 200, 120), p=0.12)
    band(img, w, ground, h, [(0, (54, 26, 62)), (1, (28, 16, 38))])
    birds(ImageDraw.Draw(img), w * 0.3, h * 0.2, 5, rng, (50, 24, 60), size=7)
    return img


def tree(d, x, base, size, colours, rng, trunk=(96, 66, 48)):
    d.line(pts((x, base), (x, base - size * 0.9)), fill=trunk, width=s(size * 0.08))
    for side in (-1, 1):
        d.line(pts((x, base - size * 0.5), (x + side * size * 0.25, base - size * 0.85)), fill=trunk,
               width=s(size * 0.04))
    for _ in range(16):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0, size * 0.33)
        d.ellipse(circle(x + r * math.cos(a), base - size * 0.95 + r * 0.8 * math.sin(a), size * rng.uniform(0.14, 0.22)),
                  fill=rng.choice(colours))


def autumn(w, h, rng):
    img = canvas(w, h, [(0, (150, 186, 210)), (0.6, (238, 224, 196))])
    d = ImageDraw.Draw(img)
    fill_below(d, waves(w, h * 0.55, [(16, 0.8), (6, 2)], rng), h, (190, 170, 110))
    fill_below(d, waves(w, h * 0.7, [(12, 1), (5, 2.5)], rng), h, (206, 150, 70))
    path = [(w * 0.55, h * 0.6), (w * 0.7, h * 0.75), (w * 0.45, h), (w * 0.25, h), (w * 0.62, h * 0.75), (w * 0.53, h * 0.6)]
    d.polygon(pts(*path), fill=(222, 196, 150))
    palette = [(214, 84, 40), (236, 150, 40), (248, 196, 60), (180, 52, 38), (226, 120, 50)]
    for x, base, size in ((w * 0.12, h * 0.62, 70), (w * 0.88, h * 0.6, 80), (w * 0.72, h * 0.5, 40),
                          (w * 0.4, h * 0.52, 36), (w * 0.22, h * 0.9, 180), (w * 0.9, h * 0.98, 170)):
        tree(d, x, base, size, [jitter(c, rng, 10) for c in palette], rng)
    for _ in range(60):
        x, y = rng.uniform(0, w), rng.uniform(h * 0.72, h)
        d.polygon(pts(*leaf(x, y, 7, 4, rng.uniform(0, 360))), fill=rng.choice(palette))
    return img


def beach(w, h, rng):
    img = canvas(w, h, [(0, (236, 214, 166)), (1, (246, 226, 180))])
    d = ImageDraw.Draw(img)
    edge = waves(w, h * 0.3, [(8, 1.2), (3, 3)], rng)
    d.polygon(pts(*([(0, 0), (w, 0)] + list(reversed(edge)))), fill=(210, 190, 150))
    sea = gradient(w, h, [(0, (16, 96, 140)), (0.3, (60, 190, 196))])
    veil(img, sea, lambda m: m.polygon(pts(*([(0, 0), (w, 0)] + list(reversed([(x, y - 10) for x, y in edge]))))))
    d.line(pts(*[(x, y - 10) for x, y in edge]), fill=(250, 252, 252), width=s(4), joint="curve")
    d.line(pts(*[(x, y - 22) for x, y in edge]), fill=(160, 226, 226), width=s(2), joint="curve")
    for cx, cy, ang, c1, c2 in ((w * 0.3, h * 0.55, 20, (236, 90, 80), (250, 250, 240)),
                                (w * 0.68, h * 0.8, -12, (60, 120, 200), (250, 210, 70))):
        tw, th = 60, 110
        d.polygon(pts(*rot_rect(cx - 40, cy + 40, tw, th, ang)), fill=c2)
        for k in (-1, 1):
            d.polygon(pts(*rot_rect(cx - 40 + k * 18 * math.cos(math.radians(ang)),
                                    cy + 40 + k * 18 * math.sin(math.radians(ang)), 10, th, ang)), fill=c1)
    for cx, cy, r, cols in ((w * 0.6, h * 0.5, 56, [(240, 80, 70), (250, 246, 236)]),
                            (w * 0.28, h * 0.82, 48, [(250, 190, 40), (40, 150, 170)])):
        veil(img, (120, 100, 70), lambda m: m.ellipse(circle(cx + 14, cy + 16, r)), alpha=0.35, blur=6)
        for k in range(8):
            d.pieslice(circle(cx, cy, r), k * 45, (k + 1) * 45, fill=cols[k % 2])
        d.ellipse(circle(cx, cy, 4), fill=(90, 70, 60))
    bx, by = w * 0.82, h * 0.42
    for k, c in enumerate(((250, 70, 70), (250, 220, 60), (60, 140, 230))):
        d.pieslice(circle(bx, by, 12), k * 120, (k + 1) * 120, fill=c)
    return img


def seigaiha(w, h, rng):
    R = 100
    img = Image.new("RGB", (s(w), s(h)), (20, 36, 84))
    d = ImageDraw.Draw(img)
    rows = int(h / (R / 2)) + 3
    for row in range(-1, rows):
        y = row * R / 2
        t = max(0.0, min(1.0, y / h))
        deep, light = mix((28, 46, 110), (22, 112, 132), t), mix((80, 120, 180), (100, 180, 190), t)
        x0 = -R if row % 2 == 0 else 0
        x = x0
        while x < w + R:
            for k in range(4):
                r = R * (1 - k / 4.4)
                d.ellipse(circle(x, y, r), fill=deep if k % 2 == 0 else light)
            x += 2 * R
    # Hundreds of crisp arcs are costly in a JPEG; a slight softening keeps this one small.
    return img.filter(ImageFilter.GaussianBlur(1.5))


def cactus(w, h, rng):
    table = h * 0.72
    img = canvas(w, h, [(0, (232, 206, 180)), (0.72, (246, 226, 200))])
    veil(img, (255, 246, 226), lambda m: m.polygon(pts((w * 0.1, 0), (w * 0.6, 0), (w * 0.9, table), (w * 0.4, table))),
         alpha=0.5, blur=20)
    band(img, w, table, h, [(0, (226, 182, 140)), (1, (196, 150, 110))])
    d = ImageDraw.Draw(img)
    cx = w * 0.42
    green, ribs = (74, 140, 96), (110, 176, 126)
    d.rounded_rectangle(box(cx - 30, h * 0.2, cx + 30, table - 40), radius=s(30), fill=green)
    d.rounded_rectangle(box(cx - 80, h * 0.36, cx - 56, h * 0.52), radius=s(12), fill=green)
    d.rounded_rectangle(box(cx - 80, h * 0.48, cx - 20, h * 0.52 + 12), radius=s(12), fill=green)
    d.rounded_rectangle(box(cx + 56, h * 0.28, cx + 80, h * 0.46), radius=s(12), fill=green)
    d.rounded_rectangle(box(cx + 20, h * 0.42, cx + 80, h * 0.46 + 12), radius=s(12), fill=green)
    for x in (cx - 14, cx, cx + 14):
        d.line(pts((x, h * 0.22), (x, table - 44)), fill=ribs, width=s(1.5))
    for _ in range(50):
        x, y = cx + rng.uniform(-24, 24), rng.uniform(h * 0.22, table - 50)
        d.line(pts((x, y), (x + 3, y - 2)), fill=(240, 236, 210), width=s(1))
    for k in range(5):
        d.polygon(pts(*leaf(cx, h * 0.2 + 2, 14, 9, -90 + (k - 2) * 30)), fill=(240, 110, 150))
    d.polygon(pts((cx - 58, table - 50), (cx + 58, table - 50), (cx + 46, table + 20), (cx - 46, table + 20)),
              fill=(196, 100, 64))
    d.rectangle(box(cx - 62, table - 56, cx + 62, table - 38), fill=(214, 118, 80))
    sx, sy = w * 0.8, table + 4
    d.polygon(pts((sx - 34, sy - 30), (sx + 34, sy - 30), (sx + 26, sy + 22), (sx - 26, sy + 22)), fill=(240, 236, 226))
    for k in range(9):
        a = -90 + (k - 4) * 20
        d.polygon(pts(*leaf(sx, sy - 30, 34 - abs(k - 4) * 3, 16, a)), fill=mix((120, 170, 150), (170, 200, 170), k % 2))
    d.ellipse(circle(sx, sy - 34, 8), fill=(150, 190, 160))
    return img


def snowy_peaks(w, h, rng):
    horizon = h * 0.68
    img = canvas(w, h, [(0, (84, 140, 200)), (0.68, (210, 226, 236))])
    d = ImageDraw.Draw(img)
    for px, ph, half, col in ((w * 0.12, 0.42, 120, (120, 136, 160)), (w * 0.34, 0.18, 160, (96, 110, 138)),
                              (w * 0.56, 0.32, 140, (108, 122, 150)), (w * 0.78, 0.12, 170, (86, 100, 128)),
                              (w * 0.98, 0.36, 130, (118, 132, 158))):
        top = h * ph
        d.polygon(pts((px, top), (px + half, horizon), (px - half, horizon)), fill=col)
        d.polygon(pts((px, top), (px + half, horizon), (px + half * 0.2, horizon)), fill=darker(col, 0.18))
        sl = (horizon - top) * 0.3
        f = sl / (horizon - top)
        snow = [(px, top), (px + half * f, top + sl)]
        for k in range(5, -6, -1):
            snow.append((px + half * f * k / 5, top + sl + (6 if k % 2 else -2)))
        snow.append((px - half * f, top + sl))
        d.polygon(pts(*snow), fill=(246, 248, 252))
        d.polygon(pts((px, top), (px + half * f, top + sl), (px + half * f * 0.4, top + sl + 6)), fill=(214, 222, 236))
    x = -10
    while x < w + 10:
        pine(d, x, horizon + 2, rng.uniform(14, 24), (40, 70, 66))
        x += rng.uniform(6, 14)
    reflect(img, w, h, horizon + 2, darken=0.35, tint=(30, 70, 90))
    d = ImageDraw.Draw(img)
    for _ in range(50):
        x, y = rng.uniform(0, w), rng.uniform(horizon + 6, h)
        d.line(pts((x, y), (x + rng.uniform(8, 24), y)), fill=(170, 200, 214), width=s(1))
    return img


def pizza(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (250, 248, 244))
    stripe = w / 10
    veil(img, (206, 50, 54), lambda m: [m.rectangle(box(k * stripe, 0, k * stripe + stripe / 2, h)) for k in range(11)],
         alpha=0.55)
    veil(img, (206, 50, 54), lambda m: [m.rectangle(box(0, k * stripe, w, k * stripe + stripe / 2)) for k in range(11)],
         alpha=0.55)
    d = ImageDraw.Draw(img)
    cx, cy, R = w / 2, h / 2, w * 0.42
    veil(img, (60, 30, 20), lambda m: m.ellipse(circle(cx + 8, cy + 10, R + 16)), alpha=0.4, blur=8)
    d.ellipse(circle(cx, cy, R + 16), fill=(178, 126, 78))
    d.ellipse(circle(cx, cy, R), fill=(222, 164, 86))
    d.ellipse(circle(cx, cy, R * 0.88), fill=(196, 60, 36))
    for _ in range(40):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0, R * 0.76)
        d.ellipse(circle(cx + r * math.cos(a), cy + r * math.sin(a), rng.uniform(14, 26)), fill=(250, 220, 136))
    for _ in range(11):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(R * 0.1, R * 0.72)
        x, y = cx + r * math.cos(a), cy + r * math.sin(a)
        d.ellipse(circle(x, y, 17), fill=(176, 44, 42))
        for _ in range(3):
            d.ellipse(circle(x + rng.uniform(-9, 9), y + rng.uniform(-9, 9), 2), fill=(130, 30, 30))
    for _ in range(7):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(R * 0.1, R * 0.7)
        d.polygon(pts(*leaf(cx + r * math.cos(a), cy + r * math.sin(a), 24, 12, rng.uniform(0, 360))), fill=(56, 130, 60))
    for k in range(4):
        a = math.radians(k * 45 + 10)
        d.line(pts((cx - R * math.cos(a), cy - R * math.sin(a)), (cx + R * math.cos(a), cy + R * math.sin(a))),
               fill=(150, 60, 36), width=s(1.6))
    return img


def palm(d, x, base, height, lean, colour):
    spine = [(x + lean * (t ** 1.6) * height, base - t * height) for t in [i / 80 for i in range(81)]]
    for i, (px, py) in enumerate(spine):
        d.ellipse(circle(px, py, height * (0.03 - 0.012 * i / 80)), fill=colour)
    tx, ty = spine[-1]
    for a, length in ((-170, 1.0), (-140, 0.9), (-110, 0.7), (-70, 0.7), (-40, 0.9), (-10, 1.0), (20, 0.8), (160, 0.8)):
        L = height * 0.42 * length
        frond = []
        for i in range(13):
            t = i / 12
            ang = math.radians(a) + (0.5 * t * t if -90 < a < 90 else -0.5 * t * t)
            frond.append((tx + L * t * math.cos(ang), ty + L * t * math.sin(ang) + L * 0.25 * t * t))
        top = [(px, py - 6 * math.sin(math.pi * i / 12)) for i, (px, py) in enumerate(frond)]
        bottom = [(px, py + 6 * math.sin(math.pi * i / 12)) for i, (px, py) in enumerate(frond)]
        d.polygon(pts(*(top + list(reversed(bottom)))), fill=colour)


def palm_sunset(w, h, rng):
    horizon = h * 0.66
    img = canvas(w, h, [(0, (70, 30, 110)), (0.35, (200, 60, 130)), (0.66, (252, 160, 90))])
    sx, sy, sr = w * 0.5, horizon - 10, h * 0.3
    veil(img, (255, 220, 120), lambda m: m.ellipse(circle(sx, sy, sr * 1.8)), alpha=0.4, blur=30)
    sun = gradient(w, h, [(0, (255, 240, 150)), (0.66, (250, 120, 100))])
    veil(img, sun, lambda m: m.ellipse(circle(sx, sy, sr)))
    for k in range(5):
        y = sy - sr * 0.15 + k * 12
        veil(img, gradient(w, h, [(0, (70, 30, 110)), (0.35, (200, 60, 130)), (0.66, (252, 160, 90))]),
             lambda m: m.rectangle(box(sx - sr, y, sx + sr, y + 2 + k)))
    band(img, w, horizon, h, [(0, (120, 50, 120)), (1, (40, 20, 60))])
    d = ImageDraw.Draw(img)
    for i in range(36):
        y = horizon + 3 + (h - horizon) * i / 36
        half = sr * (0.6 + 0.6 * i / 36) * rng.uniform(0.4, 1.0)
        d.line(pts((sx - half, y), (sx + half, y)), fill=mix((252, 200, 120), (160, 70, 120), i / 36), width=s(1.5))
    dark = (30, 14, 40)
    palm(d, w * 0.1, h + 10, h * 0.95, 0.25, dark)
    palm(d, w * 0.2, h + 10, h * 0.7, 0.35, dark)
    palm(d, w * 0.88, h + 10, h * 0.85, -0.3, dark)
    return img


def waterfall(w, h, rng):
    top, pool = h * 0.16, h * 0.8
    img = canvas(w, h, [(0, (140, 196, 230)), (0.16, (220, 236, 240))])
    d = ImageDraw.Draw(img)
    fx0, fx1 = w * 0.36, w * 0.66
    falls = gradient(w, h, [(0, (200, 230, 240)), (0.8, (236, 248, 250))])
    img.paste(falls.crop((s(fx0 - 4), s(top), s(fx1 + 4), s(pool))), (s(fx0 - 4), s(top)))
    for _ in range(70):
        x = rng.uniform(fx0, fx1)
        y = rng.uniform(top, pool - 60)
        d.line(pts((x, y), (x + rng.uniform(-1, 1), y + rng.uniform(40, 160))),
               fill=rng.choice([(255, 255, 255), (170, 210, 226), (140, 190, 210)]), width=s(rng.uniform(1, 2.5)))
    cliff = (86, 96, 84)
    left = [(-10, top - 30), (fx0 - 10, top), (fx0, top + 40)]
    for k in range(1, 12):
        left.append((fx0 + rng.uniform(-6, 2), top + (pool - top) * k / 11))
    d.polygon(pts(*(left + [(-10, pool)])), fill=cliff)
    right = [(w + 10, top - 50), (fx1 + 10, top), (fx1, top + 30)]
    for k in range(1, 12):
        right.append((fx1 + rng.uniform(-2, 6), top + (pool - top) * k / 11))
    d.polygon(pts(*(right + [(w + 10, pool)])), fill=darker(cliff, 0.15))
    for _ in range(40):
        side = rng.random() < 0.5
        x = rng.uniform(-10, fx0 - 16) if side else rng.uniform(fx1 + 16, w + 10)
        y = rng.uniform(top - 30, pool)
        d.ellipse(circle(x, y, rng.uniform(12, 26)), fill=jitter((60, 120, 70), rng, 16))
    band(img, w, pool, h, [(0, (100, 170, 180)), (1, (40, 100, 120))])
    d = ImageDraw.Draw(img)
    for _ in range(24):
        x, y = rng.uniform(0, w), rng.uniform(pool + 10, h)
        d.line(pts((x, y), (x + rng.uniform(10, 30), y)), fill=(170, 216, 220), width=s(1.2))
    veil(img, (255, 255, 255), lambda m: m.ellipse(box(fx0 - 60, pool - 40, fx1 + 60, pool + 40)), alpha=0.8, blur=14)

    def bow(m):
        m.arc(box(fx0 - 60, pool - 120, fx1 + 60, pool + 80), 200, 340, fill=255, width=s(10))
    veil(img, gradient(w, h, [(0, (250, 120, 120)), (0.8, (250, 230, 120)), (1, (120, 200, 250))]), bow, alpha=0.3, blur=3)
    d = ImageDraw.Draw(img)
    for x in (w * 0.12, w * 0.3, w * 0.8):
        d.ellipse(box(x - 22, pool - 10, x + 26, pool + 18), fill=(70, 74, 70))
    return img


def hexagons(w, h, rng):
    img = Image.new("RGB", (s(w), s(h)), (92, 70, 92))
    d = ImageDraw.Draw(img)
    r = 42
    dx, dy = r * math.sqrt(3), r * 1.5
    corners = [(250, 196, 90), (236, 96, 96), (90, 180, 190), (110, 80, 160)]
    row = 0
    y = 0
    while y < h + r:
        x = (dx / 2) * (row % 2)
        while x < w + r:
            u, v = max(0, min(1, x / w)), max(0, min(1, y / h))
            c = mix(mix(corners[0], corners[1], u), mix(corners[2], corners[3], u), v)
            c = jitter(c, rng, 10)
            hexa = [(x + (r - 2) * math.cos(math.radians(60 * k - 30)), y + (r - 2) * math.sin(math.radians(60 * k - 30)))
                    for k in range(6)]
            d.polygon(pts(*hexa), fill=c)
            if rng.random() < 0.12:
                d.ellipse(circle(x, y, r * 0.35), fill=lighter(c, 0.4))
            x += dx
        row += 1
        y += dy
    return img


def citrus_half(d, x, y, r, rind, flesh, rng):
    d.ellipse(circle(x, y, r), fill=rind)
    d.ellipse(circle(x, y, r * 0.9), fill=(250, 244, 220))
    n = 9
    off = rng.uniform(0, 40)
    for k in range(n):
        a0, a1 = off + k * 360 / n + 3, off + (k + 1) * 360 / n - 3
        d.pieslice(circle(x, y, r * 0.82), a0, a1, fill=flesh)
    d.ellipse(circle(x, y, r * 0.08), fill=(250, 244, 220))


def citrus(w, h, rng):
    img = canvas(w, h, [(0, (64, 140, 156)), (1, (40, 110, 130))])
    d = ImageDraw.Draw(img)
    items = [("half", w * 0.22, h * 0.3, 70, (250, 210, 40), (252, 232, 120)),
             ("half", w * 0.5, h * 0.62, 80, (240, 130, 30), (250, 170, 70)),
             ("whole", w * 0.78, h * 0.3, 60, (250, 214, 50), None),
             ("half", w * 0.84, h * 0.76, 54, (110, 170, 50), (180, 220, 110)),
             ("whole", w * 0.14, h * 0.78, 56, (244, 140, 36), None)]
    for kind, x, y, r, rind, flesh in items:
        veil(img, (20, 60, 70), lambda m: m.ellipse(circle(x + 8, y + 10, r)), alpha=0.45, blur=7)
        d.polygon(pts(*leaf(x + r * 0.6, y - r * 0.7, r * 0.9, r * 0.4, -30 + rng.uniform(-20, 20))), fill=(50, 120, 60))
        if kind == "half":
            citrus_half(d, x, y, r, rind, flesh, rng)
        else:
            d.ellipse(box(x - r * 1.15, y - r, x + r * 1.15, y + r), fill=rind)
            d.ellipse(box(x - r * 0.7, y - r * 0.7, x - r * 0.2, y - r * 0.4), fill=lighter(rind, 0.4))
    return img


def branch(d, x, y, angle, length, width, depth, rng, tips):
    x1 = x + length * math.cos(math.radians(angle))
    y1 = y + length * math.sin(math.radians(angle))
    d.line(pts((x, y), (x1, y1)), fill=(70, 46, 44), width=max(1, s(width)))
    d.ellipse(circle(x1, y1, width / 2), fill=(70, 46, 44))
    if depth == 0:
        tips.append((x1, y1))
        return
    tips.append(((x + x1) / 2, (y + y1) / 2))
    for da in (rng.uniform(-40, -15), rng.uniform(10, 35)):
        branch(d, x1, y1, angle + da, length * rng.uniform(0.6, 0.78), width * 0.65, depth - 1, rng, tips)


def blossom(d, x, y, r, colour):
    for k in range(5):
        a = math.radians(k * 72 - 90)
        d.ellipse(circle(x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a), r * 0.5), fill=colour)
    d.ellipse(circle(x, y, r * 0.22), fill=(220, 90, 120))


def cherry_blossom(w, h, rng):
    img = canvas(w, h, [(0, (170, 206, 236)), (1, (250, 222, 230))])
    d = ImageDraw.Draw(img)
    tips = []
    branch(d, -10, h * 0.38, -20, w * 0.42, 16, 4, rng, tips)
    branch(d, -10, h * 0.62, 18, w * 0.3, 11, 3, rng, tips)
    for x, y in tips:
        for _ in range(3):
            blossom(d, x + rng.uniform(-16, 16), y + rng.uniform(-16, 16), rng.uniform(8, 13),
                    rng.choice([(252, 196, 214), (250, 214, 226), (246, 170, 196), (255, 232, 238)]))
    for _ in range(40):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        d.ellipse(box(x, y, x + rng.uniform(5, 8), y + rng.uniform(3, 5)), fill=(250, 190, 208))
    return img


def balloons_field(w, h, rng):
    img = canvas(w, h, [(0, (120, 170, 220)), (0.55, (252, 216, 176))])
    d = ImageDraw.Draw(img)
    fields = [(232, 196, 90), (140, 180, 80), (196, 214, 110), (100, 150, 70), (214, 170, 80)]
    for k, base in enumerate((0.6, 0.7, 0.8, 0.92)):
        line = waves(w, h * base, [(10, 1), (5, 2.4)], rng)
        fill_below(d, line, h, fields[k % len(fields)])
        x = rng.uniform(0, 120)
        while x < w:
            seg = rng.uniform(80, 200)
            i0, i1 = int(x / 4), min(len(line) - 1, int((x + seg) / 4))
            if i1 > i0 and rng.random() < 0.5:
                patch = line[i0:i1 + 1]
                fill_below(d, [(px, py) for px, py in patch], h, jitter(rng.choice(fields), rng, 10))
            x += seg
        for _ in range(6):
            tx = rng.uniform(0, w)
            ty = line[min(len(line) - 1, int(tx / 4))][1] + 2
            d.ellipse(circle(tx, ty - 6 - k * 2, 6 + k * 2), fill=(60, 100, 56))
    for cx, cy, r, cols in ((w * 0.15, h * 0.22, 18, [(250, 200, 60), (230, 80, 70)]),
                            (w * 0.42, h * 0.14, 26, [(60, 130, 200), (250, 250, 240)]),
                            (w * 0.7, h * 0.3, 40, [(220, 60, 100), (250, 170, 60)]),
                            (w * 0.9, h * 0.12, 14, [(110, 190, 130), (250, 240, 220)])):
        balloon(img, cx, cy, r, cols)
    return img


def moon_sea(w, h, rng):
    horizon = h * 0.62
    img = canvas(w, h, [(0, (10, 16, 44)), (0.62, (40, 70, 120))])
    stars(ImageDraw.Draw(img), w, horizon - 20, 150, rng)
    mx, my, mr = w * 0.5, h * 0.22, w * 0.14
    veil(img, (220, 230, 255), lambda m: m.ellipse(circle(mx, my, mr * 2.6)), alpha=0.35, blur=30)
    d = ImageDraw.Draw(img)
    d.ellipse(circle(mx, my, mr), fill=(246, 244, 228))
    for dx, dy, r in ((-0.3, -0.2, 0.22), (0.3, 0.25, 0.16), (0.1, -0.4, 0.1), (-0.2, 0.4, 0.12)):
        veil(img, (200, 200, 190), lambda m: m.ellipse(circle(mx + dx * mr, my + dy * mr, r * mr)), alpha=0.6, blur=1)
    band(img, w, horizon, h, [(0, (30, 54, 96)), (1, (6, 12, 30))])
    d = ImageDraw.Draw(img)
    for i in range(60):
        y = horizon + 2 + (h - horizon) * (i / 60) ** 1.2
        half = mr * (0.5 + 1.4 * (y - horizon) / (h - horizon)) * rng.uniform(0.2, 1.0)
        off = rng.uniform(-10, 10)
        d.line(pts((mx - half + off, y), (mx + half + off, y)), fill=mix((240, 240, 220), (60, 90, 130), i / 70),
               width=s(1.4))
    bx, by = w * 0.3, horizon + 40
    d.polygon(pts((bx - 24, by), (bx + 24, by), (bx + 16, by + 8), (bx - 16, by + 8)), fill=(8, 12, 26))
    d.line(pts((bx, by), (bx, by - 44)), fill=(8, 12, 26), width=s(1.5))
    d.polygon(pts((bx + 2, by - 42), (bx + 2, by - 4), (bx + 22, by - 4)), fill=(8, 12, 26))
    return img


def sushi(w, h, rng):
    img = canvas(w, h, [(0, (44, 44, 48)), (1, (28, 28, 32))])
    d = ImageDraw.Draw(img)
    veil(img, (0, 0, 0), lambda m: m.rectangle(box(w * 0.08 + 8, h * 0.2 + 10, w * 0.92 + 8, h * 0.8 + 10)), alpha=0.5, blur=8)
    d.rectangle(box(w * 0.08, h * 0.2, w * 0.92, h * 0.8), fill=(222, 184, 130))
    for k in range(7):
        y = h * 0.2 + k * h * 0.6 / 7 + rng.uniform(4, 20)
        grain = [(x + w * 0.08, yy) for x, yy in waves(w * 0.84, y, [(1.5, 2)], rng, step=8) if x <= w * 0.84]
        d.line(pts(*grain), fill=(204, 164, 112), width=s(1))
    fish = [((246, 130, 80), (252, 200, 170)), ((200, 40, 60), (220, 90, 100)), ((250, 210, 90), (30, 40, 36))]
    for k, (body, mark) in enumerate(fish):
        x, y = w * (0.2 + k * 0.14), h * 0.5
        d.rounded_rectangle(box(x - 32, y - 18, x + 32, y + 24), radius=s(16), fill=(250, 248, 240))
        d.rounded_rectangle(box(x - 38, y - 26, x + 38, y + 8), radius=s(14), fill=body)
        if k == 0:
            for j in range(4):
                d.line(pts((x - 30 + j * 18, y - 24), (x - 18 + j * 18, y + 6)), fill=mark, width=s(3))
        elif k == 2:
            d.rectangle(box(x - 8, y - 26, x + 8, y + 24), fill=mark)
    for k in range(3):
        x, y = w * (0.64 + k * 0.085), h * 0.4 + (k % 2) * 44
        d.ellipse(circle(x, y, 24), fill=(28, 40, 34))
        d.ellipse(circle(x, y, 20), fill=(250, 248, 240))
        d.ellipse(circle(x, y, 8), fill=rng.choice([(246, 130, 80), (110, 180, 90)]))
    d.ellipse(box(w * 0.8, h * 0.58, w * 0.86, h * 0.68), fill=(140, 190, 80))
    for k in range(3):
        d.ellipse(box(w * 0.66 + k * 8, h * 0.64, w * 0.72 + k * 8, h * 0.74), fill=(246, 196, 196))
    d.line(pts((w * 0.04, h * 0.9), (w * 0.8, h * 0.84)), fill=(120, 60, 40), width=s(5))
    d.line(pts((w * 0.04, h * 0.95), (w * 0.8, h * 0.9)), fill=(120, 60, 40), width=s(5))
    return img


def tulip_field(w, h, rng):
    horizon = h * 0.46
    img = canvas(w, h, [(0, (96, 156, 220)), (0.46, (214, 232, 246))])
    veil(img, (255, 255, 255), lambda m: [cloud(m, x, y, sz, 255) for x, y, sz in
                                          ((w * 0.2, h * 0.14, 30), (w * 0.62, h * 0.2, 24), (w * 0.9, h * 0.1, 28))],
         alpha=0.9, blur=2)
    d = ImageDraw.Draw(img)
    vx = w * 0.62
    colours = [(226, 44, 60), (250, 206, 50), (240, 120, 170), (150, 80, 180), (244, 120, 40), (226, 44, 60),
               (250, 206, 50), (240, 120, 170), (150, 80, 180)]
    n = len(colours)
    spread = w * 3.2
    d.rectangle(box(0, horizon, w, h), fill=(84, 130, 60))
    for k, c in enumerate(colours):
        x0 = vx - spread / 2 + k * spread / n
        x1 = x0 + spread / n
        g = 0.12
        d.polygon(pts((vx + (x0 - vx) * 0.08, horizon), (vx + (x1 - vx) * 0.08, horizon), (x1, h), (x0, h)),
                  fill=(84, 130, 60))
        xa, xb = x0 + (x1 - x0) * g, x1 - (x1 - x0) * g
        d.polygon(pts((vx + (xa - vx) * 0.08, horizon), (vx + (xb - vx) * 0.08, horizon), (xb, h), (xa, h)), fill=c)
        for _ in range(26):
            t = rng.uniform(0.35, 1) ** 0.7
            y = horizon + (h - horizon) * t
            u = rng.uniform(0.1, 0.9)
            x = vx + ((xa + (xb - xa) * u) - vx) * (0.08 + 0.92 * t)
            d.ellipse(circle(x, y, 2 + 5 * t), fill=lighter(c, 0.2))
    d.rectangle(box(0, horizon - 3, w, horizon + 1), fill=(90, 130, 90))
    mx, my = w * 0.22, horizon
    d.polygon(pts((mx - 18, my), (mx + 18, my), (mx + 11, my - 62), (mx - 11, my - 62)), fill=(70, 60, 64))
    d.polygon(pts((mx - 14, my - 62), (mx + 14, my - 62), (mx, my - 78)), fill=(150, 60, 50))
    hub = (mx, my - 64)
    for k in range(4):
        a = 35 + k * 90
        d.polygon(pts(*rot(hub[0], hub[1], [(6, -5), (62, -5), (62, 5), (6, 5)], a)), fill=(240, 236, 226))
        d.line(pts(*rot(hub[0], hub[1], [(4, 0), (62, 0)], a)), fill=(70, 60, 64), width=s(1.5))
    d.ellipse(circle(*hub, 4), fill=(40, 36, 40))
    d.rectangle(box(mx - 4, my - 14, mx + 4, my), fill=(40, 36, 40))
    return img


def rainbow_hills(w, h, rng):
    img = canvas(w, h, [(0, (80, 150, 220)), (0.7, (190, 222, 240))])
    cx, cy, R = w * 0.55, h * 0.8, w * 0.42
    for k, c in enumerate(((230, 60, 60), (246, 140, 50), (250, 220, 60), (90, 190, 90), (60, 140, 220),
                           (90, 80, 190), (150, 80, 190))):
        r = R - k * 7

        def arc(m, r=r):
            m.arc(circle(cx, cy, r), 180, 360, fill=255, width=s(7.5))
        veil(img, c, arc, alpha=0.5, blur=1)
    veil(img, (255, 255, 255), lambda m: [cloud(m, x, y, sz, 255) for x, y, sz in
                                          ((w * 0.12, h * 0.18, 26), (w * 0.84, h * 0.36, 32))], alpha=0.95, blur=1.5)
    d = ImageDraw.Draw(img)
    for base, colour in ((0.62, (140, 196, 110)), (0.74, (100, 170, 80)), (0.88, (70, 140, 64))):
        fill_below(d, waves(w, h * base, [(18, 0.8), (7, 2)], rng), h, colour)
    hx, hy = w * 0.2, h * 0.7
    d.rectangle(box(hx - 16, hy - 18, hx + 16, hy + 4), fill=(246, 240, 226))
    d.polygon(pts((hx - 21, hy - 16), (hx, hy - 34), (hx + 21, hy - 16)), fill=(200, 60, 50))
    d.rectangle(box(hx - 4, hy - 10, hx + 4, hy + 4), fill=(110, 70, 50))
    for _ in range(6):
        x, y = rng.uniform(w * 0.4, w * 0.95), rng.uniform(h * 0.82, h * 0.95)
        for dx, dy in ((-5, 0), (0, -3), (5, 0), (0, 2)):
            d.ellipse(circle(x + dx, y + dy, 6), fill=(250, 250, 246))
        d.ellipse(circle(x + 10, y - 2, 3.6), fill=(50, 46, 46))
    return img


# name: (drawing, width, height) — the order of Photos.plist
PHOTOS = [
    (sunset_sea, 400, 600),
    (mountains_dawn, 600, 400),
    (triangles, 500, 500),
    (balloons_tall, 300, 900),
    (donuts, 500, 500),
    (city_night, 640, 360),
    (tulips_vase, 400, 700),
    (dunes, 900, 300),
    (latte, 480, 480),
    (pine_snow, 450, 800),
    (lighthouse, 400, 600),
    (sailboat, 800, 450),
    (sunflower, 400, 500),
    (aurora, 720, 480),
    (bauhaus, 500, 500),
    (watermelon, 600, 400),
    (crescent_moon, 400, 700),
    (city_sunset, 450, 800),
    (autumn, 600, 450),
    (beach, 400, 600),
    (seigaiha, 800, 450),
    (cactus, 400, 600),
    (snowy_peaks, 900, 300),
    (pizza, 500, 500),
    (palm_sunset, 640, 360),
    (waterfall, 340, 850),
    (hexagons, 600, 600),
    (citrus, 600, 400),
    (cherry_blossom, 400, 700),
    (balloons_field, 800, 450),
    (moon_sea, 450, 800),
    (sushi, 640, 360),
    (tulip_field, 800, 450),
    (rainbow_hills, 600, 400),
]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    total = 0
    for index, (draw, w, h) in enumerate(PHOTOS, start=1):
        img = draw(w, h, random.Random(2000 + index))
        img = img.resize((w, h), Image.LANCZOS)
        path = OUT / f"{index:02d}.jpg"
        size = save_jpeg(img, path)
        total += size
        print(f"{path.name}  {w}×{h}  {size} bytes  ({draw.__name__})")
    print(f"{len(PHOTOS)} pictures, {total} bytes")


if __name__ == "__main__":
    main()
