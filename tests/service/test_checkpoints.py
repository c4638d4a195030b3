"""Every CHECKPOINT_EVERY-th state is kept, so the board at turn N starts from the nearest
checkpoint instead of replaying the game; a checkpoint whose actions were taken back since is
never used, and the picture is the same as a replay of the whole log gives."""

import json
import sys
import types

import pytest

import service.store as store_module


@pytest.fixture
def scene_renderer(monkeypatch):
    fake = types.ModuleType("renderer")
    fake.render_png = lambda scene: json.dumps(scene).encode()
    monkeypatch.setitem(sys.modules, "renderer", fake)


def pieces(png: bytes) -> dict:
    return {p["id"]: p["at"] for p in json.loads(png)["pieces"]}


async def test_board_at_turn_n_from_checkpoints_matches_a_full_replay(
    svc, game, scene_renderer, monkeypatch
):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(store_module, "SNAPSHOTS_KEPT", 2)
    from engine import registry

    ruleset = registry.get_ruleset("skirmish")
    state = game.state
    for step in range(40):
        side = ruleset.awaiting(state)[0]
        legal = [a for a in ruleset.legal_actions(state, side) if a["type"] != "fire"]
        moves = [a for a in legal if a["type"] == "move"]
        action = moves[step % len(moves)] if moves and step % 3 else legal[0]
        state = (await svc.act(game.id, action, actor="table")).game.state
        if step in (9, 21):
            # Taking back an action after a checkpoint was written: that checkpoint now holds
            # a state the log no longer reaches.
            state = (await svc.undo(game.id, actor="referee", referee=True)).state
    kept = await svc.store.fetchall("SELECT version FROM snapshots WHERE game_id = ?", (game.id,))
    versions = sorted(r["version"] for r in kept)
    newest = versions[-1]
    assert all(v % 4 == 0 or v > newest - 2 for v in versions), versions
    assert [v for v in versions if v <= newest - 2] == list(range(4, newest - 1, 4)), versions
    live = await svc.history(game.id)
    turns = sorted({r.turn for r in live})
    for turn in turns:
        last = [r for r in live if r.turn == turn][-1]
        expected = pieces(await svc.render(game.id, at_version=last.version))
        assert pieces(await svc.render_turn(game.id, turn)) == expected, turn
