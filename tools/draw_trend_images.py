#!/usr/bin/env python3
"""Draws the example site's media-trend pictures: a poster and a backdrop for each of the twelve
shows in content/trends/shows.json, into content/trends/posters/<slug>.jpg (300×450) and
content/trends/backdrops/<slug>.jpg (960×540).

A development tool only: the site build never runs it and never needs Pillow. The JPEGs it
writes are what the example site uses; rerun it (from anywhere) after changing a drawing:

    pip install pillow
    python3 tools/draw_trend_images.py

Each show has one original, deliberately simple scene (a night ferry, a windy garden, a café
window, clockwork, a river bridge, …) drawn relative to the picture's size, so the same drawing
serves the wide backdrop and the tall poster. Backdrops carry no text; posters add the show's
title in large type over a dark band (DejaVu Sans Bold, or NanumSquare/NanumGothic Bold for
Hangul titles, found with fc-match). No copied artwork. Output is deterministic: every random
choice comes from a fixed seed per show.
"""

import math
import random
import subprocess
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from drawkit import (SCALE, s, box, circle, pts, mix, darker, lighter, ridge, fill_below, glow, veil, gradient,
                     band, stars, save_jpeg)

POSTER = (300, 450)
BACKDROP = (960, 540)
ROOT = Path(__file__).resolve().parent.parent / "content" / "trends"


# --- the scenes -----------------------------------------------------------------------------
# Each takes the picture's size (output pixels) and a seeded random source and returns the
# drawing-size image. u is the shorter side: sizes scale with it, positions with w and h.

def midnight_ferry(w, h, rng):
    u, sea = min(w, h), h * 0.62
    img = gradient(w, h, [(0, (8, 14, 36)), (0.62, (30, 52, 92)), (0.63, (16, 34, 60)), (1, (6, 12, 26))])
    d = ImageDraw.Draw(img)
    stars(d, w, sea * 0.9, int(w * h / 2500), rng)
    mx, my = w * 0.74, h * 0.2
    glow(img, mx, my, u * 0.22, (170, 190, 230), 0.45)
    d.ellipse(circle(mx, my, u * 0.07), fill=(240, 240, 222))
    for i in range(40):                                            # moonlight on the water
        y = sea + 4 + (h - sea) * (i / 40) ** 1.4
        half = u * (0.02 + 0.1 * (y - sea) / (h - sea)) * rng.uniform(0.3, 1.2)
        d.line(pts((mx - half, y), (mx + half, y)), fill=mix((230, 230, 210), (40, 60, 100), i / 40), width=s(1.2))
    fx, fy, fl = w * 0.36, sea + u * 0.03, u * 0.62                # the ferry, left of centre
    hull = [(fx - fl / 2, fy - u * 0.05), (fx + fl / 2, fy - u * 0.05), (fx + fl * 0.42, fy + u * 0.03),
            (fx - fl * 0.46, fy + u * 0.03)]
    d.polygon(pts(*hull), fill=(14, 18, 30))
    d.rectangle(box(fx - fl * 0.34, fy - u * 0.12, fx + fl * 0.3, fy - u * 0.05), fill=(22, 28, 44))
    d.rectangle(box(fx - fl * 0.2, fy - u * 0.17, fx + fl * 0.12, fy - u * 0.12), fill=(26, 32, 50))
    d.rectangle(box(fx + fl * 0.02, fy - u * 0.24, fx + fl * 0.09, fy - u * 0.17), fill=(150, 40, 40))
    for k in range(11):                                             # lit windows
        x = fx - fl * 0.3 + k * fl * 0.055
        if rng.random() < 0.8:
            d.rectangle(box(x, fy - u * 0.1, x + fl * 0.03, fy - u * 0.075), fill=(250, 214, 120))
    glow(img, fx, fy - u * 0.09, u * 0.2, (250, 200, 110), 0.18)
    d = ImageDraw.Draw(img)
    for k in range(14):                                             # the windows' reflection
        x = fx - fl * 0.3 + rng.uniform(0, fl * 0.6)
        y = fy + u * 0.05 + rng.uniform(0, u * 0.12)
        d.line(pts((x, y), (x + rng.uniform(4, 14), y)), fill=(170, 140, 90), width=s(1.2))
    return img


def windy_garden(w, h, rng):
    u = min(w, h)
    img = gradient(w, h, [(0, (176, 214, 226)), (0.55, (236, 232, 204)), (1, (236, 232, 204))])
    d = ImageDraw.Draw(img)
    for k, (base, col) in enumerate(((0.5, (150, 186, 140)), (0.62, (110, 160, 104)), (0.78, (72, 128, 78)))):
        fill_below(d, ridge(w, h * base, h * (base - 0.06), h * 0.06, rng, levels=6), h, col)
    for k in range(5):                                              # wind: long pale curls
        y0 = h * (0.1 + 0.08 * k)
        line = [(x, y0 + u * 0.03 * math.sin(x / w * 6.28 * 1.2 + k)) for x in range(-10, int(w) + 20, 6)]
        d.line(pts(*line), fill=(250, 250, 246), width=s(1.6), joint="curve")
        cx, cy = line[int(len(line) * (0.2 + 0.15 * k))]
        d.arc(circle(cx, cy - u * 0.03, u * 0.03), 90, 360, fill=(250, 250, 246), width=s(1.6))
    for _ in range(int(w * h / 900)):                               # flowers in the near hill
        x, y = rng.uniform(0, w), rng.uniform(h * 0.8, h)
        r = u * rng.uniform(0.008, 0.018) * (0.6 + (y - h * 0.8) / (h * 0.2))
        d.line(pts((x, y), (x, y + r * 3)), fill=(50, 100, 60), width=s(1))
        d.ellipse(circle(x, y, r), fill=rng.choice(((244, 140, 170), (250, 230, 120), (250, 250, 250), (200, 130, 220))))
    for _ in range(22):                                             # petals on the wind
        x, y = rng.uniform(0, w), rng.uniform(h * 0.05, h * 0.6)
        rng.uniform(0, math.pi)                                     # unused draw, kept so the seeded scene stays as it is
        r = u * 0.012
        d.ellipse(box(x - r, y - r * 0.5, x + r, y + r * 0.5), fill=(246, 160, 186))
    tx, ty = w * 0.78, h * 0.62                                     # a lone tree bent by the wind
    d.line(pts((tx, ty), (tx - u * 0.03, ty - u * 0.16), (tx - u * 0.08, ty - u * 0.26)), fill=(80, 60, 50),
           width=s(u * 0.018), joint="curve")
    for dx, dy, r in ((-0.1, -0.28, 0.08), (-0.03, -0.3, 0.07), (-0.15, -0.22, 0.06), (-0.05, -0.22, 0.06)):
        d.ellipse(circle(tx + u * dx, ty + u * dy, u * r), fill=(244, 176, 196))
    return img


def cafe_window(w, h, rng):
    u = min(w, h)
    img = gradient(w, h, [(0, (58, 36, 32)), (1, (96, 58, 42))])
    d = ImageDraw.Draw(img)
    wx0, wy0, wx1, wy1 = w * 0.12, h * 0.1, w * 0.88, h * 0.62        # the window onto a dusk street
    img.paste(gradient(wx1 - wx0, wy1 - wy0, [(0, (64, 80, 140)), (0.7, (236, 150, 110)), (1, (250, 200, 140))]),
              (s(wx0), s(wy0)))
    d = ImageDraw.Draw(img)
    x = wx0
    while x < wx1:                                                  # houses across the street
        bw = rng.uniform(0.08, 0.16) * (wx1 - wx0)
        top = wy1 - rng.uniform(0.25, 0.55) * (wy1 - wy0)
        d.rectangle(box(x, top, min(x + bw, wx1), wy1), fill=(70, 50, 70))
        for yy in range(int(top + 8), int(wy1 - 8), 14):
            if rng.random() < 0.5:
                d.rectangle(box(x + bw * 0.3, yy, x + bw * 0.45, yy + 6), fill=(252, 214, 130))
        x += bw + 2
    d.rectangle(box(wx0, wy0, wx1, wy1), outline=(40, 24, 20), width=s(u * 0.025))
    d.line(pts((w / 2, wy0), (w / 2, wy1)), fill=(40, 24, 20), width=s(u * 0.02))
    d.arc(box(w * 0.3, wy0 + h * 0.06, w * 0.7, wy0 + h * 0.2), 200, 340, fill=(250, 236, 210), width=s(1.4))
    for k in range(3):                                              # hanging lamps
        lx = w * (0.25 + 0.25 * k)
        ly = h * 0.2 + (k % 2) * h * 0.03
        d.line(pts((lx, 0), (lx, ly)), fill=(30, 20, 18), width=s(1.2))
        glow(img, lx, ly + u * 0.03, u * 0.16, (255, 210, 130), 0.35)
        d = ImageDraw.Draw(img)
        d.chord(circle(lx, ly + u * 0.04, u * 0.05), 180, 360, fill=(232, 170, 70))
        d.ellipse(circle(lx, ly + u * 0.04, u * 0.015), fill=(255, 246, 210))
    band(img, w, h * 0.68, h, [(0, (150, 98, 60)), (1, (110, 70, 44))])   # the table
    d = ImageDraw.Draw(img)
    d.rectangle(box(0, h * 0.66, w, h * 0.7), fill=(176, 120, 76))
    cx, cy, r = w * 0.5, h * 0.8, u * 0.1                           # a cup and saucer
    d.ellipse(box(cx - r * 1.9, cy + r * 0.3, cx + r * 1.9, cy + r * 0.95), fill=(236, 230, 220))
    d.rounded_rectangle(box(cx - r, cy - r * 0.6, cx + r, cy + r * 0.7), radius=s(r * 0.5), fill=(248, 244, 236))
    d.arc(box(cx + r * 0.7, cy - r * 0.3, cx + r * 1.5, cy + r * 0.4), 270, 90, fill=(248, 244, 236), width=s(r * 0.18))
    d.ellipse(box(cx - r, cy - r * 0.8, cx + r, cy - r * 0.4), fill=(120, 72, 40))
    for k in (-1, 0, 1):                                            # steam
        line = [(cx + k * r * 0.4 + r * 0.15 * math.sin(t / 4), cy - r - t * r * 0.05) for t in range(0, 22)]
        d.line(pts(*line), fill=(240, 220, 200), width=s(1.5), joint="curve")
    return img


def gear(d, cx, cy, r, teeth, fill, hole):
    outline = []
    for k in range(teeth * 4):
        a = 2 * math.pi * k / (teeth * 4)
        rr = r if (k // 2) % 2 == 0 else r * 0.84
        outline.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts(*outline), fill=fill)
    d.ellipse(circle(cx, cy, r * 0.62), fill=darker(fill, 0.15))
    d.ellipse(circle(cx, cy, r * 0.2), fill=hole)


def clockwork(w, h, rng):
    u = min(w, h)
    bg = (22, 54, 62)
    img = gradient(w, h, [(0, (30, 70, 78)), (1, (12, 30, 36))])
    d = ImageDraw.Draw(img)
    for _ in range(9):                                              # gears scattered around
        r = u * rng.uniform(0.07, 0.16)
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        gear(d, x, y, r, rng.randint(8, 14), rng.choice(((176, 132, 64), (140, 100, 52), (196, 160, 90))), bg)
    cx, cy, R = w * 0.5, h * 0.42, u * 0.3                          # the clock face
    glow(img, cx, cy, R * 1.5, (250, 220, 160), 0.35)
    d = ImageDraw.Draw(img)
    d.ellipse(circle(cx, cy, R * 1.1), fill=(150, 104, 48))
    d.ellipse(circle(cx, cy, R), fill=(246, 236, 210))
    for k in range(60):
        a = 2 * math.pi * k / 60
        r0 = R * (0.8 if k % 5 == 0 else 0.88)
        d.line(pts((cx + r0 * math.cos(a), cy + r0 * math.sin(a)), (cx + R * 0.94 * math.cos(a), cy + R * 0.94 * math.sin(a))),
               fill=(60, 44, 30), width=s(2.2 if k % 5 == 0 else 1))
    gear(d, cx + R * 0.3, cy + R * 0.3, R * 0.22, 10, (200, 160, 90), (246, 236, 210))   # the open window
    for a, l, wd in ((-100, 0.5, 5), (-20, 0.72, 3)):
        t = math.radians(a)
        d.line(pts((cx, cy), (cx + R * l * math.cos(t), cy + R * l * math.sin(t))), fill=(40, 30, 24), width=s(wd))
    d.ellipse(circle(cx, cy, R * 0.05), fill=(150, 40, 40))
    return img


def river_bridge(w, h, rng):
    u, water = min(w, h), h * 0.66
    img = gradient(w, h, [(0, (250, 196, 140)), (0.5, (246, 160, 120)), (0.66, (230, 130, 110)),
                          (0.67, (120, 110, 150)), (1, (40, 48, 90))])
    d = ImageDraw.Draw(img)
    glow(img, w * 0.5, water, u * 0.3, (255, 230, 170), 0.6)
    d = ImageDraw.Draw(img)
    d.chord(circle(w * 0.5, water, u * 0.1), 180, 360, fill=(255, 236, 190))
    x = 0                                                           # the far bank's towers
    while x < w:
        bw, bh = rng.uniform(10, 30), rng.uniform(0.05, 0.22) * h
        d.rectangle(box(x, water - h * 0.1 - bh, x + bw, water), fill=(150, 110, 140))
        x += bw + rng.uniform(0, 6)
    deck = water - h * 0.08                                         # the bridge: a deck on arches
    d.rectangle(box(0, deck - u * 0.02, w, deck + u * 0.012), fill=(60, 50, 80))
    span = max(w / 6, u * 0.35)
    x = -span * 0.3
    while x < w:
        d.chord(box(x, deck - u * 0.01, x + span, deck + (water - deck) * 2.2), 180, 360, fill=(60, 50, 80))
        d.chord(box(x + u * 0.02, deck + u * 0.005, x + span - u * 0.02, deck + (water - deck) * 2.1), 180, 360,
                fill=mix((230, 130, 110), (255, 220, 170), 0.2))
        d.rectangle(box(x + span - u * 0.015, deck, x + span + u * 0.015, water), fill=(60, 50, 80))
        x += span
    for i in range(60):                                             # ripples
        y = water + 3 + (h - water) * rng.random()
        x = rng.uniform(0, w)
        d.line(pts((x, y), (x + rng.uniform(6, 30), y)), fill=mix((255, 220, 170), (40, 48, 90), (y - water) / (h - water)),
               width=s(1.2))
    lx, ly, lr = w * 0.7, h * 0.32, u * 0.13                         # a magnifying glass over the sky
    veil(img, (255, 250, 236), lambda m: m.ellipse(circle(lx, ly, lr)), alpha=0.35)
    d = ImageDraw.Draw(img)
    d.ellipse(circle(lx, ly, lr), outline=(44, 36, 60), width=s(u * 0.022))
    t = math.radians(45)
    d.line(pts((lx + lr * math.cos(t), ly + lr * math.sin(t)), (lx + lr * 2 * math.cos(t), ly + lr * 2 * math.sin(t))),
           fill=(44, 36, 60), width=s(u * 0.04))
    return img


def orbit_kitchen(w, h, rng):
    u = min(w, h)
    img = gradient(w, h, [(0, (22, 12, 44)), (1, (60, 30, 90))])
    d = ImageDraw.Draw(img)
    stars(d, w, h, int(w * h / 1200), rng)
    px, py, pr = w * 0.15, h * 0.95, u * 0.55                        # a planet rising from a corner
    glow(img, px, py, pr * 1.15, (120, 180, 255), 0.5)
    d = ImageDraw.Draw(img)
    d.ellipse(circle(px, py, pr), fill=(70, 120, 200))
    for k in range(5):
        d.arc(circle(px, py, pr * (0.3 + 0.14 * k)), 200, 340, fill=(110, 160, 230), width=s(u * 0.02))
    cx, cy = w * 0.62, h * 0.4                                      # a ring station
    d.ellipse(box(cx - u * 0.3, cy - u * 0.09, cx + u * 0.3, cy + u * 0.09), outline=(200, 200, 214), width=s(u * 0.03))
    d.rounded_rectangle(box(cx - u * 0.05, cy - u * 0.14, cx + u * 0.05, cy + u * 0.14), radius=s(u * 0.03), fill=(220, 220, 230))
    d.rectangle(box(cx - u * 0.2, cy - u * 0.012, cx + u * 0.2, cy + u * 0.012), fill=(170, 170, 190))
    for k in (-1, 1):
        d.rectangle(box(cx + k * u * 0.2 - u * 0.04, cy - u * 0.06, cx + k * u * 0.2 + u * 0.04, cy + u * 0.06),
                    fill=(60, 100, 180), outline=(170, 170, 190), width=s(1))
    # Floating groceries: a pan, tomatoes, a carrot.
    fx, fy = w * 0.3, h * 0.25
    d.ellipse(circle(fx, fy, u * 0.06), fill=(50, 50, 56))
    d.ellipse(circle(fx, fy, u * 0.048), fill=(80, 80, 90))
    d.line(pts((fx + u * 0.05, fy + u * 0.03), (fx + u * 0.14, fy + u * 0.08)), fill=(50, 50, 56), width=s(u * 0.02))
    d.ellipse(circle(fx - u * 0.01, fy - u * 0.01, u * 0.018), fill=(250, 220, 90))
    for tx, ty in ((0.82, 0.75), (0.9, 0.68), (0.45, 0.7)):
        d.ellipse(circle(w * tx, h * ty, u * 0.03), fill=(230, 70, 60))
        d.polygon(pts((w * tx - 4, h * ty - u * 0.03), (w * tx, h * ty - u * 0.042), (w * tx + 4, h * ty - u * 0.03)),
                  fill=(80, 160, 80))
    cx2, cy2 = w * 0.86, h * 0.15
    d.polygon(pts((cx2 - u * 0.08, cy2 + u * 0.04), (cx2 + u * 0.05, cy2 - u * 0.01), (cx2 + u * 0.04, cy2 + u * 0.03)),
              fill=(244, 140, 50))
    d.polygon(pts((cx2 + u * 0.045, cy2 + u * 0.01), (cx2 + u * 0.08, cy2 - u * 0.02), (cx2 + u * 0.07, cy2 + u * 0.02)),
              fill=(80, 170, 80))
    return img


def salt_flat(w, h, rng):
    u, horizon = min(w, h), h * 0.45
    img = gradient(w, h, [(0, (60, 20, 40)), (0.3, (180, 50, 50)), (0.45, (250, 140, 70)),
                          (0.451, (240, 226, 216)), (1, (214, 200, 196))])
    d = ImageDraw.Draw(img)
    glow(img, w * 0.5, horizon, u * 0.3, (255, 180, 100), 0.6)
    d = ImageDraw.Draw(img)
    d.chord(circle(w * 0.5, horizon, u * 0.09), 180, 360, fill=(255, 210, 150))
    fill_below(d, ridge(w, horizon - h * 0.03, horizon - h * 0.02, h * 0.03, rng, levels=6), horizon + 1, (90, 40, 60))
    # Hexagonal cracks in the salt, in perspective: rows get taller towards the viewer.
    y, row = horizon + 2, 0
    while y < h:
        rh = 3 + (y - horizon) * 0.22
        cw = rh * 2.4
        x = -cw * (0.5 if row % 2 else 0)
        while x < w + cw:
            poly = [(x, y + rh / 2), (x + cw * 0.25, y), (x + cw * 0.75, y), (x + cw, y + rh / 2),
                    (x + cw * 0.75, y + rh), (x + cw * 0.25, y + rh)]
            d.polygon(pts(*poly), outline=(190, 170, 168), width=max(1, s(0.4 + rh * 0.04)))
            x += cw * 1.5
        y += rh
        row += 1
    fx, fy = w * 0.3, h * 0.78                                      # a small fire and its embers
    glow(img, fx, fy, u * 0.14, (255, 150, 60), 0.55)
    d = ImageDraw.Draw(img)
    for k, (col, sc) in enumerate((((220, 60, 30), 1.0), ((250, 150, 40), 0.7), ((255, 230, 140), 0.4))):
        fh = u * 0.14 * sc
        d.polygon(pts((fx - fh * 0.35, fy), (fx - fh * 0.2, fy - fh * 0.6), (fx, fy - fh), (fx + fh * 0.15, fy - fh * 0.55),
                      (fx + fh * 0.35, fy)), fill=col)
    for _ in range(24):
        x, y = fx + rng.uniform(-u * 0.1, u * 0.15), fy - rng.uniform(u * 0.1, u * 0.45)
        d.ellipse(circle(x, y, rng.uniform(0.8, 1.8)), fill=(255, 190, 90))
    d.line(pts((fx - u * 0.06, fy + 2), (fx + u * 0.06, fy - 2)), fill=(70, 40, 30), width=s(3))
    return img


def lanterns(w, h, rng):
    u, bank = min(w, h), h * 0.38
    img = gradient(w, h, [(0, (26, 22, 70)), (0.38, (120, 70, 120)), (0.381, (30, 30, 74)), (1, (14, 14, 40))])
    d = ImageDraw.Draw(img)
    stars(d, w, bank * 0.8, int(w * h / 4000), rng)
    fill_below(d, ridge(w, bank - h * 0.06, bank - h * 0.1, h * 0.05, rng, levels=6), bank + 1, (40, 30, 70))
    spots = []
    for k in range(26):                                             # lanterns, larger when nearer
        t = rng.random() ** 0.8
        y = bank + 8 + t * (h - bank - 20)
        spots.append((rng.uniform(0, w), y, u * (0.012 + 0.05 * t)))
    for x, y, r in sorted(spots, key=lambda p: p[1]):
        glow(img, x, y, r * 3, (255, 170, 80), 0.35)
    d = ImageDraw.Draw(img)
    for x, y, r in sorted(spots, key=lambda p: p[1]):
        d.line(pts((x, y + r * 1.2), (x, y + r * 3)), fill=(160, 100, 80), width=s(max(1, r * 0.5)))
        d.rounded_rectangle(box(x - r, y - r * 1.2, x + r, y + r * 1.2), radius=s(r * 0.5), fill=(250, 170, 80))
        d.rectangle(box(x - r * 0.6, y - r * 0.6, x + r * 0.6, y + r * 0.6), fill=(255, 226, 150))
        d.rectangle(box(x - r * 1.1, y - r * 1.4, x + r * 1.1, y - r * 1.1), fill=(120, 50, 40))
        d.rectangle(box(x - r * 1.1, y + r * 1.1, x + r * 1.1, y + r * 1.4), fill=(120, 50, 40))
    return img


def deep_field(w, h, rng):
    u = min(w, h)
    img = gradient(w, h, [(0, (2, 4, 14)), (0.7, (14, 20, 46)), (1, (20, 30, 60))])
    d = ImageDraw.Draw(img)
    veil(img, (80, 60, 140), lambda m: m.ellipse(box(-w * 0.2, h * 0.1, w * 1.2, h * 0.5)), alpha=0.25, blur=u * 0.2)
    d = ImageDraw.Draw(img)
    stars(d, w, h * 0.8, int(w * h / 500), rng)
    for _ in range(16):                                             # small galaxies
        x, y = rng.uniform(0, w), rng.uniform(0, h * 0.7)
        r, a = u * rng.uniform(0.01, 0.04), rng.uniform(0, 180)
        col = rng.choice(((250, 220, 170), (170, 200, 255), (255, 170, 150)))
        layer = Image.new("L", img.size, 0)
        ImageDraw.Draw(layer).ellipse(box(x - r, y - r * 0.35, x + r, y + r * 0.35), fill=200)
        layer = layer.rotate(a, center=(s(x), s(y))).filter(ImageFilter.GaussianBlur(s(r * 0.25)))
        img.paste(col, (0, 0) + img.size, layer)
        ImageDraw.Draw(img).ellipse(circle(x, y, max(0.8, r * 0.15)), fill=(255, 250, 240))
    gx, gy, gr = w * 0.62, h * 0.3, u * 0.14                          # one big spiral
    for k in range(2):
        arm = [(gx + gr * (t / 60) * math.cos(t / 60 * 4.2 + k * math.pi),
                gy + gr * 0.55 * (t / 60) * math.sin(t / 60 * 4.2 + k * math.pi)) for t in range(60)]
        veil(img, (200, 210, 255), lambda m, arm=arm: m.line(pts(*arm), width=s(gr * 0.14), joint="curve"),
             alpha=0.6, blur=gr * 0.06)
    glow(img, gx, gy, gr * 0.3, (255, 240, 210), 0.9)
    d = ImageDraw.Draw(img)
    snow = h * 0.82                                                 # snow and the observatory dome
    fill_below(d, ridge(w, snow, snow - h * 0.03, h * 0.02, rng, levels=5), h, (190, 200, 220))
    ox, oy, orr = w * 0.22, snow - h * 0.005, u * 0.1
    d.rectangle(box(ox - orr, oy - orr * 0.5, ox + orr, oy + 2), fill=(200, 206, 220))
    d.chord(circle(ox, oy - orr * 0.5, orr), 180, 360, fill=(226, 230, 240))
    d.polygon(pts((ox - orr * 0.15, oy - orr * 1.5), (ox + orr * 0.15, oy - orr * 1.5), (ox + orr * 0.1, oy - orr * 0.5),
                  (ox - orr * 0.1, oy - orr * 0.5)), fill=(30, 36, 60))
    d.rectangle(box(ox - orr * 0.15, oy - orr * 0.2, ox + orr * 0.15, oy + 2), fill=(250, 210, 120))
    return img


def neon_harbor(w, h, rng):
    u, water = min(w, h), h * 0.62
    img = gradient(w, h, [(0, (10, 4, 30)), (0.62, (60, 20, 80)), (0.621, (20, 8, 40)), (1, (6, 2, 16))])
    d = ImageDraw.Draw(img)
    neon = ((255, 60, 170), (40, 230, 240), (250, 230, 90), (150, 90, 255))
    x = 0
    towers = []
    while x < w:
        bw, bh = rng.uniform(16, 44), h * rng.uniform(0.15, 0.5)
        towers.append((x, bw, bh, rng.choice(neon)))
        x += bw + rng.uniform(2, 10)
    for x, bw, bh, col in towers:
        d.rectangle(box(x, water - bh, x + bw, water), fill=(24, 14, 44))
        d.line(pts((x, water - bh), (x + bw, water - bh)), fill=col, width=s(1.6))
        if rng.random() < 0.5:
            d.line(pts((x + bw * 0.2, water - bh * 0.7), (x + bw * 0.2, water - bh * 0.2)), fill=col, width=s(2))
        for yy in range(int(water - bh + 8), int(water - 4), 10):
            for xx in range(int(x + 4), int(x + bw - 4), 7):
                if rng.random() < 0.25:
                    d.rectangle(box(xx, yy, xx + 2.5, yy + 3.5), fill=mix(col, (255, 255, 255), 0.5))
    # The reflection: the skyline mirrored, blurred and darkened, broken by dark ripple lines.
    part = img.crop((0, s(2 * water - h), s(w), s(water))).transpose(Image.FLIP_TOP_BOTTOM)
    part = Image.blend(part.filter(ImageFilter.GaussianBlur(s(2))), Image.new("RGB", part.size, (6, 2, 16)), 0.45)
    img.paste(part, (0, s(water)))
    d = ImageDraw.Draw(img)
    for _ in range(int(w * 0.3)):
        y, x = rng.uniform(water + 2, h), rng.uniform(0, w)
        d.line(pts((x, y), (x + rng.uniform(10, 40), y)), fill=(6, 2, 16), width=s(1.5))
    for col, y0 in ((neon[0], 0.78), (neon[1], 0.88)):               # floating walkways
        d.line(pts((w * 0.05, h * y0), (w * 0.95, h * y0 - h * 0.04)), fill=col, width=s(u * 0.008))
    return img


def wildflowers(w, h, rng):
    u, horizon = min(w, h), h * 0.55
    img = gradient(w, h, [(0, (90, 170, 230)), (0.55, (220, 236, 246)), (0.551, (200, 110, 70)), (1, (170, 80, 50))])
    d = ImageDraw.Draw(img)
    glow(img, w * 0.82, h * 0.16, u * 0.12, (255, 250, 220), 0.8)
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, horizon - h * 0.02, horizon - h * 0.06, h * 0.03, rng, levels=6), horizon + 1, (160, 100, 110))
    d.rectangle(box(0, horizon, w, horizon + h * 0.02), fill=(190, 120, 80))
    # A dirt road to the horizon.
    d.polygon(pts((w * 0.48, horizon), (w * 0.52, horizon), (w * 0.8, h), (w * 0.2, h)), fill=(214, 150, 100))
    palette = ((250, 220, 60), (240, 90, 120), (250, 250, 240), (170, 110, 220), (250, 150, 40))
    for _ in range(int(w * h / 260)):                               # flowers thicken towards the viewer
        y = horizon + (h - horizon) * rng.random() ** 0.7
        x = rng.uniform(0, w)
        t = (y - horizon) / (h - horizon)
        if abs(x - w / 2) < w * (0.02 + 0.3 * t):
            continue
        r = u * (0.002 + 0.016 * t)
        d.ellipse(circle(x, y, r), fill=rng.choice(palette))
    tx, ty = w * 0.12, horizon                                      # a lone gum tree
    d.line(pts((tx, ty), (tx + u * 0.01, ty - u * 0.2)), fill=(230, 220, 210), width=s(u * 0.02))
    for dx, dy, r in ((0, -0.22, 0.07), (-0.05, -0.19, 0.05), (0.05, -0.2, 0.05)):
        d.ellipse(circle(tx + u * dx, ty + u * dy, u * r), fill=(110, 140, 100))
    for _ in range(6):                                              # bees
        x, y = rng.uniform(w * 0.3, w * 0.9), rng.uniform(h * 0.6, h * 0.9)
        d.ellipse(box(x - 3, y - 2, x + 3, y + 2), fill=(40, 30, 20))
        d.ellipse(box(x - 2, y - 4, x + 1, y - 1), fill=(250, 250, 250))
    return img


def glass_orchard(w, h, rng):
    u = min(w, h)
    img = gradient(w, h, [(0, (240, 196, 150)), (0.6, (250, 226, 190)), (0.61, (170, 150, 90)), (1, (120, 100, 60))])
    d = ImageDraw.Draw(img)
    glow(img, w * 0.2, h * 0.25, u * 0.2, (255, 240, 200), 0.7)
    d = ImageDraw.Draw(img)
    fill_below(d, ridge(w, h * 0.58, h * 0.5, h * 0.05, rng, levels=6), h * 0.61, (200, 170, 120))
    rows = ((0.6, 0.1, 7), (0.7, 0.15, 5), (0.86, 0.24, 3))
    for k, (base, size, n) in enumerate(rows):                       # rows of trees, nearer bigger
        for i in range(n):
            x = w * (i + 0.5 + (0.5 if k % 2 else 0) * 0.5) / n + rng.uniform(-8, 8)
            r = u * size * 0.5
            trunk = (110 - k * 20, 80 - k * 14, 60 - k * 10)
            d.rectangle(box(x - r * 0.08, h * base - r * 0.3, x + r * 0.08, h * base + r * 0.5), fill=trunk)
            crown = mix((190, 120, 50), (120, 110, 40), k / 2)
            d.ellipse(circle(x, h * base - r * 0.8, r), fill=crown)
            d.ellipse(circle(x - r * 0.3, h * base - r * 1.1, r * 0.5), fill=lighter(crown, 0.12))
            for _ in range(3 + k * 2):                              # glass apples: clear discs with glints
                ax = x + rng.uniform(-r * 0.7, r * 0.7)
                ay = h * base - r * 0.8 + rng.uniform(-r * 0.6, r * 0.6)
                ar = r * 0.14
                veil(img, rng.choice(((180, 230, 230), (250, 170, 160), (200, 240, 190))),
                     lambda m, ax=ax, ay=ay, ar=ar: m.ellipse(circle(ax, ay, ar)), alpha=0.75)
                d = ImageDraw.Draw(img)
                d.ellipse(circle(ax, ay, ar), outline=(255, 255, 255), width=s(max(0.8, ar * 0.12)))
                d.ellipse(circle(ax - ar * 0.35, ay - ar * 0.35, ar * 0.2), fill=(255, 255, 255))
    return img


# slug: (drawing, accent colour of the poster's title band) — the order of shows.json
SHOWS = {
    "midnight-ferry": (midnight_ferry, (250, 214, 120)),
    "baram-ui-jeongwon": (windy_garden, (246, 160, 186)),
    "cafe-lumiere": (cafe_window, (250, 200, 120)),
    "the-clockmaker": (clockwork, (210, 170, 100)),
    "hangang-tamjeongdan": (river_bridge, (255, 200, 140)),
    "orbit-kitchen": (orbit_kitchen, (120, 180, 255)),
    "salt-and-ember": (salt_flat, (250, 120, 70)),
    "paper-lanterns": (lanterns, (250, 170, 80)),
    "deep-field": (deep_field, (170, 190, 255)),
    "neon-harbor": (neon_harbor, (40, 230, 240)),
    "wildflower-season": (wildflowers, (250, 220, 60)),
    "glass-orchard": (glass_orchard, (180, 230, 230)),
}


# --- the poster's title ---------------------------------------------------------------------

def font_file(hangul):
    """DejaVu Sans Bold for Latin titles, a Nanum bold for Hangul ones (DejaVu has no Hangul)."""
    names = ["NanumSquare:bold", "NanumGothic:bold"] if hangul else ["DejaVu Sans:bold"]
    for name in names:
        try:
            path = subprocess.run(["fc-match", "-f", "%{file}", name], capture_output=True, text=True,
                                  timeout=10, check=True).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if name.split(":")[0].replace(" ", "") in path.replace(" ", ""):
            return path
    return None


def load_font(path, size):
    if path:
        return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return ImageFont.load_default()


def layout_title(d, title, path, max_w, max_size):
    """The largest size (≤ max_size) at which the title, broken at spaces into ≤ 3 lines, fits."""
    words = title.split()
    for size in range(max_size, 10, -2):
        f = load_font(path, size)
        lines, cur = [], ""
        for word in words:
            trial = (cur + " " + word).strip()
            if d.textlength(trial, font=f) <= max_w or not cur:
                cur = trial
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
        if len(lines) <= 3 and all(d.textlength(line, font=f) <= max_w for line in lines):
            return f, lines
    return load_font(path, 12), [title]


def poster_title(img, title, accent):
    w, h = POSTER
    hangul = any("\uac00" <= ch <= "\ud7a3" for ch in title)
    d = ImageDraw.Draw(img)
    f, lines = layout_title(d, title.upper() if not hangul else title, font_file(hangul), s(w - 36), s(48))
    ascent, descent = f.getmetrics()
    line_h = int((ascent + descent) * 1.02)
    block = line_h * len(lines)
    top = s(h - 22) - block
    # A dark band under the title, fading in over the picture.
    shade = Image.new("L", img.size, 0)
    sd = ImageDraw.Draw(shade)
    fade = s(70)
    for y in range(top - fade, img.size[1]):
        t = min(1.0, max(0.0, (y - (top - fade)) / fade))
        sd.line([(0, y), (img.size[0], y)], fill=int(215 * t))
    img.paste((10, 10, 16), (0, 0) + img.size, shade)
    d = ImageDraw.Draw(img)
    d.rectangle(box(18, h - 22 - block / SCALE - 12, 58, h - 22 - block / SCALE - 8), fill=accent)
    for i, line in enumerate(lines):
        # Nanum's bold is lighter than DejaVu's: a thin stroke in the same colour evens them out.
        d.text((s(18), top + i * line_h), line, font=f, fill=(250, 248, 242),
               stroke_width=s(0.8) if hangul else 0, stroke_fill=(250, 248, 242))
    return img


def main():
    (ROOT / "posters").mkdir(parents=True, exist_ok=True)
    (ROOT / "backdrops").mkdir(parents=True, exist_ok=True)
    import json
    titles = {}
    for show in json.loads((ROOT / "shows.json").read_text(encoding="utf-8")):
        titles[Path(show["poster"]).stem] = show["title"]
    total = 0
    for index, (slug, (draw, accent)) in enumerate(SHOWS.items()):
        seed = 3000 + index * 10
        wide = draw(*BACKDROP, random.Random(seed)).resize(BACKDROP, Image.LANCZOS)
        tall = poster_title(draw(*POSTER, random.Random(seed + 1)), titles[slug], accent).resize(POSTER, Image.LANCZOS)
        for img, path in ((wide, ROOT / "backdrops" / f"{slug}.jpg"), (tall, ROOT / "posters" / f"{slug}.jpg")):
            size = save_jpeg(img, path)
            total += size
            print(f"{path.relative_to(ROOT.parent)}  {img.size[0]}×{img.size[1]}  {size} bytes")
    print(f"{len(SHOWS)} shows, {total} bytes")


if __name__ == "__main__":
    main()
