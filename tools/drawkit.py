"""Drawing helpers shared by the example site's picture tools (tools/draw_*.py).

Development only, like the tools: the site build never runs them. Coordinates are in output
pixels; pictures are drawn on a surface SCALE times larger, then downsampled for smooth edges.
"""

import math

from PIL import Image, ImageDraw, ImageFilter

SCALE = 2


def s(v):
    return int(round(v * SCALE))


def box(x0, y0, x1, y1):
    return [s(x0), s(y0), s(x1), s(y1)]


def circle(x, y, r):
    return box(x - r, y - r, x + r, y + r)


def pts(*xy):
    return [(s(x), s(y)) for x, y in xy]


def mix(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))


def darker(c, t=0.25):
    return mix(c, (0, 0, 0), t)


def lighter(c, t=0.25):
    return mix(c, (255, 255, 255), t)


class _Opaque:
    """An ImageDraw for masks whose shapes are filled with 255 unless told otherwise."""

    def __init__(self, d):
        self._d = d

    def __getattr__(self, name):
        method = getattr(self._d, name)

        def call(*args, **kwargs):
            kwargs.setdefault("fill", 255)
            return method(*args, **kwargs)
        return call


def veil(img, colour, draw, alpha=1.0, blur=0):
    """Paints colour (or an image of the same size) through a mask drawn by draw(d) (fill=255),
    optionally blurred and faded."""
    mask = Image.new("L", img.size, 0)
    draw(_Opaque(ImageDraw.Draw(mask)))
    if blur:
        mask = mask.filter(ImageFilter.GaussianBlur(s(blur)))
    if alpha < 1:
        mask = mask.point(lambda v: int(v * alpha))
    if isinstance(colour, Image.Image):
        img.paste(colour, (0, 0), mask)
    else:
        img.paste(colour, (0, 0, img.size[0], img.size[1]), mask)


def fill_below(d, line, bottom, fill):
    d.polygon(pts(*(line + [(line[-1][0], bottom), (line[0][0], bottom)])), fill=fill)


def glow(img, x, y, r, colour, alpha=0.6):
    veil(img, colour, lambda m: m.ellipse(circle(x, y, r)), alpha=alpha, blur=r * 0.5)


def jitter(c, rng, amount=12):
    return tuple(max(0, min(255, v + rng.randint(-amount, amount))) for v in c)


def ridge(w, left, right, rough, rng, levels=7):
    """A hill or mountain line by midpoint displacement: [(x, y), …] from x=0 to x=w."""
    ys = [left, right]
    r = rough
    for _ in range(levels):
        nxt = []
        for a, b in zip(ys, ys[1:]):
            nxt += [a, (a + b) / 2 + rng.uniform(-r, r)]
        nxt.append(ys[-1])
        ys = nxt
        r *= 0.55
    n = len(ys) - 1
    return [(w * i / n, y) for i, y in enumerate(ys)]


def rot(cx, cy, points, angle):
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in points]


def gradient(w, h, stops, horizontal=False):
    """A sky or table top through stops [(t, colour), …] (drawing size): one line of pixels
    scaled up, which is far faster than drawing every row."""
    n = s(w) if horizontal else s(h)
    line = Image.new("RGB", (n, 1) if horizontal else (1, n))
    px = []
    for i in range(n):
        t = i / max(1, n - 1)
        for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
            if t <= t1:
                px.append(mix(c0, c1, 0 if t1 == t0 else (t - t0) / (t1 - t0)))
                break
        else:
            px.append(stops[-1][1])
    line.putdata(px)
    return line.resize((s(w), s(h)), Image.BILINEAR)


def band(img, w, y0, y1, stops):
    """A vertical gradient over the rows y0…y1 only: sea, ground and tables get their own shading."""
    img.paste(gradient(w, y1 - y0, stops), (0, s(y0)))


def waves(w, base, parts, rng, step=4):
    """A coastline, dune or hill edge, [(x, y), …]: base plus a few sines of amplitude and
    frequency parts [(amp, freq), …], each jittered by rng so no two pictures repeat."""
    comps = [(amp, rng.uniform(0.6, 1.4) * freq, rng.uniform(0, 2 * math.pi)) for amp, freq in parts]
    out, x = [], 0.0
    while x <= w + step:
        out.append((x, base + sum(a * math.sin(2 * math.pi * f * x / w + p) for a, f, p in comps)))
        x += step
    return out


def stars(d, w, h, n, rng, colour=(255, 255, 240), top=0,
          sizes=(0.5, 0.7, 0.8, 1.0, 1.4), dusk=(80, 90, 140)):
    """n stars in the band top…h: varied sizes and a random pull towards dusk, so the sky has depth.
    Each tool keeps its own sizes and dusk: they are part of its committed pictures."""
    for _ in range(n):
        x, y = rng.uniform(0, w), rng.uniform(top, h)
        r = rng.choice(sizes)
        d.ellipse(circle(x, y, r), fill=mix(colour, dusk, rng.uniform(0, 0.5)))


def leaf(cx, cy, length, width, angle, n=12):
    """A pointed leaf or petal from (cx, cy) outwards at angle; n points a side (fewer for small ones)."""
    side = []
    for i in range(n + 1):
        t = i / n
        side.append((t * length, width / 2 * math.sin(math.pi * t) ** 0.8))
    return rot(cx, cy, side + [(x, -y) for x, y in reversed(side)], angle)


def save_jpeg(img, path):
    """Writes a picture with the one encoder setting every committed JPEG shares; returns its size
    in bytes for the tools' reports."""
    img.save(path, "JPEG", quality=82, progressive=False, optimize=True)
    return path.stat().st_size
