"""What a new map layer and its counters are drawn from, made cheaper with the same pixels:
counter sprites (on a kept premultiplied face, only the part the words reach shrunk again) and
cell labels (halo and ink in one paste)."""

from __future__ import annotations

import random

from renderer import sprites


def _plain_counter(*args):
    """A counter as it was drawn before faces were kept premultiplied: its words on the plain
    RGBA face, shrunk by Pillow (which premultiplies the whole drawing and back). ``args``:
    :func:`sprites.counter`'s, in its order."""
    side, colour, flipped = args[0], args[1], args[5]
    img = sprites._draw_face(side, colour, flipped)
    sprites._counter_words(img, side, *args[2:])
    margin = sprites.counter_margin(side)
    return sprites._shrink(img, (side + 2 * margin, side + 2 * margin))


def _counters(n: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        colour = tuple(rng.randrange(256) for _ in range(3))
        out.append(
            (
                rng.choice([12, 18, 23, 30, 41, 52, 130]),
                colour,
                sprites.contrast_text(colour),
                rng.choice(["Inf 1", "Cav 12", "Rifle+Sturm", "Archers of Tlaxcala", "X", ""]),
                rng.choice(["4-3-2", "10-8-12", "", "3"]),
                rng.random() < 0.3,
                rng.choice(["", "", "2", "12", "999x"]),
                rng.choice([None, "infantry", "armor", "artillery", "hq", "ship", "hero"]),
                rng.random() < 0.3,
                tuple(rng.randrange(256) for _ in range(3)),
                rng.choice(["", "", "+Sturm"]),
            )
        )
    return out


def test_counters_drawn_on_a_premultiplied_face_have_the_pixels_of_counters_drawn_plainly():
    sprites.FACES.clear()
    for args in _counters(120, seed=21):
        drawn = sprites._draw_counter(*args)
        assert drawn.mode == "RGBA"
        assert drawn.tobytes() == _plain_counter(*args).tobytes(), args
    sprites.FACES.clear()


def test_words_running_off_a_tiny_counter_are_caught_and_that_counter_drawn_plainly():
    # a long title on a 12 px counter runs off its face onto the shadow and the transparent
    # margin, where a premultiplied picture blends differently: the check must see it, and the
    # sprite must still be the plain one
    long_title = (
        12,
        (200, 30, 30),
        (255, 255, 255),
        "Archers of Tlaxcala",
        "",
        False,
        "",
        None,
        True,
        (214, 39, 40),
        "",
    )
    short = (
        41,
        (200, 30, 30),
        (255, 255, 255),
        "Inf 1",
        "4-3",
        False,
        "2",
        "infantry",
        False,
        (214, 39, 40),
        "",
    )
    for args, lands_on_the_face in ((long_title, False), (short, True)):
        face, _ = sprites._premultiplied_face(args[0], args[1], args[5])
        img = face.copy()
        assert sprites._counter_words(img, *args[:1], *args[2:], img.im.getband(3)) is (
            lands_on_the_face
        )
        assert sprites._draw_counter(*args).tobytes() == _plain_counter(*args).tobytes()


def test_a_label_pasted_once_has_the_pixels_of_its_halo_and_ink_pasted_in_turn():
    # a cell label's halo and ink are pasted in one go where the ink lies on the halo's opaque
    # pixels; on any background the pixels must be those of Image.paste of the halo's colour
    # through its mask and then the ink's through its own (labels of every size a map uses,
    # and the small ones whose ink reaches the halo's soft edge, pasted in two goes)
    from PIL import Image

    from renderer import render as core

    rng = random.Random(17)
    once = 0
    for size in (7, 8, 10, 11, 13, 14, 16, 18, 23, 30, 45):
        for text, anchor, bold in (("07", "rt", True), ("31", "lt", True), ("C4", "lt", False)):
            ink, halo, _, _ = core._label_part(text, anchor, size, bold)
            pastes = core._label_pastes(text, anchor, size, bold)
            once += len(pastes) == 1
            noise = Image.frombytes(
                "RGB",
                (ink.width + 6, ink.height + 6),
                rng.randbytes((ink.width + 6) * (ink.height + 6) * 3),
            )
            expected, drawn = noise.copy(), noise.copy()
            box = (3, 3, 3 + ink.width, 3 + ink.height)
            expected.paste(core.LABEL_HALO, box, halo)
            expected.paste(core.LABEL_INK, box, ink)
            core._paste_ops(drawn, core._label_ops([(ink, halo, (3, 3), pastes)]))
            assert drawn.tobytes() == expected.tobytes(), (text, size)
    assert once >= 20  # most labels take one paste


def test_a_paste_through_a_mask_of_255_puts_the_colour_and_of_0_leaves_the_picture():
    # what pasting a label once rests on, for every pair of picture and colour values
    from PIL import Image

    picture = Image.frombytes("L", (256, 256), bytes(range(256)) * 256)
    colour = picture.transpose(Image.Transpose.TRANSPOSE)
    for level, expected in ((255, colour), (0, picture)):
        out = picture.copy()
        out.paste(colour, (0, 0), Image.new("L", (256, 256), level))
        assert out.tobytes() == expected.tobytes()


def test_a_face_with_other_translucent_pixels_is_drawn_plainly_and_looked_at_once(monkeypatch):
    # the check rests on the face's translucent pixels being the margin (0) and the shadow
    # (110): any other alpha, and its counters are drawn the old way, the face not kept
    # premultiplied and not looked at again for each counter
    plain_face = sprites._draw_face

    def with_a_soft_pixel(side, colour, flipped):
        face = plain_face(side, colour, flipped)
        face.putpixel((1, 1), (0, 0, 0, 200))
        return face

    monkeypatch.setattr(sprites, "_draw_face", with_a_soft_pixel)
    sprites.FACES.clear()
    args = (
        41,
        (200, 30, 30),
        (255, 255, 255),
        "Inf 1",
        "4-3",
        False,
        "",
        None,
        False,
        (214, 39, 40),
        "",
    )
    for title in ("Inf 1", "Inf 2"):
        drawn = sprites._draw_counter(*args[:3], title, *args[4:])
        assert drawn.tobytes() == _plain_counter(*args[:3], title, *args[4:]).tobytes()
    assert sprites.FACES.builds == 1
    sprites.FACES.clear()


def test_the_faces_of_a_close_up_at_its_largest_stay_kept_while_its_counters_are_drawn():
    # a close-up's cell is at most 200 px: counters of 184 px, faces of 1.8 MB each at three
    # times their size; two sides, each flipped or not, drawn in turn as a close-up draws them
    sprites.FACES.clear()
    faces = [
        (colour, flipped) for colour in ((200, 30, 30), (30, 60, 200)) for flipped in (False, True)
    ]
    for values in ("4-3", "5-4", "6-5"):
        for colour, flipped in faces:
            args = (
                184,
                colour,
                (255, 255, 255),
                "Inf",
                values,
                flipped,
                "",
                None,
                False,
                (214, 39, 40),
                "",
            )
            drawn = sprites._draw_counter(*args)
            assert drawn.tobytes() == _plain_counter(*args).tobytes()
    assert sprites.FACES.builds == len(faces)
    sprites.FACES.clear()
