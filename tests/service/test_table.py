"""The local table (``python bot.py local``) and ``python bot.py verify``, with the skirmish game."""

import asyncio
import io
import json

import pytest

from engine import registry
from engine.core.game import autoplay
from engine.core.state import state_hash
from service import table, verify

from .backends import query

# Red r1 walks next to blue b2 (at 0604), blue only ends phases; then red is in its fire phase.
WALK = ["0201", "0302", "0402", "0503", "0504"]


def walk_script() -> list[str]:
    lines = []
    for turn, to in enumerate(WALK, start=1):
        lines.append(f"red /move unit:r1 to:{to}")
        lines.append("red /end-phase")
        if turn < len(WALK):
            lines += ["red /end-phase", "blue /end-phase", "blue /end-phase"]
    return lines


def run(argv, tmp_path, script_lines=None):
    if script_lines is not None:
        path = tmp_path / "script.txt"
        path.write_text("\n".join(script_lines) + "\n")
        argv = [*argv, "--script", str(path)]
    out, err = io.StringIO(), io.StringIO()
    code = table.main(argv, stdout=out, stderr=err)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return code, lines, err.getvalue()


def test_script_mode_prints_one_json_object_per_command(tmp_path):
    code, lines, _ = run(
        ["--game", "skirmish", "--seed", "5", "--db", str(tmp_path / "t.db")],
        tmp_path,
        [
            "# comments and blank lines are skipped",
            "",
            "red /move unit:r1 to:0201",
            "red /move unit:r2 to:0505",
            "blue /end-phase",
            "red /move unit:",
            "green /end-phase",
            "/state",
            "red /options",
            "/options red r2 0202",
            "red /undo",
            "/end-phase",
        ],
    )
    assert code == 0 and len(lines) == 10
    for obj in lines:
        assert isinstance(obj["ok"], bool) and isinstance(obj["events"], list)
        assert all("type" in e for e in obj["events"]) and len(obj["state_hash"]) == 64
        assert obj["ok"] or obj["error"]
    moved, illegal, wrong_side, syntax, unknown, state, options, narrowed, undo, end = lines
    assert moved["ok"] and moved["events"][0] == {
        "type": "moved",
        "unit": "r1",
        "from": "0101",
        "to": "0201",
    }
    assert not illegal["ok"] and "cannot take to:0505 now; possible: 0202" in illegal["error"]
    assert illegal["state_hash"] == moved["state_hash"]
    assert not wrong_side["ok"] and "not Blue's turn" in wrong_side["error"]
    assert not syntax["ok"] and "has no value" in syntax["error"]
    assert not unknown["ok"] and "sides: red, blue" in unknown["error"]
    assert state["state"]["units"]["r1"]["at"] == "0201"
    assert state["state_hash"] == moved["state_hash"]
    assert {
        "command": "/move unit:r2 to:0202",
        "label": "/move unit:Red r2 at 0102 to:0202",
    } in options["options"]
    assert narrowed["options"] == [
        {"command": "/move unit:r2 to:0202", "label": "/move unit:Red r2 at 0102 to:0202"}
    ]
    assert undo["ok"] and undo["state_hash"] != moved["state_hash"]
    assert end["ok"] and end["side"] == "red" and end["events"][0]["type"] == "phase_started"


def test_script_from_stdin(tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("red /end-phase\nred /end-phase\n"))
    out = io.StringIO()
    assert (
        table.main(
            ["--game", "skirmish", "--seed", "1", "--script", "-", "--db", str(tmp_path / "t.db")],
            stdout=out,
            stderr=io.StringIO(),
        )
        == 0
    )
    last = json.loads(out.getvalue().splitlines()[-1])
    assert last["turn_ended"] and last["awaiting"] == ["blue"]


def test_autoplay_is_the_same_game_for_the_same_seed(tmp_path):
    runs = [
        run(
            ["--game", "skirmish", "--seed", seed, "--autoplay", "--db", str(tmp_path / f"{n}.db")],
            tmp_path,
        )
        for n, seed in enumerate(["7", "7", "8"])
    ]
    (code_a, a, _), (code_b, b, _), (_, c, _) = runs
    assert code_a == code_b == 0
    assert a == b
    over = a[-1]
    assert over["type"] == "game_over" and over["actions"] == len(a) - 1
    assert over["turns"] >= 1 and over["seed"] == "7"
    assert all(line["type"] == "action" and line["events"] is not None for line in a[:-1])
    assert c[-1]["state_hash"] != over["state_hash"]
    # Through the service and its database, the game is exactly the engine's autoplay.
    ruleset = registry.get_ruleset("skirmish")
    final, actions = autoplay(ruleset, ruleset.load_scenario("standard"), 7)
    assert over["state_hash"] == state_hash(final)
    assert [line["action"] for line in a[:-1]] == actions


def test_dice_are_used_in_order_and_verify_flags_them(tmp_path, db_path):
    db = db_path  # a SQLite file or a PostgreSQL URL: --db takes either
    code, lines, _ = run(
        ["--game", "skirmish", "--seed", "1", "--dice", "6,1", "--db", str(db)],
        tmp_path,
        walk_script() + ["red /fire unit:r1 target:b2"],
    )
    fire = lines[-1]
    assert fire["ok"], fire
    assert [e["value"] for e in fire["events"] if e["type"] == "roll"] == [6]
    assert any(e.get("result") == "eliminated" for e in fire["events"])
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        assert verify.main(["--db", str(db), "--game", "1"]) == 1
    assert "typed in by hand" in out.getvalue()


def test_bad_dice_are_refused(tmp_path):
    code, _, err = run(["--game", "skirmish", "--dice", "6,x"], tmp_path)
    assert code == 2 and "--dice" in err


def test_planned_games_say_not_supported_yet(tmp_path, monkeypatch):
    # Every game of the plan is written now; a future one is announced the same way.
    from service import table

    monkeypatch.setitem(table.PLANNED, "chess", "Chess")
    code, _, err = run(["--game", "chess"], tmp_path)
    assert code == 2 and "not supported yet" in err


def test_a_game_whose_rules_do_not_import_is_not_supported_yet(tmp_path):
    registry.register("half-written", "engine.no_such_module:Rules")
    try:
        code, _, err = run(["--game", "half-written", "--autoplay"], tmp_path)
    finally:
        registry.RULESETS.pop("half-written")
    assert code == 2 and "not supported yet" in err


def test_unknown_games_and_scenarios_are_explained(tmp_path):
    code, _, err = run(["--game", "chess"], tmp_path)
    assert code == 2 and "Unknown game 'chess'" in err and "tenochtitlan" in err
    code, _, err = run(["--game", "skirmish", "--scenario", "nope", "--autoplay"], tmp_path)
    assert code == 2 and "unknown scenario" in err


def test_the_default_game_is_tenochtitlan():
    assert table.build_parser().parse_args([]).game == "tenochtitlan"


def test_hot_seat_play(tmp_path):
    typed = iter(
        [
            "/options",
            "/move unit:r1 to:0201",
            "/move unit:r1 to:0302",
            "/end-phase",
            "/end-phase",
            "blue /log",
            "/quit",
        ]
    )
    out = io.StringIO()
    code = table.main(
        ["--game", "skirmish", "--seed", "3", "--out", str(tmp_path / "boards")],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    text = out.getvalue()
    assert code == 0
    assert "legal action(s) for Red" in text and "/move unit:r1 to:0201" in text
    assert "✗ /move cannot take unit:r1 now; possible: r2." in text  # r1 already moved
    assert "/options lists the exact commands to type" in text
    assert "Now: Turn 1, move, Blue to act (Red ended the phase)." in text
    assert "#1 turn 1 Red: /move unit:Red r1 at 0101 to:0201" in text
    assert "The game is saved as #1" in text
    assert (tmp_path / "boards" / "table.sqlite3").exists()


def hot_seat(argv: list[str], lines: list[str]) -> str:
    typed = iter([*lines, "/quit"])
    out = io.StringIO()
    code = table.main(argv, stdout=out, stderr=io.StringIO(), input_fn=lambda prompt: next(typed))
    assert code == 0
    return out.getvalue()


def test_every_change_of_phase_and_side_is_announced_with_why_in_the_games_words(tmp_path):
    """Issue 15: not only the end of a side's turn; a phase ended within one side's turn and
    the other side's interruption (Tenochtitlan's defensive fire) are announced too."""
    text = hot_seat(
        ["--game", "tenochtitlan", "--scenario", "historical", "--seed", "7"]
        + ["--db", str(tmp_path / "t.db")],
        ["/end-phase", "/end-phase", "/end-phase"],
    )
    assert "Now: Turn 1, Combat, Spanish to act (Spanish ended the phase)." in text
    assert "Now: Turn 1, Movement, Aztec to act (Spanish ended the phase)." in text
    assert "Now: Turn 1, Defensive fire, Spanish to act (Aztec ended the phase)." in text
    # in the game's words: Rivet Wars counts rounds
    rivet = hot_seat(
        ["--game", "rivet-wars", "--seed", "7", "--db", str(tmp_path / "r.db")], ["/end-phase"]
    )
    assert "Now: Round 1, Combat, Bismark to act (Bismark ended the phase)." in rivet


def test_script_mode_names_the_change_and_why(tmp_path):
    _, lines, _ = run(
        ["--game", "tenochtitlan", "--scenario", "historical", "--seed", "7"]
        + ["--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/end-phase", "/options"],
    )
    assert lines[0]["flow"] == "Now: Turn 1, Combat, Spanish to act (Spanish ended the phase)."
    assert "flow" not in lines[1]


def test_hot_seat_writes_the_board_after_each_turn_when_pictures_work(tmp_path):
    try:
        import renderer

        renderer.render_png
    except (ImportError, AttributeError):
        pytest.skip("renderer.render_png is not written yet")
    typed = iter(["/end-phase", "/end-phase", "/quit"])
    out = io.StringIO()
    table.main(
        ["--game", "skirmish", "--seed", "3", "--out", str(tmp_path)],
        stdout=out,
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    # Numbered by the game's version (two /end-phase: version 2), so no board overwrites one.
    assert f"Board picture: {tmp_path / '0002-turn01-blue.png'}" in out.getvalue()
    assert (tmp_path / "0002-turn01-blue.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_lang_de_draws_the_table_s_board_pictures_in_german(tmp_path, monkeypatch):
    import sys
    import types

    fake = types.ModuleType("renderer")
    fake.render_png = lambda scene: json.dumps(scene).encode()  # the scene it was asked to draw
    monkeypatch.setitem(sys.modules, "renderer", fake)
    typed = iter(["/end-phase", "/end-phase", "/quit"])
    table.main(
        ["--game", "skirmish", "--seed", "3", "--out", str(tmp_path), "--lang", "de"],
        stdout=io.StringIO(),
        stderr=io.StringIO(),
        input_fn=lambda prompt: next(typed),
    )
    assert json.loads((tmp_path / "0002-turn01-blue.png").read_bytes())["lang"] == "de"
    assert table.main(["--lang", "fr", "--list"], stdout=io.StringIO(), stderr=io.StringIO()) == 2


def test_verify_command_checks_a_finished_game_and_a_revealed_seed(tmp_path, capsys, db_path):
    db = db_path
    code, lines, _ = run(
        ["--game", "skirmish", "--seed", "42", "--autoplay", "--db", str(db)], tmp_path
    )
    assert code == 0
    game_id = lines[-1]["game_id"]
    assert verify.main(["--db", str(db), "--game", str(game_id), "--seed", "42"]) == 0
    report = capsys.readouterr().out
    assert report.count("OK:") == 1 and lines[-1]["state_hash"] in report
    assert verify.main(["--db", str(db), "--game", str(game_id), "--seed", "41"]) == 1
    assert "does not match the seed hash" in capsys.readouterr().out
    [(seq, events)] = asyncio.run(
        query(
            db,
            "SELECT seq, events_json FROM actions WHERE "
            "events_json LIKE '%\"roll\"%' ORDER BY seq LIMIT 1",
        )
    )
    events = json.loads(events)
    roll = next(e for e in events if e["type"] == "roll")
    roll["value"] = roll["value"] % 6 + 1
    asyncio.run(
        query(db, "UPDATE actions SET events_json = ? WHERE seq = ?", (json.dumps(events), seq))
    )
    assert verify.main(["--db", str(db), "--game", str(game_id)]) == 1
    assert f"Action #{seq}" in capsys.readouterr().out
    assert verify.main(["--db", str(db), "--game", "99"]) == 3  # cannot read
    assert verify.main(["--db", str(tmp_path / "none.db"), "--game", "1"]) == 3


def test_help_speaks_of_the_current_game_only(tmp_path):
    """Issue 15: /help in Rivet Wars or SIEGE used Tenochtitlan's sides and units as examples."""
    for game, scenario, side in [
        ("rivet-wars", "mission-1", "bismark"),
        ("siege", "open-gate", "besieger"),
    ]:
        text = hot_seat(
            ["--game", game, "--scenario", scenario, "--seed", "7", "--db", str(tmp_path / game)],
            ["/help"],
        )
        help_text = text[text.index("Commands (the same grammar") :]
        for foreign in ("aztec", "az-bowmen", "Tenochtitlan", "0507"):
            assert foreign not in help_text, (game, foreign)
        assert f"put a side first to act for it: {side} /" in help_text
    rivet = hot_seat(
        ["--game", "rivet-wars", "--seed", "7", "--db", str(tmp_path / "r2")], ["/help"]
    )
    assert "bismark /deploy …" in rivet and "/options dragoon, /options C1" in rivet
    assert "/suggested        place them as the scenario suggests" in rivet  # mission 1 ships one
    pocket = hot_seat(
        ["--game", "pocket-tactics", "--seed", "7", "--db", str(tmp_path / "p")], ["/help"]
    )
    assert (
        "/suggested" not in pocket.split("This game's commands")[0]
    )  # its armies are chosen in play
    siege = hot_seat(
        ["--game", "siege", "--scenario", "open-gate", "--seed", "7", "--db", str(tmp_path / "s2")],
        ["/help"],
    )
    assert "/suggested" not in siege.split("This game's commands")[0]
    teno = hot_seat(
        ["--game", "tenochtitlan", "--seed", "7", "--db", str(tmp_path / "t")], ["/help"]
    )
    assert "/suggested        place them as the scenario suggests" in teno


def test_games_of_two_databases_never_share_a_boards_folder(tmp_path, monkeypatch):
    """Issue 15: with --db and no --out, game #1 of every database wrote its boards into the
    same per-user boards/game-1/, overwriting each other's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    folders = []
    for name in ("first", "second"):
        text = hot_seat(
            ["--game", "skirmish", "--seed", "3", "--db", str(tmp_path / f"{name}.sqlite3")], []
        )
        line = next(x for x in text.splitlines() if x.startswith("Board pictures go to "))
        folders.append(
            line.removeprefix("Board pictures go to ").removesuffix("/ after each turn.")
        )
    assert folders == [
        str(tmp_path / "first-boards" / "game-1"),
        str(tmp_path / "second-boards" / "game-1"),
    ]
    # the per-user database keeps its documented place
    text = hot_seat(["--game", "skirmish", "--seed", "3"], [])
    assert f"Board pictures go to {tmp_path / 'home' / 'umpire' / 'boards' / 'game-1'}/" in text


def test_a_long_list_of_actions_without_a_unit_is_grouped_by_command(tmp_path):
    """Issue 15 audit: SIEGE's first /options printed sixty "/fill at:…" lines one by one,
    because only actions with a unit were grouped."""
    text = hot_seat(
        ["--game", "siege", "--scenario", "long-siege", "--seed", "7"]
        + ["--db", str(tmp_path / "s.db")],
        ["/options"],
    )
    listing = text[text.index("legal action(s) for Besiegers") : text.index("Narrow it down")]
    assert "  /fill at:…  (60 ways)" in listing and "/fill at:0303" not in listing
    assert "  /aim engine:east-catapult …  (76 ways)" in listing
    assert len(listing.splitlines()) < 10
    assert "Narrow it down, e.g. /options belfry" in text


def test_a_change_shows_the_facts_that_changed_and_a_few_choices_typed_out(tmp_path):
    """Issue 15 audit: the table never showed Pocket Tactics' re-rolls left, the card drawn,
    or the handful of commands that answer a combat decision (Discord shows them as buttons)."""
    _, lines, _ = run(
        ["--game", "tenochtitlan", "--scenario", "historical", "--seed", "7"]
        + ["--db", str(tmp_path / "t.db")],
        tmp_path,
        ["/end-phase", "/end-phase"],
    )
    assert lines[0]["choices"][-1] == "/end-phase" and len(lines[0]["choices"]) <= 5
    assert any(f.startswith("Card: Canoe swarm") for f in lines[1]["facts"]), lines[1]
    assert "choices" not in lines[1]  # the Aztec movement phase has hundreds


async def test_pocket_tactics_combat_shows_re_rolls_left_and_the_answers(tmp_path):
    from service.games import GameService
    from service.table import Table

    svc = await GameService.open(tmp_path / "pt.db")
    try:
        info = await svc.start_game((await svc.create_game("pocket-tactics", seed="pt1")).id)
        out = io.StringIO()
        desk = Table(svc, info.id, None, out, io.StringIO())
        await desk.setup()
        for _ in range(300):
            info = await svc.get_game(info.id)
            side = info.awaiting[0]
            if desk.ruleset.setup_actions(await svc.view(info.id, side), side):
                await desk.execute(f"{side} /auto-setup")
                continue
            options = [o["command"] for o in (await desk.execute(f"{side} /options"))["options"]]
            fights = [c for c in options if c.startswith(("/attack", "/fire"))]
            done = await desk.execute(f"{side} {(fights or options)[0]}")
            if fights:
                break
        assert any(f.startswith("Re-rolls left: ") for f in done["facts"]), done
        assert "/pass" in done["choices"], done
        desk.show(done, info)
        assert f"{desk.title(done['awaiting'][0])} may type: " in out.getvalue()
    finally:
        await svc.close()
