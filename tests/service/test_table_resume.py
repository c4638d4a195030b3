"""The local table keeps games (issue 15): a per-user database by default, ``--list``,
``--resume [ID]``, ``/quit`` saying how to come back, no temporary folders, numbered boards."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path

from service import table


def play(argv, typed):
    lines = iter(typed)
    out, err = io.StringIO(), io.StringIO()
    code = table.main(argv, stdout=out, stderr=err, input_fn=lambda prompt: next(lines))
    return code, out.getvalue(), err.getvalue()


def test_games_are_kept_per_user_listed_and_resumed(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    code, out, err = play(
        ["--game", "tenochtitlan", "--seed", "4"], ["/place unit:az-bowmen-1 to:0508", "/quit"]
    )
    assert code == 0, err
    db = data / "umpire" / "table.sqlite3"
    assert db.is_file()
    assert f"The game is saved as #1 in {db}" in out
    assert "Continue it with: python bot.py local --resume 1" in out
    assert "--db" not in out.split("Continue it with:")[1]  # the default needs no --db

    code, listed, _ = play(["--list"], [])
    assert code == 0
    assert "#1  Siege of Tenochtitlan (standard)  Turn 0, Setup, Aztec to act" in listed

    code, out, err = play(["--resume"], ["/log", "/place unit:az-bowmen-2 to:0608", "/quit"])
    assert code == 0, err
    assert "Continuing game #1" in err
    assert "#1 turn 0 Aztec: /place unit:Aztec Bowmen 1" in out
    code, listed, _ = play(["--list"], [])
    assert listed.count("#") == 1, "resuming opens no new game"


def test_resume_with_script_mode_continues_the_same_game(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    play(["--game", "tenochtitlan", "--seed", "4"], ["/auto-setup", "/quit"])
    script = tmp_path / "more.txt"
    script.write_text("/options\n")
    out = io.StringIO()
    assert table.main(["--resume", "--script", str(script)], stdout=out, stderr=io.StringIO()) == 0
    [options] = [json.loads(line) for line in out.getvalue().splitlines()]
    assert options["side"] == "spanish" and options["version"] == 1


def test_resume_refuses_unknown_games_and_bad_numbers(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _, err = play(["--resume"], [])
    assert code == 2 and "No unfinished game" in err
    code, _, err = play(["--resume", "9"], [])
    assert code == 2 and "no game #9" in err
    code, _, err = play(["--resume", "../../x"], [])
    assert code == 2 and "game number" in err


def test_an_out_directory_keeps_its_own_database_and_quit_names_it(tmp_path):
    boards = tmp_path / "boards"
    code, out, _ = play(["--game", "tenochtitlan", "--seed", "4", "--out", str(boards)], ["/quit"])
    assert code == 0
    assert f"--resume 1 --db {boards / 'table.sqlite3'}" in out


def test_script_mode_leaves_no_temporary_folders(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    script = tmp_path / "s.txt"
    script.write_text("/auto-setup\n")
    assert (
        table.main(
            ["--game", "tenochtitlan", "--script", str(script)],
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        == 0
    )
    assert os.listdir(scratch) == []


def test_boards_are_numbered_so_map_building_does_not_overwrite_them(tmp_path):
    from engine import registry
    from engine.core.commands import format_command
    from engine.core.dice import seeded
    from engine.core.game import apply_action, new_game

    # Pocket Tactics' setup stays in turn 0 while the sides take turns choosing and placing:
    # the same side comes back in the same turn, which used to overwrite its board.
    ruleset = registry.get_ruleset("pocket-tactics")
    state, _ = new_game(ruleset, ruleset.load_packaged(""), "2")
    steps = []
    for n in range(1, 25):
        side = ruleset.awaiting(state)[0]
        action = ruleset.legal_actions(state, side)[0]
        steps.append(f"{side} {format_command(action)}")
        state, _ = apply_action(ruleset, state, action, seeded("2", n))
    script = tmp_path / "s.txt"
    script.write_text("\n".join(steps) + "\n")
    out = io.StringIO()
    table.main(
        [
            "--game",
            "pocket-tactics",
            "--seed",
            "2",
            "--out",
            str(tmp_path / "boards"),
            "--script",
            str(script),
        ],
        stdout=out,
        stderr=io.StringIO(),
    )
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert all(r["ok"] for r in results), results
    written = [r for r in results if r.get("board")]
    moments = [(r["turn"], r["awaiting"][0]) for r in written]
    assert len(set(moments)) < len(moments), "the script should revisit a turn and side"
    boards = [r["board"] for r in written]
    assert len(set(boards)) == len(boards)
    assert all(Path(b).read_bytes()[:4] == b"\x89PNG" for b in boards)


def test_help_shows_real_commands_for_now_and_the_table_says_who_acted(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, _ = play(
        ["--game", "tenochtitlan", "--seed", "4"],
        ["/help", "spanish /options", "/place unit:az-bowmen-1 to:0508", "/quit"],
    )
    assert code == 0
    assert "Now, for Aztec: /place unit:az-bowmen-" in out and "/auto-setup" in out
    assert "It is not Spanish's turn: the game waits for Aztec." in out
    assert "(acted for Aztec)" in out


def test_a_german_game_stays_german_when_resumed_and_listed(tmp_path, monkeypatch):
    """`--resume` after `--lang de` spoke English ("Round 1, 1 bows and crossbows, Besiegers
    to act"): the table remembers the language with the game."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, err = play(["--game", "siege", "--seed", "4", "--lang", "de"], ["/quit"])
    assert code == 0, err
    assert "Weiter geht es mit: python bot.py local --resume 1" in out

    code, listed, _ = play(["--list"], [])
    assert code == 0
    assert "#1  SIEGE (open-gate)  Runde 1, 1 Bogen und Armbrüste, am Zug: Belagerer" in listed
    prompts: list[str] = []
    typed = iter(["/info cell:1012", "/quit"])
    out_io, err_io = io.StringIO(), io.StringIO()
    code = table.main(
        ["--resume"],
        stdout=out_io,
        stderr=err_io,
        input_fn=lambda prompt: prompts.append(prompt) or next(typed),
    )
    assert code == 0, err_io.getvalue()
    assert "Partie #1 (siege, Szenario open-gate) geht weiter" in err_io.getvalue()
    assert "am Zug: Belagerer" in prompts[0], prompts
    assert "Tisch verlassen. Die Partie ist als #1" in out_io.getvalue(), out_io.getvalue()
    assert "Terrain: courtyard" not in out_io.getvalue(), out_io.getvalue()

    # an English game in the same file stays English, and --lang still chooses
    code, out, _ = play(["--game", "siege", "--seed", "5"], ["/quit"])
    assert "Left the table. The game is saved as #2" in out
    code, listed, _ = play(["--list"], [])
    assert "#2  SIEGE (open-gate)  Round 1, 1 bows and crossbows, Besiegers to act" in listed
    code, out, _ = play(["--resume", "2", "--lang", "de"], ["/quit"])
    assert "Tisch verlassen. Die Partie ist als #2" in out, out


def test_a_finished_german_game_says_why_it_ended_in_german(tmp_path, monkeypatch):
    """The German table's last words were "Partie vorbei: Besiegers resigned. Sieger: ..." and --list said
    "over: Besiegers resigned"."""
    import asyncio

    from service.games import GameService

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    play(["--game", "siege", "--seed", "4", "--lang", "de"], ["/quit"])

    async def resign():
        svc = await GameService.open(tmp_path / "umpire" / "table.sqlite3")
        try:
            await svc.resign(1, "besieger")
        finally:
            await svc.close()

    asyncio.run(resign())
    code, out, err = play(["--resume", "1"], [])
    assert code == 0, err
    assert "Partie vorbei (Aufgabe: Belagerer). Sieger: Verteidiger." in out, out
    code, listed, _ = play(["--list"], [])
    assert "#1  SIEGE (open-gate)  vorbei: Aufgabe: Belagerer" in listed, listed
