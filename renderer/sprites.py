"""Small pre-rendered images pasted onto the picture: counters and markers.

Each sprite is drawn once at three times its size and shrunk (smooth edges), then cached by
its look, so a turn's picture only pastes them. The cache is bounded and guarded by a lock;
sprites are never modified after they are cached, so threads may paste them concurrently.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops, ImageDraw

from . import fonts
from .cache import LruCache, image_bytes
from .layout import SceneError

SUPER = 3
MARKER_KINDS = ("gas", "flag", "flare", "smoke", "fire", "control", "ladder", "breach", "highlight")
MARKER_DEFAULT_COLORS = {
    "gas": "#b5d334",
    "flag": "#c0392b",
    "flare": "#ff2bd6",
    "smoke": "#8e8e8e",
    "fire": "#f06a1d",
    "control": "#ffffff",
    "ladder": "#8b5a2b",
    "breach": "#e67e22",
    "highlight": "#ffd400",
}


# ----- colours -----------------------------------------------------------------------------


_HEX_COLOURS: dict[str, tuple[int, int, int]] = {}


def rgb(colour, where: str = "color") -> tuple[int, int, int]:
    if isinstance(colour, str):
        # a map names a few colours over and over (a fill per cell): parsed once each
        found = _HEX_COLOURS.get(colour)
        if found is not None:
            return found
    if isinstance(colour, (tuple, list)) and len(colour) >= 3:
        return tuple(int(c) for c in colour[:3])
    text = str(colour).strip()
    if text.startswith("#") and len(text) in (4, 7):
        try:
            if len(text) == 4:
                found = tuple(int(ch * 2, 16) for ch in text[1:])
            else:
                found = tuple(int(text[i : i + 2], 16) for i in (1, 3, 5))
        except ValueError:
            pass
        else:
            if isinstance(colour, str) and len(_HEX_COLOURS) < 4096:
                _HEX_COLOURS[colour] = found
            return found
    raise SceneError(f"{where}: {colour!r} is not a colour; write '#rrggbb'.")


def luminance(c) -> float:
    r, g, b = c
    return 0.299 * r + 0.587 * g + 0.114 * b


def contrast_text(c) -> tuple[int, int, int]:
    return (20, 20, 20) if luminance(c) > 150 else (255, 255, 255)


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def washed(c) -> tuple[int, int, int]:
    """The colour of a counter's back: desaturated and lighter, still hinting at the side."""
    grey = round(luminance(c))
    return mix(mix(c, (grey, grey, grey), 0.7), (235, 235, 235), 0.35)


# ----- cache -------------------------------------------------------------------------------


def _sprite_bytes(kept) -> int:
    """A kept sprite's pixels: an RGBA picture (or a text's picture and its offset)."""
    return image_bytes(kept[0] if isinstance(kept, tuple) else kept)


# Counters, markers and words as drawn, by what they show. Their pixels are counted (a close-up's
# counters are twenty times a map's; 1,024 of a mix are 15-17 MB of a picture worker) but do not
# bound them: at 8 MB a stream of pictures drew two and a half times as many sprites, 7.6 ms
# more CPU a picture, and the workers' peak was no lower (the freed sprites' memory stays in
# the heap; docs/performance.md, sixth pass).
SPRITE_LIMIT = 1024
SPRITES = LruCache(SPRITE_LIMIT, size_of=_sprite_bytes)
# blank counter faces at three times their size (premultiplied) and shrunk, by (side, colour,
# flipped): the counters of a side differ in their words only, and a face is most of what
# drawing one costs besides them. A close-up's faces are big (about 0.9 MB each at its usual
# cell of 130-145 px, 1.8 MB at the largest): at 4 MB, a stream of turn pictures redrew a face
# for every second close-up counter; 12 MB holds both sides of a close-up, flipped or not,
# beside the maps' small faces (bench_cold.py stream: new counters 30% cheaper)
FACES = LruCache(
    64,
    max_bytes=12 << 20,
    # the face and its shrunk copy (a ninth of it), counted from the start
    size_of=lambda kept: kept[0].width * kept[0].height * 40 // 9 if kept else 0,
)


def _shrink(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def _centered_text(draw, xy, text, size, fill, bold=True, stroke=0, stroke_fill=None):
    draw.text(
        xy,
        text,
        font=fonts.font(size, bold),
        fill=fill,
        anchor="mm",
        stroke_width=stroke,
        stroke_fill=stroke_fill,
    )


# ----- counters ----------------------------------------------------------------------------


def counter(
    side: int,
    colour,
    text_colour,
    title: str,
    values: str,
    flipped: bool,
    badge: str,
    symbol: str | None = None,
    compact: bool = False,
    badge_colour=(214, 39, 40),
    subtitle: str = "",
) -> Image.Image:
    """A counter of ``side`` pixels (plus a shadow margin), RGBA. ``compact``: one of several
    counters sharing a cell, drawn with fewer details and bigger values."""
    # The arguments are the cache key: the same counter is drawn once.
    args = (
        side,
        colour,
        text_colour,
        title,
        values,
        flipped,
        badge,
        symbol,
        compact,
        badge_colour,
        subtitle,
    )
    return SPRITES.get(("counter", *args), lambda: _draw_counter(*args))


def _value_size(k, side, title, values, symbol, flipped, subtitle, compact) -> int:
    """Font size of a counter's factors at the drawing size ``k`` (supersampled pixels)."""
    inner = k * 0.9
    if compact or side < 30:
        text_max = 0.4 if side >= 30 and title else 0.5
        return fonts.fit_size(values or title, round(k * text_max), inner, bold=True)
    low = bool(symbol or flipped or subtitle)
    return fonts.fit_size(values, round(k * (0.3 if low else 0.4)), inner, True)


@functools.lru_cache(maxsize=4096)
def factor_size(
    side: int,
    title: str,
    values: str,
    symbol: str | None = None,
    flipped: bool = False,
    subtitle: str = "",
    compact: bool = False,
) -> float:
    """Font size, in picture pixels, of the factors on a counter of ``side`` pixels."""
    args = (title, values, symbol, flipped, subtitle, compact)
    return _value_size(side * SUPER, side, *args) / SUPER


def counter_margin(side: int) -> int:
    return max(2, round(side * 0.08))


def _draw_counter(
    side,
    colour,
    text_colour,
    title,
    values,
    flipped,
    badge,
    symbol,
    compact,
    badge_colour,
    subtitle="",
):
    margin = counter_margin(side)
    shrunk = (side + 2 * margin, side + 2 * margin)
    words = (side, text_colour, title, values, flipped, badge, symbol, compact, badge_colour)
    # The face is kept premultiplied ("RGBa"), the mode Pillow shrinks an RGBA picture in:
    # converting the whole drawing there and back cost as much as shrinking it. Premultiplying
    # changes no opaque pixel, and drawing on an opaque pixel gives the same pixel in either
    # mode, so the sprite is the same as long as the words land on opaque pixels only. Where
    # they do not (a long title on a tiny counter running off its face), drawing them raises
    # the alpha of a translucent pixel, which the check sees: that counter is drawn the old way.
    kept = FACES.get((side, colour, flipped), lambda: _premultiplied_face(side, colour, flipped))
    if kept:
        img = kept[0].copy()
        if _counter_words(img, *words, subtitle, img.im.getband(3)):
            return _shrink_changes(img, kept).convert("RGBA")
    img = _draw_face(side, colour, flipped)
    _counter_words(img, *words, subtitle)
    return _shrink(img, shrunk)


def _shrink_changes(img: Image.Image, kept: list) -> Image.Image:
    """``img`` (the face ``kept[0]`` with words on it) shrunk: when the words reach less than
    three quarters of it, only the part they reach is shrunk again and the rest is the face's
    own shrunk copy (``kept[1]``, made when first needed).

    Pillow weighs the source pixels of each shrunk pixel by their distance from its centre in
    the source, computed from the source's whole size whether a box is given or not, so a box
    on whole shrunk pixels gives the same pixels as shrinking all of it. At three times the
    size, Lanczos reaches 9 source pixels from a centre: a shrunk pixel more than 4 pixels
    away from every changed source pixel is the face's own."""
    face = kept[0]
    width, height = face.width // SUPER, face.height // SUPER
    changed = img.im.chop_difference(face.im).getbbox(False)
    if changed is not None:
        x0, y0 = max(0, (changed[0] - 10) // SUPER), max(0, (changed[1] - 10) // SUPER)
        x1 = min(width, (changed[2] + 6) // SUPER + 1)
        y1 = min(height, (changed[3] + 6) // SUPER + 1)
        if (x1 - x0) * (y1 - y0) * 4 > width * height * 3:
            return img.resize((width, height), Image.Resampling.LANCZOS)
    small = kept[1]
    if small is None:
        # two threads may both make it: the same pixels either way
        small = kept[1] = face.resize((width, height), Image.Resampling.LANCZOS)
    out = small.copy()
    if changed is not None:
        part = img.resize(
            (x1 - x0, y1 - y0),
            Image.Resampling.LANCZOS,
            box=(x0 * SUPER, y0 * SUPER, x1 * SUPER, y1 * SUPER),
        )
        out.im.paste(part.im, (x0, y0, x1, y1))
    return out


def _premultiplied_face(side, colour, flipped) -> list:
    """[the blank face premultiplied, None for its shrunk copy], or [] (kept too: the cache
    takes None for "not there") when the face has translucent pixels whose alpha the faintest
    ink could leave unchanged (Pillow's blend raises an alpha of 0 or the shadow's 110 at any
    ink, not one of 254: see :func:`_draw_counter`'s check)."""
    face = _draw_face(side, colour, flipped)
    if {value for _, value in face.getchannel("A").getcolors()} - {0, 110, 255}:
        return []
    return [face.convert("RGBa"), None]


def _counter_words(
    img,
    side,
    text_colour,
    title,
    values,
    flipped,
    badge,
    symbol,
    compact,
    badge_colour,
    subtitle,
    face_alpha=None,
) -> bool:
    """Draw a counter's words, symbol and badge on its face ``img`` (at the drawing size).
    With ``face_alpha`` (the face's alpha channel, in Pillow's core), False as soon as some of
    them changed the alpha of a pixel (so did not land on opaque pixels only), leaving ``img``
    unfinished."""
    margin = counter_margin(side)
    k = side * SUPER
    m = margin * SUPER
    draw = ImageDraw.Draw(img)
    ink = text_colour if not flipped else (30, 30, 30)
    inner = k * 0.9
    cx = m + k / 2
    if compact or side < 30:
        # title small on top (when there is room), the factors big below; the band marks the back
        if side >= 30 and title:
            size = fonts.fit_size(title, round(k * 0.26), inner, True)
            _centered_text(draw, (cx, m + k * 0.24), title, size, ink)
            text_y = 0.64
        else:
            text_y = 0.52
        text = values or title
        size = _value_size(k, side, title, values, symbol, flipped, subtitle, compact)
        _centered_text(
            draw,
            (cx, m + k * text_y),
            text,
            size,
            ink,
            stroke=SUPER if flipped else 0,
            stroke_fill=(255, 255, 255),
        )
    else:
        # shrink before cutting: "Rifle+Sturm" must stay whole to be any use
        title_size = fonts.fit_size(title, round(k * 0.24), inner, True, smallest=round(k * 0.11))
        _centered_text(
            draw, (cx, m + k * 0.22), fonts.fit(title, title_size, inner, True), title_size, ink
        )
        if subtitle:
            # a second line under the title (plug-ins: "+Sturm"), shrunk rather than cut
            size = fonts.fit_size(subtitle, round(k * 0.22), inner, True, smallest=round(k * 0.11))
            _centered_text(draw, (cx, m + k * 0.46), subtitle, size, ink)
        elif symbol:
            _symbol(draw, symbol, cx, m + k * 0.49, k * 0.13, ink)
        if flipped:
            _centered_text(
                draw,
                (cx, m + k * 0.5),
                "DIS",
                round(k * 0.2),
                (150, 20, 20),
                stroke=SUPER,
                stroke_fill=(255, 255, 255),
            )
        if values:
            low = bool(symbol or flipped or subtitle)
            value_size = _value_size(k, side, title, values, symbol, flipped, subtitle, compact)
            _centered_text(draw, (cx, m + k * (0.8 if low else 0.64)), values, value_size, ink)
    if face_alpha is not None and not _same(img.im.getband(3), face_alpha):
        return False
    if badge:
        r = k * 0.19
        bx, by = m + k - r * 0.75, m + r * 0.75
        # an opaque disc (ImageDraw writes its pixels, no blending) for the number
        draw.ellipse(
            (bx - r, by - r, bx + r, by + r),
            fill=tuple(badge_colour) + (255,),
            outline=(255, 255, 255, 255),
            width=max(SUPER, round(k * 0.03)),
        )
        disc_alpha = img.im.getband(3) if face_alpha is not None else None
        _centered_text(
            draw,
            (bx, by),
            str(badge)[:3],
            round(r * (1.25 if len(str(badge)) < 2 else 0.95)),
            contrast_text(badge_colour),
        )
        if disc_alpha is not None and not _same(img.im.getband(3), disc_alpha):
            return False
    return True


def _same(a, b) -> bool:
    """Whether two single-band images (Pillow's core) have the same pixels."""
    return a.chop_difference(b).getbbox() is None


def _draw_face(side, colour, flipped):
    """A counter's blank face at the drawing size (shadow, face, outline and, on its back, the
    band), shared by the counters of a side: the text goes on a copy."""
    margin = counter_margin(side)
    k = side * SUPER
    m = margin * SUPER
    img = Image.new("RGBA", (k + 2 * m, k + 2 * m), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    radius = k * 0.12
    shadow = round(k * 0.05)
    box = (m, m, m + k - 1, m + k - 1)
    draw.rounded_rectangle(
        (m + shadow, m + shadow, m + k - 1 + shadow, m + k - 1 + shadow),
        radius,
        fill=(0, 0, 0, 110),
    )
    face = washed(colour) if flipped else colour
    draw.rounded_rectangle(
        box,
        radius,
        fill=face + (255,),
        outline=(15, 15, 15, 255),
        width=max(SUPER, round(k * 0.045)),
    )
    if flipped:
        # the back of the counter: a diagonal band with the mark DIS across it
        band = k * 0.2
        x0, y0, x1, y1 = m, m, m + k, m + k
        stripe = Image.new("RGBA", img.size, (0, 0, 0, 0))
        sd = ImageDraw.Draw(stripe)
        sd.polygon(
            [
                (x0, y1 - band),
                (x1 - band, y0),
                (x1, y0),
                (x1, y0 + band),
                (x0 + band, y1),
                (x0, y1),
            ],
            fill=(255, 255, 255, 255),
        )
        sd.line(
            [(x0, y1 - band), (x1 - band, y0)],
            fill=(150, 20, 20, 255),
            width=max(SUPER, round(k * 0.03)),
        )
        sd.line(
            [(x0 + band, y1), (x1, y0 + band)],
            fill=(150, 20, 20, 255),
            width=max(SUPER, round(k * 0.03)),
        )
        mask = Image.new("L", img.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle(box, radius, fill=235)
        img.paste(stripe, (0, 0), ImageChops.multiply(stripe.getchannel("A"), mask))
        draw = ImageDraw.Draw(img)
        draw.rounded_rectangle(
            box, radius, outline=(15, 15, 15, 255), width=max(SUPER, round(k * 0.045))
        )
    return img


def _symbol(draw, symbol, cx, cy, r, ink):
    """A small NATO-style unit symbol; unknown names draw nothing rather than fail a picture."""
    w = max(SUPER, round(r * 0.14))
    box = (cx - r * 1.5, cy - r, cx + r * 1.5, cy + r)
    if symbol in ("infantry", "cavalry", "armor", "artillery", "hq", "engineer", "recon"):
        draw.rectangle(box, outline=ink, width=w)
    if symbol == "infantry":
        draw.line([(box[0], box[1]), (box[2], box[3])], fill=ink, width=w)
        draw.line([(box[0], box[3]), (box[2], box[1])], fill=ink, width=w)
    elif symbol in ("cavalry", "recon"):
        draw.line([(box[0], box[3]), (box[2], box[1])], fill=ink, width=w)
    elif symbol == "armor":
        draw.rounded_rectangle(
            (cx - r, cy - r * 0.55, cx + r, cy + r * 0.55), r * 0.5, outline=ink, width=w
        )
    elif symbol == "artillery":
        draw.ellipse((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), fill=ink)
    elif symbol == "engineer":
        draw.line(
            [
                (cx - r * 0.8, cy + r * 0.3),
                (cx - r * 0.8, cy - r * 0.3),
                (cx + r * 0.8, cy - r * 0.3),
                (cx + r * 0.8, cy + r * 0.3),
            ],
            fill=ink,
            width=w,
        )
        draw.line([(cx, cy - r * 0.3), (cx, cy + r * 0.3)], fill=ink, width=w)
    elif symbol == "hq":
        draw.line([(box[0], box[1]), (box[0], box[3] + r * 0.8)], fill=ink, width=w)
    elif symbol in ("boat", "ship"):
        draw.polygon(
            [
                (cx - r * 1.5, cy - r * 0.2),
                (cx + r * 1.5, cy - r * 0.2),
                (cx + r, cy + r * 0.7),
                (cx - r, cy + r * 0.7),
            ],
            fill=ink,
        )
        if symbol == "ship":
            draw.line([(cx, cy - r * 0.2), (cx, cy - r * 1.1)], fill=ink, width=w)
            draw.polygon(
                [(cx, cy - r * 1.1), (cx + r * 0.8, cy - r * 0.45), (cx, cy - r * 0.45)], fill=ink
            )
    elif symbol == "hero":
        pts = []
        for i in range(10):
            a = -math.pi / 2 + math.pi / 5 * i
            d = r * (1.0 if i % 2 == 0 else 0.45)
            pts.append((cx + d * math.cos(a), cy + d * math.sin(a)))
        draw.polygon(pts, fill=ink)


# ----- markers -----------------------------------------------------------------------------


def marker(kind: str, size: int, colour, text: str) -> Image.Image:
    if kind not in MARKER_KINDS:
        raise SceneError(
            f"markers: {kind!r} is not a marker kind; known: {', '.join(MARKER_KINDS)}."
        )
    key = ("marker", kind, size, colour, text)
    return SPRITES.get(key, lambda: _draw_marker(kind, size, colour, text))


def _draw_marker(kind, size, colour, text):
    k = size * SUPER
    img = Image.new("RGBA", (k, k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = tuple(colour)
    ink = (20, 20, 20, 255)
    w = max(SUPER, round(k * 0.05))
    if kind in ("gas", "smoke"):
        # a translucent cloud: pieces under it stay readable
        puffs = [
            (0.5, 0.5, 0.3),
            (0.3, 0.4, 0.2),
            (0.7, 0.38, 0.21),
            (0.32, 0.66, 0.2),
            (0.68, 0.66, 0.2),
            (0.5, 0.25, 0.18),
            (0.5, 0.76, 0.18),
        ]
        alpha = 115 if kind == "gas" else 105
        for x, y, r in puffs:
            d.ellipse(((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k), fill=c + (alpha,))
        for x, y, r in puffs[1:]:
            d.arc(
                ((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k),
                0,
                360,
                fill=mix(c, (0, 0, 0), 0.45) + (200,),
                width=w,
            )
    elif kind == "fire":
        d.polygon(
            [
                (0.5 * k, 0.05 * k),
                (0.8 * k, 0.45 * k),
                (0.85 * k, 0.75 * k),
                (0.5 * k, 0.95 * k),
                (0.15 * k, 0.75 * k),
                (0.22 * k, 0.4 * k),
                (0.35 * k, 0.55 * k),
            ],
            fill=c + (255,),
            outline=ink,
        )
        d.polygon(
            [(0.5 * k, 0.4 * k), (0.68 * k, 0.7 * k), (0.5 * k, 0.9 * k), (0.32 * k, 0.72 * k)],
            fill=(255, 215, 0, 255),
        )
    elif kind == "flag":
        d.line([(0.22 * k, 0.05 * k), (0.22 * k, 0.95 * k)], fill=ink, width=w * 2)
        d.polygon(
            [(0.25 * k, 0.08 * k), (0.92 * k, 0.3 * k), (0.25 * k, 0.55 * k)],
            fill=c + (255,),
            outline=(255, 255, 255, 255),
            width=w,
        )
    elif kind == "control":
        d.ellipse((0.1 * k, 0.1 * k, 0.9 * k, 0.9 * k), fill=c + (255,), outline=ink, width=w * 2)
        d.ellipse((0.3 * k, 0.3 * k, 0.7 * k, 0.7 * k), outline=(255, 255, 255, 255), width=w)
    elif kind == "ladder":
        d.line([(0.3 * k, 0.05 * k), (0.3 * k, 0.95 * k)], fill=c + (255,), width=w * 2)
        d.line([(0.7 * k, 0.05 * k), (0.7 * k, 0.95 * k)], fill=c + (255,), width=w * 2)
        for i in range(4):
            y = (0.18 + i * 0.22) * k
            d.line([(0.3 * k, y), (0.7 * k, y)], fill=c + (255,), width=w * 2)
    elif kind == "breach":
        pts = []
        for i in range(16):
            a = math.pi / 8 * i
            r = 0.47 if i % 2 == 0 else 0.22
            pts.append(((0.5 + r * math.cos(a)) * k, (0.5 + r * math.sin(a)) * k))
        d.polygon(pts, fill=c + (255,), outline=ink)
    elif kind == "flare":
        for i in range(8):
            a = math.pi / 4 * i
            d.line(
                [
                    ((0.5 + 0.33 * math.cos(a)) * k, (0.5 + 0.33 * math.sin(a)) * k),
                    ((0.5 + 0.49 * math.cos(a)) * k, (0.5 + 0.49 * math.sin(a)) * k),
                ],
                fill=c + (255,),
                width=w * 2,
            )
        d.ellipse((0.2 * k, 0.2 * k, 0.8 * k, 0.8 * k), outline=(255, 255, 255, 255), width=w * 4)
        d.ellipse((0.2 * k, 0.2 * k, 0.8 * k, 0.8 * k), outline=c + (255,), width=w * 2)
    if text:
        size = round(k * (0.22 if kind in ("gas", "smoke", "flare") else 0.55))
        x, y = (0.8 * k, 0.8 * k) if kind in ("gas", "smoke", "flare") else (0.78 * k, 0.78 * k)
        _centered_text(
            d,
            (x, y),
            str(text)[:4],
            size,
            (255, 255, 255),
            stroke=max(SUPER, size // 6),
            stroke_fill=(0, 0, 0),
        )
    return _shrink(img, (size, size))


# ----- text --------------------------------------------------------------------------------


def text(content: str, size: int, fill, bold: bool, anchor: str, stroke: int = 0, stroke_fill=None):
    """Text as a cached RGBA sprite plus its offset from the anchor point: turns repeat most
    labels (header facts, place names, dice lines), and pasting beats rasterising again."""
    key = (
        "text",
        content,
        size,
        tuple(fill),
        bold,
        anchor,
        stroke,
        tuple(stroke_fill) if stroke_fill else None,
    )
    return SPRITES.get(
        key, lambda: _draw_text(content, size, tuple(fill), bold, anchor, stroke, stroke_fill)
    )


def _draw_text(content, size, fill, bold, anchor, stroke, stroke_fill):
    f = fonts.font(size, bold)
    left, top, right, bottom = f.getbbox(content, anchor=anchor, stroke_width=stroke)
    img = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(img).text(
        (-left, -top),
        content,
        font=f,
        fill=fill + (255,),
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=tuple(stroke_fill) + (255,) if stroke_fill else None,
    )
    return img, (left, top)


def paste_text(
    target: Image.Image,
    xy,
    content: str,
    size: int,
    fill,
    bold: bool = False,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill=None,
) -> None:
    if not content:
        return
    img, (dx, dy) = text(content, size, fill, bold, anchor, stroke, stroke_fill)
    paste(target, img, round(xy[0] + dx), round(xy[1] + dy))


def paste(target: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste an RGBA ``sprite`` through its own alpha with its top-left at (x, y): what
    ``target.paste(sprite, (x, y), sprite)`` does after its checks (a picture pastes dozens of
    sprites; the checks cost more than the small pastes)."""
    target.im.paste(sprite.im, (x, y, x + sprite.width, y + sprite.height), sprite.im)
