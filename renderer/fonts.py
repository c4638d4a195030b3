"""Fonts for the renderer: DejaVu Sans when the system has it, else Pillow's built-in font.

Nothing is downloaded. Font objects are kept per thread: rendering runs in worker threads and
a FreeType face is not meant to be shared by threads drawing at the same time.
"""

from __future__ import annotations

import functools
import threading

from PIL import ImageFont

_CANDIDATES = {
    False: (
        "DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/local/share/fonts/DejaVuSans.ttf",
        "/Library/Fonts/DejaVuSans.ttf",
    ),
    True: (
        "DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
        "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
        "/Library/Fonts/DejaVuSans-Bold.ttf",
    ),
}
_local = threading.local()
_found_path: dict[bool, str | None] = {}
_found_lock = threading.Lock()


def _path(bold: bool) -> str | None:
    # asked for every text measured: once found, read without the lock
    if bold in _found_path:
        return _found_path[bold]
    with _found_lock:
        if bold not in _found_path:
            found = None
            for candidate in _CANDIDATES[bold]:
                try:
                    ImageFont.truetype(candidate, 10)
                except OSError:
                    continue
                found = candidate
                break
            _found_path[bold] = found  # set once, whole: others read it without the lock
        return _found_path[bold]


def font(size: int, bold: bool = False):
    """A font of ``size`` pixels; DejaVu (bold or regular) if installed, else Pillow's own."""
    size = max(6, int(size))
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (size, bold)
    found = cache.get(key)
    if found is None:
        path = _path(bold)
        found = ImageFont.truetype(path, size) if path else ImageFont.load_default(size=size)
        cache[key] = found
    return found


def has_dejavu() -> bool:
    return _path(False) is not None


def text_width(text: str, size: int, bold: bool = False) -> float:
    # header words and labels repeat every turn; measuring them again was a visible cost
    return _width(text, max(6, int(size)), bold, _path(bold))


@functools.lru_cache(maxsize=4096)
def _width(text: str, size: int, bold: bool, path: str | None) -> float:
    return font(size, bold).getlength(text)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it fits in ``width`` pixels."""
    return _fit(text, size, width, bold, _path(bold))


@functools.lru_cache(maxsize=1024)
def _fit(text: str, size: int, width: float, bold: bool, path) -> str:
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…" if text else ""


def safe_text(text: str) -> str:
    """Die faces and other symbols fall back to plain text when the font lacks them."""
    if has_dejavu():
        return text
    return "".join(f"d{ord(ch) - 0x267F}" if 0x2680 <= ord(ch) <= 0x2685 else ch for ch in text)


def fit_size(text: str, size: int, width: float, bold: bool = False, smallest: int = 6) -> int:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` pixels (shrinking
    keeps factors like "12-10-4" whole, where an ellipsis would hide them)."""
    # place names, the terrain key and header words are fitted again for every picture
    return _fit_size(text, size, width, bold, smallest, _path(bold))


@functools.lru_cache(maxsize=4096)
def _fit_size(text: str, size: int, width: float, bold: bool, smallest: int, path) -> int:
    f = font(size, bold)
    have = f.getlength(text)
    if have <= width:
        return size
    guess = max(smallest, int(size * width / have))
    while guess > smallest and font(guess, bold).getlength(text) > width:
        guess -= 1
    return guess
