"""The pictures' PNG writer (renderer/png.py): opened by Pillow, every picture decodes to the
same indices and palette as Pillow's own PNG writer gives for the same 256-colour picture,
with the fast deflate or without it."""

from __future__ import annotations

import importlib
import io
import struct
import sys
import zlib

import pytest
from PIL import Image

import renderer
from engine.core.dice import fixed
from renderer import png
from renderer import render as core
from tests.fixtures.skirmish import Skirmish

from . import scenes


def skirmish_scene() -> dict:
    rules = Skirmish()
    state, _ = rules.setup(rules.load_scenario("standard"), fixed([]))
    return rules.scene(state, [{"type": "moved", "from": "0103", "to": "0102"}], None)


SCENES = {
    "skirmish": skirmish_scene,
    "showcase hex": scenes.showcase_hex_scene,
    "square": scenes.square_scene,
    "large hex": scenes.large_hex_scene,
}


def opened(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def pillow_png(indexed: Image.Image) -> bytes:
    out = io.BytesIO()
    indexed.save(out, format="PNG", compress_level=3)
    return out.getvalue()


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks in order, each checked against its CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in {kind!r} at byte {pos}"
        found.append((kind, body))
        pos += 12 + length
    assert pos == len(data)
    return found


def assert_same_picture(data: bytes, indexed: Image.Image) -> None:
    ours, theirs = opened(data), opened(pillow_png(indexed))
    assert ours.mode == theirs.mode == "P"
    assert ours.size == theirs.size == indexed.size
    assert ours.tobytes() == theirs.tobytes() == indexed.tobytes()
    assert ours.getpalette() == theirs.getpalette()
    assert ours.info.get("transparency") == theirs.info.get("transparency")


def indexed_picture(scene: dict) -> tuple[Image.Image, Image.Image, bytes]:
    picture = renderer.render_image(scene)
    palette = core.map_palette(scene, picture)
    return (
        picture,
        picture.quantize(palette=palette, dither=Image.Dither.NONE),
        renderer.encode_png(picture, palette),
    )


@pytest.mark.parametrize("name", sorted(SCENES))
def test_a_picture_decodes_to_the_indices_and_palette_pillow_s_writer_gives(name):
    scene = SCENES[name]()
    _, indexed, data = indexed_picture(scene)
    assert_same_picture(data, indexed)
    assert renderer.render_png(scene) == data  # what the bot posts is this encoding
    kinds = [kind for kind, _ in chunks(data)]
    assert kinds[:2] == [b"IHDR", b"PLTE"] and kinds[-1] == b"IEND"
    assert set(kinds[2:-1]) == {b"IDAT"}


def test_a_real_game_s_board_decodes_as_pillow_s_writer_gives():
    from engine import registry
    from engine.core.game import autoplay

    rules = registry.get_ruleset("tenochtitlan")
    frames: list = []
    autoplay(
        rules,
        rules.load_scenario(rules.default_scenario),
        7,
        on_action=lambda i, s, a, e, st: frames.append((st, e)),
    )
    state, events = frames[len(frames) * 2 // 3]
    _, indexed, data = indexed_picture(rules.scene(state, events, None))
    assert_same_picture(data, indexed)


def test_the_largest_picture_is_written_in_several_idat_chunks_that_decode_whole():
    _, indexed, data = indexed_picture(scenes.large_hex_scene())
    found = chunks(data)
    idat = [body for kind, body in found if kind == b"IDAT"]
    assert len(idat) >= 2
    rows = zlib.decompress(b"".join(idat))
    width, height = indexed.size
    assert len(rows) == (width + 1) * height
    assert rows[:: width + 1] == bytes(height)  # every row's filter byte: none
    header = dict(found)[b"IHDR"]
    assert struct.unpack(">IIBBBBB", header) == (width, height, 8, 3, 0, 0, 0)


def test_pictures_are_deflated_by_zlib_ng_where_it_is_installed():
    module, level = png.deflater()
    assert module.__name__ == "zlib_ng.zlib_ng", "the zlib-ng wheel (a dependency) is missing"
    assert level == png.FAST_LEVEL


@pytest.fixture
def without_zlib_ng(monkeypatch):
    """renderer.png imported on a machine where the zlib-ng wheel is not installed."""
    monkeypatch.setitem(sys.modules, "zlib_ng", None)
    monkeypatch.setitem(sys.modules, "zlib_ng.zlib_ng", None)
    importlib.reload(png)
    yield
    monkeypatch.undo()
    importlib.reload(png)


def test_without_zlib_ng_the_standard_zlib_writes_the_same_pixels(without_zlib_ng):
    assert png.deflater() == (zlib, png.STDLIB_LEVEL)
    for name in ("skirmish", "large hex"):
        scene = SCENES[name]()
        picture, indexed, data = indexed_picture(scene)
        assert_same_picture(data, indexed)
        # the fallback is the deflate Pillow's writer used, so the bytes are about the same
        assert abs(len(data) - len(pillow_png(indexed))) < len(data) // 50


@pytest.mark.parametrize("size", [(1, 1), (1, 40), (40, 1), (3, 2)])
def test_tiny_pictures_decode_whole(size):
    picture = Image.new("RGB", size, (236, 231, 218))
    picture.putpixel((0, 0), (192, 57, 43))
    palette = Image.new("P", (1, 1))
    palette.putpalette([236, 231, 218, 192, 57, 43] + [0, 0, 0] * 254)
    indexed = picture.quantize(palette=palette, dither=Image.Dither.NONE)
    data = renderer.encode_png(picture, palette)
    assert_same_picture(data, indexed)
    assert opened(data).convert("RGB").getpixel((0, 0)) == (192, 57, 43)


@pytest.mark.parametrize("transparency", [7, bytes([255, 0, 128, 255, 0])])
def test_a_palette_picture_keeps_its_transparent_entries(transparency):
    indexed = Image.new("P", (12, 5), 7)
    indexed.putpalette([v for i in range(256) for v in (i, 255 - i, 40)])
    for x in range(5):
        indexed.putpixel((x, 2), x)
    indexed.info["transparency"] = transparency
    data = png.encode_indexed(indexed)
    assert_same_picture(data, indexed)
    assert b"tRNS" in [kind for kind, _ in chunks(data)]
    rgba = opened(data).convert("RGBA")
    if transparency == 7:
        expected = {7: 0, 2: 255, 1: 255}
    else:  # one alpha per entry; entries past the list are opaque
        expected = {7: 255, 2: 128, 1: 0}
    for index, alpha in expected.items():
        x, y = (index, 2) if index < 5 else (11, 0)
        assert rgba.getpixel((x, y))[3] == alpha, (index, transparency)


def test_a_picture_with_an_alpha_palette_goes_to_pillow_s_writer_and_keeps_its_alpha():
    picture = Image.new("RGBA", (6, 4), (10, 20, 30, 255))
    picture.putpixel((2, 1), (200, 0, 0, 0))
    data = renderer.encode_png(picture)
    back = opened(data).convert("RGBA")
    assert back.getpixel((2, 1))[3] == 0 and back.getpixel((0, 0)) == (10, 20, 30, 255)
