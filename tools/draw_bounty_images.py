#!/usr/bin/env python3
"""Draws the example site's eight bounty portraits into content/bounties/images/<name>.jpg.

A development tool only: the site build never runs it and never needs Pillow. The JPEGs it
writes are what the example site uses; rerun it (from anywhere) after changing a drawing:

    pip install pillow
    python3 tools/draw_bounty_images.py

The pictures are original, deliberately simple geometric busts on a "WANTED"-poster card, told
apart by palette and one signature accessory each, so the example ships no copied artwork.
Output is deterministic: every random choice comes from a fixed seed.
"""

import math
import random
import subprocess
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from drawkit import SCALE, s, box, pts, mix, darker, lighter, save_jpeg

WIDTH, HEIGHT = 420, 600          # 7:10 portrait card
PORTRAIT = (42, 108, 378, 486)     # the picture's frame on the card, in card pixels
OUT = Path(__file__).resolve().parent.parent / "content" / "bounties" / "images"

PARCHMENT = (231, 212, 170)
INK = (66, 40, 24)


def font(size, bold=True):
    """DejaVu Serif when fontconfig can find it; Pillow's built-in font otherwise."""
    try:
        path = subprocess.run(
            ["fc-match", "-f", "%{file}", "DejaVu Serif:bold" if bold else "DejaVu Serif"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
        if "DejaVu" in path:
            return ImageFont.truetype(path, size)
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return ImageFont.load_default()


# --- the card -------------------------------------------------------------------------------

def parchment(seed):
    """Mottled paper: blurred low-frequency noise, a faint grain, a few stains, darker edges."""
    rng = random.Random(seed)
    w, h = WIDTH * SCALE, HEIGHT * SCALE
    coarse = Image.new("L", (21, 30))
    coarse.putdata([rng.randint(0, 255) for _ in range(21 * 30)])
    coarse = coarse.resize((w, h), Image.BICUBIC).filter(ImageFilter.GaussianBlur(s(10)))
    base = Image.new("RGB", (w, h), PARCHMENT)
    shade = Image.new("RGB", (w, h), darker(PARCHMENT, 0.14))
    paper = Image.composite(shade, base, coarse.point(lambda v: int(v * 0.55)))

    stains = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(stains)
    for _ in range(5):
        x, y, r = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT), rng.uniform(18, 55)
        d.ellipse(box(x - r, y - r * 0.8, x + r, y + r * 0.8), fill=rng.randint(25, 55))
    stains = stains.filter(ImageFilter.GaussianBlur(s(12)))
    paper = Image.composite(Image.new("RGB", (w, h), (170, 130, 80)), paper, stains)
    return paper


def vignette():
    w, h = WIDTH * SCALE, HEIGHT * SCALE
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rectangle(box(26, 26, WIDTH - 26, HEIGHT - 26), fill=255)
    return mask.filter(ImageFilter.GaussianBlur(s(24)))


def card_frame(d):
    d.rectangle(box(12, 12, WIDTH - 12, HEIGHT - 12), outline=INK, width=s(3))
    d.rectangle(box(19, 19, WIDTH - 19, HEIGHT - 19), outline=mix(INK, PARCHMENT, 0.35), width=s(1))
    # Corner studs.
    for x, y in ((19, 19), (WIDTH - 19, 19), (19, HEIGHT - 19), (WIDTH - 19, HEIGHT - 19)):
        d.ellipse(box(x - 4, y - 4, x + 4, y + 4), fill=INK)


def title(d):
    f = font(s(58))
    text = "WANTED"
    left, top, right, bottom = d.textbbox((0, 0), text, font=f)
    x = (WIDTH * SCALE - (right - left)) / 2 - left
    y = s(68) - (bottom + top) / 2
    d.text((x + s(2), y + s(2)), text, font=f, fill=mix(INK, PARCHMENT, 0.6))
    d.text((x, y), text, font=f, fill=INK)


def ornament(d, accent):
    """The space under the picture: rules and a row of diamonds, in place of name and bounty."""
    y = 520
    d.line(box(50, y - 14, WIDTH - 50, y - 14), fill=INK, width=s(2))
    d.line(box(50, y + 30, WIDTH - 50, y + 30), fill=INK, width=s(2))
    for i in range(7):
        x = WIDTH / 2 + (i - 3) * 40
        r = 9 if i == 3 else 5
        d.polygon(pts((x, y + 8 - r), (x + r, y + 8), (x, y + 8 + r), (x - r, y + 8)),
                  fill=accent if i == 3 else INK)
    for i in range(22):
        x = 66 + i * (WIDTH - 132) / 21
        d.ellipse(box(x - 1.6, 566, x + 1.6, 569.2), fill=mix(INK, PARCHMENT, 0.3))


# --- the portrait layer ---------------------------------------------------------------------
# Coordinates below are relative to the portrait frame (336 × 378); the head is centred at (CX, CY).

PW, PH = PORTRAIT[2] - PORTRAIT[0], PORTRAIT[3] - PORTRAIT[1]
CX, CY = PW / 2, 178


def backdrop(colour, seed):
    """A soft spotlight behind the head, and faint rays."""
    rng = random.Random(seed)
    w, h = s(PW), s(PH)
    img = Image.new("RGB", (w, h), darker(colour, 0.35))
    glow = Image.new("L", (w, h), 0)
    ImageDraw.Draw(glow).ellipse(box(CX - 150, CY - 170, CX + 150, CY + 150), fill=255)
    img = Image.composite(Image.new("RGB", (w, h), lighter(colour, 0.18)), img,
                          glow.filter(ImageFilter.GaussianBlur(s(50))))
    rays = Image.new("L", (w, h), 0)
    rd = ImageDraw.Draw(rays)
    start = rng.uniform(0, 30)
    for i in range(12):
        a0 = math.radians(start + i * 30)
        a1 = a0 + math.radians(11)
        rd.polygon(pts((CX, CY), (CX + 400 * math.cos(a0), CY + 400 * math.sin(a0)),
                       (CX + 400 * math.cos(a1), CY + 400 * math.sin(a1))), fill=22)
    img = Image.composite(Image.new("RGB", (w, h), lighter(colour, 0.45)), img,
                          rays.filter(ImageFilter.GaussianBlur(s(3))))
    return img


def shoulders(d, colour, top=292):
    d.ellipse(box(CX - 150, top, CX + 150, top + 240), fill=colour)


def neck(d, skin):
    d.rectangle(box(CX - 22, CY + 40, CX + 22, CY + 122), fill=skin)
    d.chord(box(CX - 22, CY + 95, CX + 22, CY + 130), 0, 180, fill=darker(skin, 0.12))


def head(d, skin, rx=60, ry=74, ears=True, square=False):
    if ears:
        for side in (-1, 1):
            ex = CX + side * (rx - 4)
            d.ellipse(box(ex - 11, CY - 8, ex + 11, CY + 22), fill=darker(skin, 0.06))
    if square:
        d.rounded_rectangle(box(CX - rx, CY - ry, CX + rx, CY + ry), radius=s(34), fill=skin)
    else:
        d.ellipse(box(CX - rx, CY - ry, CX + rx, CY + ry), fill=skin)
    # Cheek blush.
    for side in (-1, 1):
        bx = CX + side * 34
        d.ellipse(box(bx - 11, CY + 22, bx + 11, CY + 30), fill=mix(skin, (230, 120, 110), 0.35))


def eye(d, x, y, iris, size=1.0, look=0):
    rw, rh = 12 * size, 9 * size
    d.ellipse(box(x - rw, y - rh, x + rw, y + rh), fill=(250, 248, 240), outline=(40, 30, 30), width=s(1.5))
    ir = 6.5 * size
    d.ellipse(box(x + look - ir, y - ir, x + look + ir, y + ir), fill=iris)
    pr = 3.2 * size
    d.ellipse(box(x + look - pr, y - pr, x + look + pr, y + pr), fill=(20, 15, 15))
    d.ellipse(box(x + look + 1, y - 4 * size, x + look + 3.6, y - 4 * size + 2.6), fill=(255, 255, 255))


def brow(d, x, y, tilt=0, colour=(40, 30, 25), width=4):
    d.line(pts((x - 13, y + tilt), (x + 13, y - tilt)), fill=colour, width=s(width))


def smile(d, wide=30, y=CY + 40, colour=(110, 40, 40)):
    d.arc(box(CX - wide / 2, y - 14, CX + wide / 2, y + 8), 20, 160, fill=colour, width=s(3))


def grin(d, wide=54, y=CY + 30, depth=28):
    d.chord(box(CX - wide / 2, y - depth, CX + wide / 2, y + depth), 0, 180, fill=(120, 30, 35))
    d.chord(box(CX - wide / 2 + 3, y - depth + 2, CX + wide / 2 - 3, y + 10), 0, 180, fill=(252, 250, 245))
    d.line(pts((CX - wide / 2, y), (CX + wide / 2, y)), fill=(70, 25, 25), width=s(2))


def nose(d, skin):
    d.line(pts((CX + 2, CY + 8), (CX - 4, CY + 20), (CX + 3, CY + 21)), fill=darker(skin, 0.3), width=s(2))


def flower(d, x, y, r, petal, centre=(250, 220, 90)):
    for k in range(5):
        a = math.radians(k * 72 - 90)
        px, py = x + r * 0.75 * math.cos(a), y + r * 0.75 * math.sin(a)
        d.ellipse(box(px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55), fill=petal)
    d.ellipse(box(x - r * 0.3, y - r * 0.3, x + r * 0.3, y + r * 0.3), fill=centre)


# --- the crew -------------------------------------------------------------------------------

def luffy(d, rng):
    skin = (242, 200, 158)
    shoulders(d, (196, 38, 44))
    d.polygon(pts((CX - 40, 292), (CX + 40, 292), (CX, 378)), fill=skin)      # open vest
    d.line(pts((CX - 40, 292), (CX, 378), (CX + 40, 292)), fill=(150, 25, 30), width=s(3))
    for y in (318, 346):                                                      # vest buttons
        d.ellipse(box(CX - 58, y - 5, CX - 48, y + 5), fill=(245, 215, 120))
    neck(d, skin)
    d.ellipse(box(CX - 66, CY - 80, CX + 66, CY + 20), fill=(25, 22, 24))     # hair, behind
    head(d, skin)
    spikes = [(CX - 62, CY - 10)]
    for i in range(9):
        x = CX - 58 + i * 14.5
        spikes += [(x, CY - 40), (x + 7, CY - 18 - rng.uniform(0, 10))]
    spikes += [(CX + 62, CY - 10), (CX + 62, CY - 60), (CX - 62, CY - 60)]
    d.polygon(pts(*spikes), fill=(25, 22, 24))
    eye(d, CX - 24, CY + 2, (60, 40, 30))
    eye(d, CX + 24, CY + 2, (60, 40, 30))
    brow(d, CX - 24, CY - 16, -2)
    brow(d, CX + 24, CY - 16, 2)
    d.arc(box(CX - 36, CY + 12, CX - 14, CY + 24), 200, 340, fill=(150, 70, 60), width=s(2))   # scar
    for x in (CX - 31, CX - 25, CX - 19):
        d.line(pts((x, CY + 11), (x, CY + 17)), fill=(150, 70, 60), width=s(1.5))
    nose(d, skin)
    grin(d)
    # The straw hat: a wide brim across the brow, a domed crown, a red band.
    straw, band = (236, 196, 92), (200, 36, 40)
    d.ellipse(box(CX - 118, CY - 86, CX + 118, CY - 40), fill=darker(straw, 0.12))
    d.ellipse(box(CX - 114, CY - 88, CX + 114, CY - 46), fill=straw)
    d.chord(box(CX - 64, CY - 150, CX + 64, CY - 40), 180, 360, fill=straw)
    d.rectangle(box(CX - 64, CY - 96, CX + 64, CY - 78), fill=band)
    for k in range(1, 9):                                                     # weave
        r = 114 * k / 9
        d.arc(box(CX - r, CY - 67 - r * 0.18, CX + r, CY - 67 + r * 0.18), 0, 180,
              fill=darker(straw, 0.18), width=s(1))
    for k in range(-3, 4):
        x = CX + k * 16
        d.line(pts((x, CY - 98), (x * 0.9 + CX * 0.1, CY - 142)), fill=darker(straw, 0.15), width=s(1))


def zoro(d, rng):
    skin = (222, 178, 136)
    # Three swords slung behind the shoulder, hilts up: white, black, red.
    for k, hilt in enumerate(((245, 245, 240), (30, 30, 34), (180, 30, 40))):
        x0, y0 = CX - 150 + k * 18, 390
        x1, y1 = CX + 96 + k * 20, 150 + k * 12
        d.line(pts((x0, y0), (x1, y1)), fill=(52, 44, 40), width=s(12))
        gx, gy = x0 + (x1 - x0) * 0.72, y0 + (y1 - y0) * 0.72
        d.ellipse(box(gx - 11, gy - 11, gx + 11, gy + 11), fill=(200, 170, 80))
        d.line(pts((gx, gy), (x1 + 20, y1 - 22)), fill=hilt, width=s(11))
    shoulders(d, (236, 234, 224))
    d.polygon(pts((CX - 30, 292), (CX + 30, 292), (CX, 340)), fill=skin)       # open collar
    neck(d, skin)
    d.ellipse(box(CX - 64, CY - 78, CX + 64, CY + 10), fill=(96, 166, 92))    # green hair
    head(d, skin, rx=58, ry=74)
    for k in range(3):                                                        # earrings
        d.ellipse(box(CX - 70, CY + 16 + k * 8, CX - 60, CY + 24 + k * 8), outline=(230, 190, 60), width=s(2))
    eye(d, CX + 24, CY + 4, (40, 40, 40), size=0.9)
    d.line(pts((CX - 36, CY + 4), (CX - 12, CY + 4)), fill=(40, 30, 25), width=s(3))        # shut eye
    d.line(pts((CX - 26, CY - 22), (CX - 22, CY + 26)), fill=(150, 70, 60), width=s(2))     # scar
    brow(d, CX - 24, CY - 14, -5, width=5)
    brow(d, CX + 24, CY - 14, 5, width=5)
    nose(d, skin)
    d.line(pts((CX - 14, CY + 44), (CX + 16, CY + 41)), fill=(110, 40, 40), width=s(3))    # stern mouth
    # The bandana: tied low over the brow, knot and tails at the side.
    cloth = (34, 92, 54)
    d.chord(box(CX - 66, CY - 96, CX + 66, CY + 4), 180, 360, fill=cloth)
    d.rectangle(box(CX - 66, CY - 48, CX + 66, CY - 30), fill=cloth)
    d.line(pts((CX - 66, CY - 30), (CX + 66, CY - 30)), fill=darker(cloth, 0.3), width=s(2))
    for k in range(4):
        d.arc(box(CX - 52 + k * 26, CY - 86, CX - 20 + k * 26, CY - 40), 200, 320,
              fill=lighter(cloth, 0.18), width=s(1.5))
    kx, ky = CX + 66, CY - 40
    d.ellipse(box(kx - 12, ky - 10, kx + 10, ky + 10), fill=darker(cloth, 0.1))
    d.polygon(pts((kx, ky), (kx + 38, ky + 30), (kx + 26, ky + 40)), fill=cloth)
    d.polygon(pts((kx, ky), (kx + 44, ky + 8), (kx + 40, ky + 20)), fill=darker(cloth, 0.12))


def nami(d, rng):
    skin = (246, 206, 172)
    hair = (240, 128, 40)
    d.rounded_rectangle(box(CX - 84, CY - 84, CX + 84, 352), radius=s(60), fill=hair)   # long hair
    # Blue and white stripes, each cut to the shoulders' ellipse.
    shoulders(d, (246, 246, 240))
    for k in range(9):
        y0, y1 = 300 + k * 16, 307 + k * 16
        half = [150 * math.sqrt(max(0.0, 1 - ((y - 412) / 120) ** 2)) for y in (y0, y1)]
        d.polygon(pts((CX - half[0], y0), (CX + half[0], y0), (CX + half[1], y1), (CX - half[1], y1)),
                  fill=(54, 104, 190))
    d.polygon(pts((CX - 34, 292), (CX + 34, 292), (CX, 330)), fill=skin)
    neck(d, skin)
    head(d, skin, rx=57, ry=72)
    for side in (-1, 1):                                                      # hoop earrings
        ex = CX + side * 58
        d.ellipse(box(ex - 7, CY + 22, ex + 7, CY + 38), outline=(235, 195, 70), width=s(2.5))
    d.polygon(pts((CX - 62, CY - 10), (CX - 60, CY - 60), (CX - 20, CY - 80), (CX + 40, CY - 78),
                  (CX + 64, CY - 40), (CX + 62, CY - 6), (CX + 40, CY - 36), (CX + 8, CY - 24),
                  (CX - 20, CY - 40), (CX - 40, CY - 22)), fill=hair)             # swept bangs
    d.polygon(pts((CX - 64, CY - 40), (CX - 78, CY + 60), (CX - 58, CY + 10)), fill=hair)
    d.polygon(pts((CX + 64, CY - 40), (CX + 78, CY + 60), (CX + 58, CY + 10)), fill=hair)
    for k in range(5):
        x = CX - 40 + k * 20
        d.arc(box(x - 18, CY - 76, x + 18, CY - 30), 200, 300, fill=lighter(hair, 0.3), width=s(1.5))
    eye(d, CX - 23, CY + 4, (150, 90, 40), size=1.1)
    eye(d, CX + 23, CY + 4, (150, 90, 40), size=1.1)
    for x in (CX - 23, CX + 23):                                              # lashes
        d.arc(box(x - 14, CY - 8, x + 14, CY + 14), 200, 340, fill=(40, 25, 20), width=s(2.5))
    brow(d, CX - 23, CY - 14, 1, colour=darker(hair, 0.35), width=3)
    brow(d, CX + 23, CY - 14, -1, colour=darker(hair, 0.35), width=3)
    nose(d, skin)
    smile(d, wide=28)
    # A tangerine in the corner.
    tx, ty = 284, 318
    d.ellipse(box(tx - 24, ty - 22, tx + 24, ty + 24), fill=(246, 146, 30))
    d.ellipse(box(tx - 12, ty - 12, tx - 2, ty - 4), fill=(252, 190, 110))
    d.polygon(pts((tx, ty - 22), (tx + 22, ty - 38), (tx + 8, ty - 18)), fill=(70, 150, 60))


def robin(d, rng):
    skin = (236, 196, 162)
    hair = (22, 20, 34)
    # Petals drifting around her.
    for _ in range(9):
        x, y = rng.uniform(20, PW - 20), rng.uniform(30, PH - 120)
        if abs(x - CX) < 100 and y < 300:
            x = CX + math.copysign(rng.uniform(110, 150), x - CX)
        flower(d, x, y, rng.uniform(7, 12), rng.choice([(214, 120, 190), (186, 110, 220), (240, 170, 210)]))
    d.rounded_rectangle(box(CX - 80, CY - 86, CX + 80, 360), radius=s(50), fill=hair)    # straight hair
    shoulders(d, (118, 60, 146))
    d.polygon(pts((CX - 36, 292), (CX + 36, 292), (CX, 336)), fill=skin)
    d.rectangle(box(CX - 80, 290, CX - 54, 372), fill=hair)
    d.rectangle(box(CX + 54, 290, CX + 80, 372), fill=hair)
    neck(d, skin)
    head(d, skin, rx=56, ry=72, ears=False)
    d.chord(box(CX - 62, CY - 84, CX + 62, CY + 20), 180, 360, fill=hair)    # blunt fringe
    d.rectangle(box(CX - 62, CY - 34, CX + 62, CY - 20), fill=hair)
    d.rectangle(box(CX - 62, CY - 34, CX - 48, CY + 40), fill=hair)
    d.rectangle(box(CX + 48, CY - 34, CX + 62, CY + 40), fill=hair)
    for k in range(6):
        x = CX - 50 + k * 20
        d.line(pts((x, CY - 74), (x + 4, CY - 22)), fill=lighter(hair, 0.15), width=s(1.2))
    eye(d, CX - 22, CY + 4, (60, 110, 200))
    eye(d, CX + 22, CY + 4, (60, 110, 200))
    for x in (CX - 22, CX + 22):
        d.arc(box(x - 14, CY - 8, x + 14, CY + 14), 200, 340, fill=(25, 20, 30), width=s(2.5))
    nose(d, skin)
    smile(d, wide=22, colour=(150, 60, 80))


def franky(d, rng):
    skin = (236, 188, 146)
    blue = (44, 120, 228)
    # Hawaiian shirt: red with yellow flowers, collar open.
    shirt = (214, 58, 48)
    shoulders(d, shirt)
    for _ in range(7):
        flower(d, CX + rng.uniform(-130, 130), rng.uniform(312, 370), rng.uniform(8, 11),
               (250, 210, 80), centre=(250, 250, 230))
    d.polygon(pts((CX - 46, 292), (CX + 46, 292), (CX, 368)), fill=skin)
    d.polygon(pts((CX - 8, 320), (CX - 2, 334), (CX + 8, 318), (CX - 2, 344)), fill=(60, 120, 220))  # chest star
    neck(d, skin)
    head(d, skin, rx=62, ry=72, square=True)
    # The quiff: a tall wave sweeping up and forward.
    d.polygon(pts((CX - 64, CY - 10), (CX - 70, CY - 64), (CX - 40, CY - 104), (CX + 20, CY - 140),
                  (CX + 86, CY - 140), (CX + 58, CY - 112), (CX + 68, CY - 60), (CX + 64, CY - 10),
                  (CX + 50, CY - 44), (CX - 50, CY - 44)), fill=blue)
    for k in range(4):
        d.arc(box(CX - 50 + k * 14, CY - 134 + k * 6, CX + 90 - k * 6, CY - 20), 200, 290,
              fill=lighter(blue, 0.35), width=s(2))
    # Sunglasses pushed up onto the hair.
    for side in (-1, 1):
        gx = CX + side * 26
        d.rounded_rectangle(box(gx - 22, CY - 58, gx + 22, CY - 36), radius=s(8), fill=(30, 34, 44))
        d.line(pts((gx - 12, CY - 52), (gx - 2, CY - 52)), fill=(120, 140, 170), width=s(2))
    d.line(pts((CX - 4, CY - 48), (CX + 4, CY - 48)), fill=(30, 34, 44), width=s(3))
    eye(d, CX - 26, CY + 2, (40, 80, 160), size=0.9)
    eye(d, CX + 26, CY + 2, (40, 80, 160), size=0.9)
    brow(d, CX - 26, CY - 15, -3, colour=darker(blue, 0.3), width=5)
    brow(d, CX + 26, CY - 15, 3, colour=darker(blue, 0.3), width=5)
    # The cyborg's steel nose, riveted.
    steel = (168, 178, 190)
    d.rounded_rectangle(box(CX - 11, CY + 4, CX + 11, CY + 30), radius=s(4), fill=steel,
                        outline=darker(steel, 0.35), width=s(1.5))
    d.line(pts((CX - 5, CY + 8), (CX - 5, CY + 26)), fill=lighter(steel, 0.5), width=s(2))
    for y in (CY + 9, CY + 25):
        d.ellipse(box(CX + 3, y - 2, CX + 7, y + 2), fill=darker(steel, 0.4))
    grin(d, wide=62, y=CY + 40, depth=22)
    d.line(pts((CX - 44, CY + 52), (CX - 36, CY + 70)), fill=darker(skin, 0.2), width=s(2))   # square jaw
    d.line(pts((CX + 44, CY + 52), (CX + 36, CY + 70)), fill=darker(skin, 0.2), width=s(2))


def chopper(d, rng):
    fur, face = (146, 88, 48), (226, 186, 140)
    shoulders(d, fur, top=300)
    d.rectangle(box(CX - 44, CY + 60, CX + 44, 310), fill=darker(fur, 0.08))
    for k in range(8):                                                        # fluffy collar
        x = CX - 84 + k * 24
        d.ellipse(box(x - 18, 292, x + 18, 324), fill=lighter(fur, 0.12))
    d.ellipse(box(CX - 70, CY - 48, CX + 70, CY + 92), fill=fur)             # fur round the face
    d.ellipse(box(CX - 56, CY - 30, CX + 56, CY + 84), fill=face)
    # Antlers, branching out from under the hat.
    antler = (120, 72, 38)
    for side in (-1, 1):
        base = (CX + side * 46, CY - 70)
        tip = (CX + side * 122, CY - 150)
        d.line(pts(base, tip), fill=antler, width=s(11))
        for t, length in ((0.35, 40), (0.65, 34)):
            bx, by = base[0] + (tip[0] - base[0]) * t, base[1] + (tip[1] - base[1]) * t
            d.line(pts((bx, by), (bx + side * 6, by - length)), fill=antler, width=s(9))
        d.line(pts(tip, (tip[0] + side * 18, tip[1] + 6)), fill=antler, width=s(8))
    # Big eyes, blue nose, a small smile.
    eye(d, CX - 24, CY + 26, (40, 30, 25), size=1.35)
    eye(d, CX + 24, CY + 26, (40, 30, 25), size=1.35)
    d.ellipse(box(CX - 14, CY + 42, CX + 14, CY + 60), fill=(60, 110, 210))
    d.ellipse(box(CX - 7, CY + 45, CX - 1, CY + 50), fill=(170, 200, 250))
    d.arc(box(CX - 12, CY + 56, CX + 12, CY + 74), 20, 160, fill=(110, 50, 40), width=s(2.5))
    # The pink top hat with a white cross.
    pink = (240, 128, 170)
    d.ellipse(box(CX - 92, CY - 56, CX + 92, CY - 24), fill=darker(pink, 0.12))
    d.rounded_rectangle(box(CX - 66, CY - 150, CX + 66, CY - 40), radius=s(14), fill=pink)
    d.rectangle(box(CX - 66, CY - 66, CX + 66, CY - 50), fill=darker(pink, 0.18))
    d.line(pts((CX - 26, CY - 130), (CX + 26, CY - 80)), fill=(252, 252, 250), width=s(10))
    d.line(pts((CX + 26, CY - 130), (CX - 26, CY - 80)), fill=(252, 252, 250), width=s(10))


def brook(d, rng):
    bone = (242, 238, 226)
    afro = (20, 18, 22)
    # The afro: a cloud of overlapping curls.
    for _ in range(60):
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(40, 98)
        x, y = CX + r * math.cos(a), CY - 40 + r * 0.8 * math.sin(a)
        c = rng.uniform(20, 30)
        d.ellipse(box(x - c, y - c, x + c, y + c), fill=afro)
    for _ in range(30):
        a, r = rng.uniform(math.pi, 2 * math.pi), rng.uniform(60, 110)
        x, y = CX + r * math.cos(a), CY - 40 + r * 0.8 * math.sin(a)
        d.arc(box(x - 10, y - 10, x + 10, y + 10), 180, 320, fill=(60, 58, 70), width=s(1.5))
    # Black tails, white shirt, a purple cravat.
    shoulders(d, (28, 26, 32))
    d.polygon(pts((CX - 34, 292), (CX + 34, 292), (CX, 380)), fill=(246, 244, 238))
    d.polygon(pts((CX - 20, 300), (CX + 20, 300), (CX + 8, 332), (CX - 8, 332)), fill=(112, 68, 150))
    d.ellipse(box(CX - 10, 296, CX + 10, 312), fill=(140, 90, 180))
    d.rectangle(box(CX - 14, CY + 40, CX + 14, CY + 122), fill=darker(bone, 0.08))   # spine
    for y in range(int(CY + 60), int(CY + 118), 14):
        d.line(pts((CX - 14, y), (CX + 14, y)), fill=darker(bone, 0.3), width=s(1.5))
    # The skull.
    d.ellipse(box(CX - 56, CY - 70, CX + 56, CY + 40), fill=bone)
    d.rounded_rectangle(box(CX - 36, CY + 20, CX + 36, CY + 64), radius=s(12), fill=bone)
    for side in (-1, 1):
        d.ellipse(box(CX + side * 24 - 17, CY - 12, CX + side * 24 + 17, CY + 16), fill=(22, 20, 26))
    d.polygon(pts((CX, CY + 20), (CX - 8, CY + 34), (CX + 8, CY + 34)), fill=(40, 36, 40))
    d.rectangle(box(CX - 28, CY + 42, CX + 28, CY + 56), fill=(250, 248, 240), outline=(60, 56, 60), width=s(1.5))
    for k in range(1, 7):
        x = CX - 28 + k * 8
        d.line(pts((x, CY + 42), (x, CY + 56)), fill=(60, 56, 60), width=s(1.2))
    # Top hat, perched on the afro.
    d.ellipse(box(CX - 60, CY - 128, CX + 60, CY - 110), fill=(12, 12, 16))
    d.rectangle(box(CX - 40, CY - 196, CX + 40, CY - 118), fill=(16, 16, 20))
    d.ellipse(box(CX - 40, CY - 204, CX + 40, CY - 190), fill=(34, 34, 40))
    d.rectangle(box(CX - 40, CY - 136, CX + 40, CY - 124), fill=(112, 68, 150))


def sanji(d, rng):
    skin = (244, 208, 172)
    hair = (244, 212, 96)
    # Black suit, blue shirt, black tie.
    shoulders(d, (26, 26, 34))
    d.polygon(pts((CX - 42, 292), (CX + 42, 292), (CX, 380)), fill=(120, 170, 220))
    d.polygon(pts((CX - 8, 300), (CX + 8, 300), (CX + 12, 370), (CX, 380), (CX - 12, 370)), fill=(18, 18, 22))
    d.polygon(pts((CX - 42, 292), (CX - 20, 380), (CX - 60, 330)), fill=(44, 44, 56))   # lapels
    d.polygon(pts((CX + 42, 292), (CX + 20, 380), (CX + 60, 330)), fill=(44, 44, 56))
    neck(d, skin)
    d.ellipse(box(CX - 64, CY - 80, CX + 64, CY + 40), fill=hair)            # hair, behind
    head(d, skin, rx=56, ry=72)
    # His visible eye (his left) with the curly brow; the other is hidden under the fringe.
    eye(d, CX + 24, CY + 4, (60, 110, 190))
    bx, by = CX + 24, CY - 14
    brow_ink = (176, 132, 40)
    d.line(pts((bx - 18, by + 3), (bx + 6, by - 3)), fill=brow_ink, width=s(3.5))
    spiral = []  # winds inwards from the brow's outer end
    for k in range(34):
        a = -math.pi / 2 + k * 0.38
        r = 8.5 - k * 0.22
        spiral.append((bx + 6 + r * math.cos(a), by + 5.5 + r * math.sin(a)))
    d.line(pts(*spiral), fill=brow_ink, width=s(2.5), joint="curve")
    nose(d, skin)
    smile(d, wide=24, colour=(130, 60, 60))
    d.polygon(pts((CX - 4, CY + 62), (CX + 4, CY + 62), (CX, CY + 70)), fill=(200, 160, 60))  # goatee
    # A long swept fringe across his right eye.
    d.polygon(pts((CX - 66, CY + 40), (CX - 70, CY - 40), (CX - 30, CY - 82), (CX + 40, CY - 80),
                  (CX + 66, CY - 40), (CX + 62, CY - 8), (CX + 40, CY - 34), (CX + 6, CY - 30),
                  (CX - 6, CY + 16), (CX - 30, CY + 30)), fill=hair)
    for k in range(5):
        d.arc(box(CX - 70 + k * 8, CY - 70 + k * 4, CX + 20 + k * 8, CY + 40), 180, 250,
              fill=darker(hair, 0.15), width=s(1.5))


CREW = {
    # name: (drawing, portrait colour, ornament accent)
    "brook": (brook, (120, 96, 150), (112, 68, 150)),
    "chopper": (chopper, (92, 170, 170), (240, 128, 170)),
    "franky": (franky, (70, 150, 210), (44, 120, 228)),
    "luffy": (luffy, (214, 86, 66), (200, 36, 40)),
    "nami": (nami, (72, 168, 196), (240, 128, 40)),
    "robin": (robin, (92, 74, 130), (118, 60, 146)),
    "sanji": (sanji, (48, 70, 120), (228, 190, 80)),
    "zoro": (zoro, (84, 140, 96), (34, 92, 54)),
}


def portrait(name, draw, colour, seed):
    layer = backdrop(colour, seed)
    draw(ImageDraw.Draw(layer), random.Random(seed))
    # Age the picture a little towards the paper, like ink on an old print.
    return Image.blend(layer, Image.new("RGB", layer.size, PARCHMENT), 0.14)


def card(name, index):
    draw, colour, accent = CREW[name]
    seed = 1000 + index
    img = parchment(seed)
    edge = Image.new("RGB", img.size, (150, 112, 66))
    img = Image.composite(img, edge, vignette())
    img.paste(portrait(name, draw, colour, seed), (s(PORTRAIT[0]), s(PORTRAIT[1])))
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = PORTRAIT
    d.rectangle(box(x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=INK, width=s(4))
    d.rectangle(box(x0 - 8, y0 - 8, x1 + 8, y1 + 8), outline=mix(INK, PARCHMENT, 0.4), width=s(1))
    card_frame(d)
    title(d)
    ornament(d, accent)
    return img.resize((WIDTH, HEIGHT), Image.LANCZOS)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for index, name in enumerate(sorted(CREW)):
        path = OUT / f"{name}.jpg"
        size = save_jpeg(card(name, index), path)
        print(f"{path}  {size} bytes")


if __name__ == "__main__":
    main()
