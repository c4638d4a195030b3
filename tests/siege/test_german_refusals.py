"""SIEGE's frequent refusals reach a German player in German (issue 15): the generic ones
(not legal / not possible now), the shooting step's, and the siege engines'."""

from __future__ import annotations

import pytest

from cogs.i18n import rule_text
from engine.core.errors import RuleError
from engine.siege import refusals, riders
from tests.discord.conftest import clock, db_path, dice, german, reply_text, table  # noqa: F401

from .helpers import RULES, act, build


def _refused(state, command, side=None):
    with pytest.raises(RuleError) as caught:
        act(state, side or state["active"], command)
    return caught.value


def _german(state, command, side=None):
    return rule_text(_refused(state, command, side), "de")


FIELD = {
    "arch": ("archer", "besieger", "0119"),
    "xbow": ("crossbowman", "besieger", "0219"),
    "foe": ("man-at-arms", "defender", "0519"),
}


def test_the_riders_german_refusals_stay_beside_the_games_own():
    templates = RULES.translations["de"]
    assert templates["siege.cross_only"] == riders.TRANSLATIONS["de"]["siege.cross_only"]
    assert templates["siege.ballista_crew"] == refusals.TRANSLATIONS["de"]["siege.ballista_crew"]


def test_a_command_of_another_step_is_refused_in_german_with_the_commands_of_this_one():
    state = build(FIELD)
    assert state["phase"] == "fire1"
    text = _german(state, "/attack unit:arch target:foe")
    assert text.startswith("/attack ist jetzt nicht möglich. Erlaubt: /shoot")


def test_a_move_out_of_reach_is_refused_in_german_with_the_legal_moves():
    state = build(FIELD, phase="move")
    text = _german(state, "/move unit:arch to:2219")
    assert text.startswith("/move geht jetzt nicht mit to:2219; möglich: 0113, 0114"), text
    assert "Erlaubt: /move unit:Arch (Bogenschütze, unverletzt) auf 0119 to:0113" in text


def test_a_crossbowman_who_just_shot_hears_why_he_does_not_move():
    state = build(FIELD)
    state, _ = act(state, "besieger", "/shoot unit:xbow target:foe", dice=[1])
    state, _ = act(state, "besieger", "/end-phase")
    error = _refused(state, "/move unit:xbow to:0218")
    assert "Xbow has just shot his crossbow and does not move" in str(error)
    assert rule_text(error, "de").startswith(
        "Xbow hat gerade mit der Armbrust geschossen und bewegt sich in diesem "
        "Bewegungsschritt nicht (1.21)."
    )


def test_a_bowman_who_fought_last_round_hears_why_he_does_not_shoot_first():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "foe": ("peasant", "defender", "0219"),
        "far": ("man-at-arms", "defender", "0619"),
    }
    state = build(figs, phase="melee")
    state, _ = act(state, "besieger", "/attack unit:arch target:foe")
    state, _ = act(state, "besieger", "/fight", dice=[4])  # no effect: both stay
    for _ in range(5):  # the defenders' phase, then the besiegers' first fire step
        state, _ = act(state, state["active"], "/end-phase")
    assert (state["active"], state["phase"]) == ("besieger", "fire1")
    error = _refused(state, "/shoot unit:arch target:far")
    assert "Arch fought in melee last round and does not shoot" in str(error)
    assert "Arch hat in der letzten Runde im Nahkampf gekämpft" in rule_text(error, "de")


def test_a_shot_beyond_long_range_is_refused_in_german_with_the_distance():
    state = build({"arch": ("archer", "besieger", "0119"), "foe": ("peasant", "defender", "2201")})
    error = _refused(state, "/shoot unit:arch target:foe")
    assert "range 28 is beyond long range (24)" in str(error)
    assert rule_text(error, "de").startswith(
        "Arch kann nicht auf Foe schießen: Entfernung 28 liegt jenseits der großen Reichweite (24)."
    )


BALLISTA = {"b1": {"kind": "ballista", "side": "besieger", "at": "0519"}}
CREW = {
    "t": ("technician", "besieger", "0619"),
    "p": ("peasant", "besieger", "0520"),
    "d": ("man-at-arms", "defender", "0119"),
}
RAM = {
    "r1": {"kind": "ram", "side": "besieger", "cells": ["0818", "0819", "0820"], "towards": "0817"}
}
RAM_CREW = {
    "a": ("peasant", "besieger", "0818"),
    "b": ("peasant", "besieger", "0819"),
    "c": ("peasant", "besieger", "0820"),
    "x": ("peasant", "defender", "2201"),
}


def test_engine_refusals_name_the_rule_in_german():
    alone = {k: v for k, v in CREW.items() if k != "p"}
    unmanned = build(alone, engines=BALLISTA, phase="fire1")
    assert _german(unmanned, "/bolt engine:b1 target:d").startswith(
        "Balliste b1 fehlt ihre Mannschaft: sie braucht 2 handlungsfähige Figuren ihrer Seite "
        "neben sich, eine davon ein Techniker (3.41); jetzt daneben: T."
    )
    early = build(CREW, engines=BALLISTA, phase="move")
    assert _german(early, "/aim engine:b1 at:0816").startswith(
        "Kriegsmaschinen werden nur vor dem Sturm des Tages, im Vorbereitungsschritt"
    )
    assert _german(early, "/bolt engine:zz target:d").startswith(
        "zz gehört nicht zu deinen Kriegsmaschinen der Art Balliste."
    )
    far = build(RAM_CREW, engines=RAM, filled_moat=["0817"], phase="melee")
    assert _german(far, "/batter engine:r1").startswith(
        "Die Front von Widder r1 zeigt auf 0817: keine Mauer, kein Turm und keine Tormauer"
    )
    assert _german(far, "/drive engine:r1 to:0816").startswith(
        "Ein Widder wird im Bewegungsschritt seiner Seite geschoben (4.31)."
    )


def test_an_english_player_still_reads_the_english_refusal():
    state = build(FIELD)
    error = _refused(state, "/attack unit:arch target:foe")
    assert rule_text(error, "en") == str(error)
    assert str(error).startswith("/attack is not possible now. Legal: /shoot")


@pytest.mark.asyncio
async def test_a_german_player_hears_siege_refusals_in_german(table, german):  # noqa: F811
    """Under SimCord with a German client (long-siege starts in the besieger's prepare step):
    a command of another step, an engine that is not his and a wall cell no engine is laid on
    are refused in German, and nothing changes."""
    created = await table.alice.slash(
        table.channel, "game new", ruleset="siege", scenario="long-siege"
    )
    assert "eröffnet" in reply_text(created), reply_text(created)
    await table.alice.slash(table.thread, "game join", side="besieger")
    await table.bob.slash(table.thread, "game join", side="defender")
    await table.alice.slash(table.thread, "game start")
    before = (await table.game()).state
    assert before["phase"] == "prepare"
    attack = reply_text(
        await table.alice.slash(table.thread, "act", action="/attack unit:Walther target:Hugo")
    )
    assert "/attack ist jetzt nicht möglich. Erlaubt: /fill" in attack, attack
    foreign = reply_text(
        await table.alice.slash(table.thread, "act", action="/aim engine:b9 at:0816")
    )
    assert "b9 gehört nicht zu deinen Kriegsmaschinen der Art Katapult oder Onager." in foreign
    unaimed = reply_text(await table.alice.slash(table.thread, "act", action="/bombard at:0816"))
    assert "Heute ist keine Kriegsmaschine auf 0816 gerichtet" in unaimed, unaimed
    after = (await table.game()).state
    assert after == before


def test_an_attack_on_an_enemy_two_cells_away_says_melee_needs_adjacent_cells():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "foe": ("peasant", "defender", "0319"),
        "near": ("peasant", "defender", "0120"),
    }
    state = build(figs, phase="melee")
    error = _refused(state, "/attack unit:arch target:foe")
    assert "Arch is not next to Foe: figures fight only from adjacent cells (1.7)." in str(error)
    assert rule_text(error, "de").startswith(
        "Arch steht nicht neben Foe: Figuren kämpfen nur aus angrenzenden Feldern gegeneinander "
        "(1.7). Erlaubt: /attack"
    )
    # The neighbour is attacked as before.
    state, _ = act(state, "besieger", "/attack unit:arch target:near")
    assert state["pending"]["defenders"] == ["near"]


def test_a_figure_that_already_moved_in_this_step_is_told_so():
    state = build(FIELD, phase="move")
    state, _ = act(state, "besieger", "/move unit:arch to:0118")
    error = _refused(state, "/move unit:arch to:0119")
    assert "Arch has already had his turn in this step (1.21)." in str(error)
    assert rule_text(error, "de") == "Arch war in diesem Schritt schon an der Reihe (1.21)."


def test_a_ladder_raised_where_it_cannot_lean_is_refused_in_german_with_the_rule():
    figs = {
        "a": ("man-at-arms", "besieger", "0818"),
        "b": ("man-at-arms", "besieger", "0918"),
        "far": ("peasant", "defender", "2201"),
    }
    carried = {"l": {"at": "0818", "raised": False, "carriers": ["a", "b"]}}
    state = build(figs, phase="move", ladders=carried)
    error = _refused(state, "/raise ladder:l at:1519 faces:1516")
    assert "Ladder l cannot lean on 1516 from 1519: a ladder is raised" in str(error)
    assert rule_text(error, "de").startswith(
        "Leiter l kann nicht von 1519 aus an 1516 angelehnt werden: eine Leiter wird auf einem "
        "freien Feld außen am Fuß einer Brustwehr aufgestellt"
    )
    assert "Erlaubt: /raise" in rule_text(error, "de")
    lying = build(figs, phase="move", ladders={"l": {"at": "0718", "raised": False}})
    assert _german(lying, "/raise ladder:l at:0817 faces:0816").startswith(
        "Leiter l liegt am Boden: zuerst heben zwei Figuren neben ihr sie mit /carry auf (1.91)."
    )


def test_counters_before_the_assault_are_refused_in_german_where_they_do_not_go():
    figs = {"m": ("man-at-arms", "besieger", "0818"), "x": ("peasant", "defender", "2201")}
    state = build(figs, prepare={"filled_moat": 1, "breaches": 1})
    assert (state["phase"], state["active"]) == ("prepare", "besieger")
    bridge = _refused(state, "/fill at:1117")
    assert "1117 is no moat cell: filled-moat counters go on the moat, never under" in str(bridge)
    assert rule_text(bridge, "de").startswith(
        "1117 ist kein Feld des Burggrabens: Spielsteine „gefüllter Graben“ kommen in den "
        "Burggraben, nie unter die Zugbrücke (2.2)."
    )
    assert _german(state, "/breach at:0818").startswith(
        "0818 ist kein Mauer- oder Brustwehrfeld: Spielsteine „zerstörte Mauer“"
    )
    state, _ = act(state, "besieger", "/fill at:0817")
    assert _german(state, "/fill at:0917").startswith(
        "Es ist kein Spielstein „gefüllter Graben“ mehr zu legen"
    )


def test_oil_refusals_name_the_rule_in_german():
    ground = build(
        {"d": ("man-at-arms", "defender", "0118"), "b": ("peasant", "besieger", "0119")},
        first="defender",
        phase="melee",
        oil={"pot": {"carrier": "d"}},
    )
    error = _refused(ground, "/pour unit:d at:0119")
    assert "D pours oil only from a parapet (5.32)." in str(error)
    assert rule_text(error, "de") == "D gießt Öl nur von einer Brustwehr aus (5.32)."
    empty = build(
        {"d": ("man-at-arms", "defender", "0704"), "b": ("peasant", "besieger", "0705")},
        first="defender",
        phase="melee",
        oil={"pot": {"at": "2220"}},
    )
    assert _german(empty, "/pour unit:d at:0705").startswith(
        "D trägt kein Ölfass: zuerst im Bewegungsschritt eines mit /lift aufnehmen (5.32)."
    )
    besieger = build(
        {"b": ("man-at-arms", "besieger", "0704"), "d": ("peasant", "defender", "0705")},
        phase="melee",
        oil={"pot": {"carrier": "b"}},
    )
    assert _german(besieger, "/pour unit:b at:0705").startswith(
        "Nur Verteidiger auf einer Brustwehr gießen kochendes Öl (5.32)."
    )


def test_fire_refusals_name_the_rule_in_german():
    from .test_fire import build as with_bystanders
    from .test_fire import with_engines

    parapet = with_engines(
        with_bystanders({"d": ("man-at-arms", "defender", "0704")}, first="defender", phase="move"),
        ram=("ram", "besieger", ["0703"]),
    )
    error = _refused(parapet, "/kindle unit:d at:0703")
    assert "D stands on a parapet and sets nothing alight by staying beside it" in str(error)
    assert rule_text(error, "de").startswith(
        "D steht auf einer Brustwehr und setzt so nichts in Brand; von dort tun es Brandpfeile "
        "oder kochendes Öl (3.51: „Eine Figur auf einem Brustwehrfeld"
    )
    field = with_engines(
        with_bystanders({"d": ("man-at-arms", "defender", "0518")}, first="defender", phase="move"),
        cat=("catapult", "besieger", ["0519"]),
    )
    assert _german(field, "/kindle unit:d at:0517").startswith(
        "D setzt nur eine feindliche Kriegsmaschine, einen Belagerungsturm oder ein Zelt neben "
        "sich in Brand, die noch nicht brennen, und bleibt dazu eine ganze Runde daneben (3.51): "
        "nicht 0517. Erlaubt: /kindle unit:D"
    )
    burning = with_engines(
        with_bystanders({"b": ("peasant", "besieger", "0518")}, phase="melee"),
        {"0519": (2, "defender")},
        cat=("catapult", "besieger", ["0519"]),
    )
    assert _german(burning, "/douse unit:b at:0418").startswith(
        "B löscht nur ein Feuer in einem Feld neben sich, im Nahkampfschritt (3.53): 0418 ist "
        "keines."
    )


def test_lifting_and_laying_the_shield_are_refused_in_german_with_the_rule():
    figs = {
        "d": ("man-at-arms", "besieger", "0219"),
        "e": ("peasant", "besieger", "0419"),
        "far": ("peasant", "defender", "2201"),
    }
    state = build(figs, phase="move", shields={"s": {"at": "0219"}})
    away = _refused(state, "/lift unit:e item:s")
    assert "E takes up shield s only on its cell, 0219 (5.21: on the same cell)." in str(away)
    assert rule_text(away, "de").startswith(
        "E nimmt Schirm s nur auf seinem Feld 0219 auf (5.21: „wenn sie sich auf dem gleichen "
        "Feld befindet“). Erlaubt: /lift"
    )
    assert _german(state, "/lift unit:d item:zz9").startswith(
        "Es gibt kein Ölfass und keinen Schirm 'zz9'; es gibt: s."
    )
    assert _german(state, "/lay unit:e faces:0418") == (
        "E trägt keinen Schirm, den er aufstellen könnte (5.22)."
    )
    state, _ = act(state, "besieger", "/lift unit:d item:s")
    assert _german(state, "/lift unit:e item:s").startswith("s wird von D getragen.")
    assert _german(state, "/lay unit:d faces:0819").startswith(
        "0819 liegt nicht neben dem Feld 0219 von D: der Schirm wird entlang einer Kante des "
        "Feldes seines Trägers aufgestellt (5.22). Erlaubt: /lay"
    )


TOWER = {"t": {"side": "besieger", "cells": ["0619", "0719", "0819"], "towards": "0618"}}
TOWER_CREW = {
    "a": ("man-at-arms", "besieger", "0619"),
    "b": ("man-at-arms", "besieger", "0719"),
    "c": ("man-at-arms", "besieger", "0819"),
    "z": ("peasant", "defender", "1208"),
}


def test_siege_tower_refusals_name_the_rule_in_german():
    state = build(TOWER_CREW, phase="move", towers=TOWER)
    far = _refused(state, "/roll tower:t to:0616")
    assert "Siege tower t rolls only straight forward or back" in str(far)
    assert rule_text(far, "de").startswith(
        "Belagerungsturm t rollt nur gerade vor oder zurück, innerhalb der Punkte der Runde"
    )
    assert _german(state, "/roll tower:q to:0618").startswith(
        "q ist keiner deiner Belagerungstürme."
    )
    rolled, _ = act(state, "besieger", "/roll tower:t to:0618")
    assert _german(rolled, "/roll tower:t to:0617") == (
        "Belagerungsturm t wurde in dieser Runde schon geschoben (2.41)."
    )
    short = build({k: v for k, v in TOWER_CREW.items() if k != "c"}, phase="move", towers=TOWER)
    assert _german(short, "/roll tower:t to:0618") == (
        "Belagerungsturm t braucht 3 handlungsfähige Figuren seiner Seite in seinem Inneren, "
        "die in dieser Runde noch nicht gehandelt haben (2.41); jetzt: A, B."
    )


def test_a_shot_blocked_by_a_wall_or_a_figure_is_refused_in_german_naming_cell_and_rule():
    wall = build({"a": ("archer", "besieger", "0818"), "t": ("peasant", "defender", "0714")})
    error = _refused(wall, "/shoot unit:a target:t")
    assert str(error).startswith(
        "A cannot shoot at T: 0816: parapet (height 2) is higher than both ends: blocked (1.41)"
    )
    assert rule_text(error, "de").startswith(
        "A kann nicht auf T schießen: 0816: Brustwehr (Höhe 2) ist höher als beide Enden: "
        "blockiert (1.41)."
    )
    friend = build(
        {
            "a": ("archer", "besieger", "0119"),
            "m": ("peasant", "besieger", "0219"),
            "t": ("peasant", "defender", "0419"),
        }
    )
    assert _german(friend, "/shoot unit:a target:t").startswith(
        "A kann nicht auf T schießen: 0219: die Figur M (Höhe 2) ist höher als beide Enden: "
        "blockiert (1.41; auf kurze Entfernung schießt man nicht über Figuren hinweg, 1.42)."
    )
    # /los keeps its English answer and its picture.
    assert "0816: parapet (height 2) is higher than both ends" in RULES.los(wall, "0818", "0714")


def test_a_shot_by_a_figure_that_is_not_ones_own_names_the_figure_not_the_command():
    """/shoot is possible in the fire step: a mistyped or enemy shooter is the mistake, and the
    refusal names it with the shooters that can (it said "/shoot is not possible now")."""
    state = build(FIELD)
    for shooter in ("archx", "foe"):
        error = _refused(state, f"/shoot unit:{shooter} target:foe")
        assert f"/shoot cannot take unit:{shooter} now; possible: arch, xbow" in str(error)
        assert rule_text(error, "de").startswith(
            f"/shoot geht jetzt nicht mit unit:{shooter}; möglich: arch, xbow."
        ), rule_text(error, "de")
    state = build(FIELD, phase="move")
    error = _refused(state, "/move unit:arc to:0118")
    assert "/move cannot take unit:arc now; possible: arch, xbow" in str(error)
