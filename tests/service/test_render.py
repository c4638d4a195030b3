"""Pictures through the service. The scene the service hands to the renderer is checked with a
stand-in renderer that returns the scene as JSON; real PNGs are checked when the renderer is
installed (renderer.render_png)."""

import io
import json
import sys
import types

import pytest

from service.errors import ServiceError

MOVE = {"type": "move", "side": "red", "unit": "r1", "to": "0201"}


def end(side):
    return {"type": "end-phase", "side": side}


async def test_the_board_shows_the_last_player_turn_and_flares(svc, game, scene_renderer):
    await svc.act(game.id, MOVE, actor="table")
    await svc.act(game.id, end("red"), actor="table")
    await svc.act(game.id, end("red"), actor="table")
    scene = json.loads(await svc.render(game.id, flares=("0303",)))
    assert scene["arrows"] == [{"path": ["0101", "0201"], "color": "#222222", "kind": "move"}]
    assert {"at": "0303", "kind": "flare", "color": "#ff8c00"} in scene["markers"]
    await svc.act(
        game.id, {"type": "move", "side": "blue", "unit": "b1", "to": "0505"}, actor="table"
    )
    scene = json.loads(await svc.render(game.id))
    assert [a["path"] for a in scene["arrows"]] == [["0605", "0505"]]
    assert "markers" not in scene


async def test_the_board_at_an_earlier_version(svc, game, scene_renderer):
    await svc.act(game.id, MOVE, actor="table")
    await svc.act(
        game.id, {"type": "move", "side": "red", "unit": "r2", "to": "0202"}, actor="table"
    )
    scene = json.loads(await svc.render(game.id, at_version=1))
    at = {p["id"]: p["at"] for p in scene["pieces"]}
    assert at["r1"] == "0201" and at["r2"] == "0102"
    with pytest.raises(ServiceError, match="does not exist"):
        await svc.render(game.id, at_version=7)


async def test_board_after_turn_n_and_the_replay_animation(svc, game, scene_renderer):
    await svc.act(game.id, MOVE, actor="table")
    for side in ("red", "red", "blue", "blue"):
        await svc.act(game.id, end(side), actor="table")
    await svc.act(
        game.id, {"type": "move", "side": "red", "unit": "r1", "to": "0302"}, actor="table"
    )
    turn1 = json.loads(await svc.render_turn(game.id, 1))
    assert {p["id"]: p["at"] for p in turn1["pieces"]}["r1"] == "0201"
    assert turn1["arrows"][0]["path"] == ["0101", "0201"]
    turn2 = json.loads(await svc.render_turn(game.id, 2))
    assert {p["id"]: p["at"] for p in turn2["pieces"]}["r1"] == "0302"
    with pytest.raises(ServiceError, match="Turn 5 has not been played; turns so far: 1, 2"):
        await svc.render_turn(game.id, 5)
    frames = json.loads(await svc.render_animation(game.id))
    assert [{p["id"]: p["at"] for p in f["pieces"]}["r1"] for f in frames] == [
        "0101",
        "0201",
        "0302",
    ]


async def test_every_picture_path_draws_in_the_reader_s_language(svc, game, scene_renderer):
    await svc.act(game.id, MOVE, actor="table")
    for side in ("red", "red"):
        await svc.act(game.id, end(side), actor="table")
    assert json.loads(await svc.render(game.id))["lang"] == "en"
    assert json.loads(await svc.render(game.id, lang="de"))["lang"] == "de"
    # Discord's locales ("de", "en-US") and unknown ones (English pictures)
    assert json.loads(await svc.render(game.id, lang="de-AT"))["lang"] == "de"
    assert json.loads(await svc.render(game.id, lang="fr"))["lang"] == "en"
    assert json.loads(await svc.render_turn(game.id, 1, lang="de"))["lang"] == "de"
    frames = json.loads(await svc.render_animation(game.id, lang="de"))
    assert {f["lang"] for f in frames} == {"de"}
    # a finished game's replay is cached: per language, so nobody gets another's words
    await svc.resign(game.id, "blue")
    english = json.loads(await svc.render_animation(game.id))
    german = json.loads(await svc.render_animation(game.id, lang="de"))
    assert {f["lang"] for f in english} == {"en"} and {f["lang"] for f in german} == {"de"}
    assert json.loads(await svc.render_animation(game.id, lang="de")) == german


async def test_without_a_renderer_the_player_gets_a_clear_message(svc, game, monkeypatch):
    monkeypatch.setitem(sys.modules, "renderer", types.ModuleType("renderer"))
    with pytest.raises(ServiceError, match="Pictures are not available"):
        await svc.render(game.id)


def real_renderer():
    try:
        import renderer
    except ImportError:
        return None
    return renderer if hasattr(renderer, "render_png") else None


@pytest.mark.skipif(
    real_renderer() is None, reason="renderer.render_png is not written yet (renderer/__init__.py)"
)
async def test_a_real_png_with_a_flare(svc, game):
    from PIL import Image

    await svc.act(game.id, MOVE, actor="table")
    png = await svc.render(game.id, viewer="red", flares=("0303",))
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width > 100 and image.height > 100
    plain = Image.open(io.BytesIO(await svc.render(game.id, viewer="red")))
    assert (
        image.convert("RGB").tobytes() != plain.convert("RGB").tobytes()
    )  # the flare is drawn somewhere


@pytest.mark.skipif(
    real_renderer() is None or not hasattr(real_renderer(), "render_animation"),
    reason="renderer.render_animation is not written yet",
)
async def test_a_real_replay_animation(svc, game):
    from PIL import Image

    await svc.act(game.id, MOVE, actor="table")
    for side in ("red", "red", "blue", "blue"):
        await svc.act(game.id, end(side), actor="table")
    image = Image.open(io.BytesIO(await svc.render_animation(game.id)))
    assert getattr(image, "n_frames", 1) >= 2


async def test_the_board_s_scene_is_built_by_a_picture_worker_not_the_bot(svc, monkeypatch):
    import os

    from engine import registry
    from service.pictures import PicturePool

    monkeypatch.setitem(registry.RULESETS, "skirmish-where", "tests.service.where_drawn:WhereDrawn")
    info = await svc.start_game((await svc.create_game("skirmish-where", seed="w")).id)
    svc.pictures = PicturePool(workers=1)
    try:
        with pytest.raises(RuntimeError, match="scene built in process") as raised:
            await svc.render(info.id)
    finally:
        svc.pictures.shutdown()
    assert f"process {os.getpid()}" not in str(raised.value)
