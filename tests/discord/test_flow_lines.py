"""Every change of round, phase and side to act is announced in one line with why (issue 15);
a decision owed names the commands that answer it."""

from __future__ import annotations

from cogs.common import flow_line
from engine.core.dice import seeded
from engine.registry import get_ruleset

from .conftest import reply_text


async def test_ending_a_phase_and_a_turn_is_announced_with_why(table):
    await table.started_game()
    done = await table.alice.slash(table.thread, "end-phase")
    assert reply_text(done).startswith("Done"), reply_text(done)
    line = table.public()[-1]
    text = line.embeds[0].description if line.embeds else line.content
    assert "➡️ phase: fire · to act: Red (Red ended the phase)" in text, text
    await table.alice.slash(table.thread, "end-phase")
    text = table.public_text()
    assert "➡️ phase: move · to act: Blue (Red ended the phase)" in text, text


def test_a_decision_owed_names_its_commands_in_english_and_german():
    teno = get_ruleset("tenochtitlan")
    before = {"turn": 3, "phase": "combat", "active": "spanish", "awaiting": ["spanish"]}
    after = dict(
        before,
        awaiting=["aztec"],
        pending={"kind": "retreat", "side": "aztec", "unit": "az-infantry-1"},
    )
    owed = {
        "aztec": [
            {"type": "retreat", "side": "aztec", "unit": "az-infantry-1", "to": "0507"},
            {"type": "retreat", "side": "aztec", "unit": "az-infantry-1", "to": "0508"},
            {"type": "pass", "side": "aztec"},
        ]
    }
    attack = {
        "type": "attack",
        "side": "spanish",
        "unit": "sp-cavalry-1",
        "target": "az-infantry-1",
    }
    english = flow_line(teno, before, after, [], attack, "en", owed)
    assert english == (
        "➡️ to act: Aztec (Aztec owes a decision (retreat): /retreat unit:… to:… | /pass)"
    ), english
    german = flow_line(teno, before, after, [], attack, "de", owed)
    assert german == (
        "➡️ am Zug: Azteken (Entscheidung von Azteken fällig (Rückzug): /retreat unit:… to:… | /pass)"
    ), german
    # Once decided, the line says so; nothing changed, no line.
    assert "Aztec made the decision" in flow_line(
        teno, after, before, [], {"type": "pass", "side": "aztec"}, "en", {}
    )
    assert flow_line(teno, before, dict(before), [], attack, "en", {}) is None


def test_a_new_round_decided_by_initiative_dice_shows_them():
    rivet = get_ruleset("rivet-wars")
    state, _ = rivet.setup(rivet.load_scenario(rivet.default_scenario), seeded("flow", 0))
    before = dict(state, turn=1, phase="rally", active="bismark", awaiting=["bismark"])
    after = dict(state, turn=2, phase="card", active="allies", awaiting=["allies"])
    rolls = [
        {"type": "roll", "purpose": "initiative Allies", "value": 5},
        {"type": "roll", "purpose": "initiative Bismark", "value": 2},
    ]
    line = flow_line(rivet, before, after, rolls, {"type": "end-phase", "side": "bismark"}, "en")
    assert line == (
        "➡️ Round 2 begins · phase: Cards · to act: Allies (decided by the dice: "
        "initiative Allies 5, initiative Bismark 2)"
    ), line
    german = flow_line(rivet, before, after, rolls, {"type": "end-phase", "side": "bismark"}, "de")
    assert german.startswith("➡️ Runde 2 beginnt · Phase: Karten · am Zug: Alliierte"), german
    # the dice as the game names them in German, not the English purpose
    assert german.endswith("(die Würfel entscheiden: Initiative Alliierte 5, Initiative Bismark 2)")


def test_dice_that_decided_nothing_about_the_turn_are_not_given_as_its_reason():
    """Issue 15 audit: in Pocket Tactics (one action a turn) a hazard test rolled by a move was
    announced as "decided by the dice: spearman DEF 5+ test (hazard at 0807) 2, ..."."""
    pocket = get_ruleset("pocket-tactics")
    state, _ = pocket.setup(pocket.load_scenario(pocket.default_scenario), seeded("flow", 0))
    before = dict(state, turn=2, phase="play", active="north", awaiting=["north"])
    after = dict(state, turn=3, phase="play", active="south", awaiting=["south"])
    hazard = [{"type": "roll", "purpose": "spearman DEF 5+ test (hazard at 0807)", "value": 2}]
    move = {"type": "move", "side": "north", "unit": "spearman", "to": "0807"}
    line = flow_line(pocket, before, after, hazard, move, "en")
    assert "dice" not in line and line.endswith("(after /move, the game moves on by its rules)")
    roll_off = [{"type": "roll", "purpose": "roll-off: south", "value": 6}]
    assert "decided by the dice: roll-off: South 6" in flow_line(
        pocket, before, after, roll_off, move, "en"
    )


async def test_act_says_when_there_are_more_than_25_actions_and_how_to_narrow(table, german):
    await table.alice.slash(
        table.channel, "game new", ruleset="tenochtitlan", scenario="historical"
    )
    await table.alice.slash(table.thread, "game join", side="aztec")
    await table.bob.slash(table.thread, "game join", side="spanish")
    await table.alice.slash(table.thread, "game start")
    info = await table.game()
    legal = await table.service.legal_actions(info.id, "spanish")
    assert len(legal) > 25
    offered = await table.bob.autocomplete(table.thread, "act", "action", "")
    assert len(offered) == 25
    assert offered[-1]["name"].startswith(f"+{len(legal) - 25} weitere (Name oder Feld tippen"), (
        offered[-1]
    )
    assert offered[-1]["value"].startswith("/"), "the hint stays a real action"
    narrowed = await table.bob.autocomplete(table.thread, "act", "action", "sp-cavalry-1 to:0102")
    assert len(narrowed) < 25 and not any("weitere" in c["name"] for c in narrowed), narrowed
    waiting = await table.alice.autocomplete(table.thread, "act", "action", "")
    assert waiting == [{"name": "Nicht dein Zug: die Partie wartet auf Spanier", "value": "?"}]


async def test_picking_the_whose_turn_entry_says_whose_turn_it_is(table):
    await table.started_game()
    offered = await table.bob.autocomplete(table.thread, "act", "action", "")
    picked = await table.bob.slash(table.thread, "act", action=offered[0]["value"])
    assert "It is not your turn. The game waits for Red" in reply_text(picked), reply_text(picked)
    moved = await table.bob.slash(table.thread, "move", unit="?", to="?")
    assert "It is not your turn" in reply_text(moved), reply_text(moved)


def test_a_phase_left_because_nothing_is_left_to_do_in_it_says_so():
    """Tenochtitlan leaves the movement phase by itself once the card's moves are used up:
    the line said only "after /move, the game moves on by its rules"."""
    from engine.core.game import apply_action, new_game

    teno = get_ruleset("tenochtitlan")
    state, _ = new_game(teno, teno.load_scenario("historical"), "flow")
    for index in range(400):
        side = state["awaiting"][0]
        legal = teno.legal_actions(state, side)
        move = next((a for a in legal if a["type"] == "move"), None)
        action = move or next(a for a in legal if a["type"] == "end-phase")
        after, events = apply_action(teno, state, action, seeded("flow", index))
        if move and any(e["type"] == "phase_skipped" for e in events):
            break
        state = after
    else:
        raise AssertionError("no movement phase ran out of moves")
    english = flow_line(teno, state, after, events, move, "en")
    assert "had nothing left to do in Movement" in english, english
    german = flow_line(teno, state, after, events, move, "de")
    assert "gab es in der Phase Bewegung nichts mehr zu tun" in german, german
    assert "nach ihren Regeln" not in german, german
