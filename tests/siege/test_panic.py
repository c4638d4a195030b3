"""The optional rule "panic and rout" (Panik und Flucht), through actions and events."""

from __future__ import annotations

from engine.siege import panic

from .helpers import RULES, act, build, legal, of

PANIC = {"options": {"panic": True}}
# The archer kills Tom with a d10 9 (A at short range, no cover; test_shooting.py). Around Tom
# (all outside the castle): a peasant and a man-at-arms who can panic, a knight who cannot.
FIGS = {
    "arch": ("archer", "besieger", "0119"),
    "tom": ("man-at-arms", "defender", "0319"),
    "pea": ("peasant", "defender", "0320"),
    "sol": ("man-at-arms", "defender", "0418"),
    "kni": ("knight", "defender", "0219"),
    "far": ("peasant", "defender", "2201"),
}


def _kill_tom(state, *panic_dice):
    return act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, *panic_dice])


def _moods(state):
    return {fid: f.get("panic") for fid, f in state["figures"].items() if f.get("panic")}


def test_without_the_rule_a_death_makes_no_panic():
    state, events = _kill_tom(build(FIGS))
    assert not of(events, "panic_roll") and _moods(state) == {}


def test_a_death_rolls_for_soldiers_and_peasants_within_three_cells_never_knights():
    state, events = _kill_tom(build(FIGS, **PANIC), 3)
    roll = of(events, "panic_roll")[0]
    # Knights are fearless; "far" is out of the radius.
    assert (roll["dead"], roll["among"], roll["title"]) == ("tom", ["pea", "sol"], "no effect")
    assert _moods(state) == {}


def test_soldiers_panic_only_at_a_knights_or_soldiers_death_peasants_at_anyones():
    figs = {**FIGS, "tom": ("peasant", "defender", "0319")}
    state, events = _kill_tom(build(figs, **PANIC), 3)
    assert of(events, "panic_roll")[0]["among"] == ["pea"]


def test_the_owner_chooses_who_panics_and_the_figure_falls_back_three_cells():
    # A second enemy to the east keeps the nearest enemy within six cells after the flight.
    figs = {**FIGS, "foe": ("knight", "besieger", "0918")}
    state, events = _kill_tom(build(figs, **PANIC), 6)  # panic! 1 figure, of two
    assert of(events, "choose_panic")[0]["count"] == 1
    assert RULES.awaiting(state) == ["defender"]
    assert legal(state, "defender") == [
        {"type": "panic", "side": "defender", "unit": "pea"},
        {"type": "panic", "side": "defender", "unit": "sol"},
    ]
    state, events = act(state, "defender", "/panic unit:sol")
    fled = of(events, "fled")[0]
    board = RULES.board(state)
    assert fled["unit"] == "sol" and len(fled["path"]) == 4  # three cells
    nearest = min(board.distance(fled["to"], e) for e in ("0119", "0918"))
    assert nearest > min(board.distance("0418", e) for e in ("0119", "0918"))
    assert state["figures"]["sol"]["panic"] == "panic" and "pea" not in _moods(state)
    # The roll is met; Pea may still be put in panic of the owner's free will, or spared.
    more = of(events, "choose_panic")[0]
    assert more["voluntary"] and more["among"] == ["pea"]
    assert "may also strike Pea with panic of their own free will" in RULES.describe_event(
        state, more
    )
    assert RULES.awaiting(state) == ["defender"]
    state, events = act(state, "defender", "/panic")
    assert "pea" not in _moods(state) and not of(events, "fled")
    # The game goes on where it stood: the besieger's shooting step.
    assert RULES.awaiting(state) == ["besieger"] and state["phase"] == "fire1"
    picture = RULES.scene(state, events, None)
    assert {"at": fled["to"], "text": "PANIC", "color": "#8b0000"} in picture["labels"]
    assert {p["id"]: p.get("badge") for p in picture["pieces"]}["sol"] == "P"


def test_the_owner_may_put_more_figures_in_panic_than_the_roll_strikes():
    """ "Umgekehrt kann der Spieler aber alle Figuren, die sich innerhalb dieses Radius
    befinden, freiwillig in Panik versetzen, auch wenn diese Anzahl die Zahl vom Ergebnis
    überschreitet." Stopping early is refused: the roll's number is owed first."""
    figs = {**FIGS, "foe": ("knight", "besieger", "0918")}
    state, _ = _kill_tom(build(figs, **PANIC), 6)  # panic! 1 figure, of two
    assert {"type": "panic", "side": "defender"} not in legal(state, "defender")
    state, _ = act(state, "defender", "/panic unit:pea")
    state, events = act(state, "defender", "/panic unit:sol")
    assert _moods(state) == {"pea": "panic", "sol": "panic"}
    assert {e["unit"] for e in of(events, "fled")} == {"sol"}
    # Nobody is left within the radius: the choice closes by itself.
    assert RULES.awaiting(state) == ["besieger"] and not state.get("panic_choice")
    assert not of(events, "choose_panic")


def test_a_roll_striking_as_many_as_can_be_struck_needs_no_choice_and_ten_routs():
    state, events = _kill_tom(build(FIGS, **PANIC), 10)  # rout! 6 figures
    assert not of(events, "choose_panic")
    assert _moods(state) == {"pea": "rout", "sol": "rout"}
    assert RULES.awaiting(state) == ["besieger"]
    for e in of(events, "fled"):
        path = e["path"]
        enemies = ["0119"]
        # Never into (nor through) a cell next to an enemy.
        assert all(RULES.board(state).distance(c, x) > 1 for c in path[1:] for x in enemies)


def test_defenders_inside_the_castle_are_immune():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "tom": ("man-at-arms", "defender", "0718"),
        "in": ("peasant", "defender", "0716"),
        "out": ("peasant", "defender", "0819"),
    }
    state = build(figs, **PANIC)
    assert RULES.board(state).cell("0716").inside  # on the parapet
    assert RULES.board(state).distance("0716", "0718") <= 3
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, 3])
    assert of(events, "panic_roll")[0]["among"] == ["out"]


def test_a_second_panic_makes_rout():
    state, _ = _kill_tom(build(FIGS, **PANIC), 6)
    state, _ = act(state, "defender", "/panic unit:sol")
    where = state["figures"]["sol"]["at"]
    # A second defender dies within three cells of the panicked Sol.
    figs = {k: v for k, v in FIGS.items() if k not in ("tom",)}
    figs["sol"] = ("man-at-arms", "defender", where)
    figs["ned"] = ("man-at-arms", "defender", "0718")
    state = build(figs, **PANIC)
    state["figures"]["sol"]["panic"] = "panic"
    assert RULES.board(state).distance(where, "0718") <= 3
    assert not any(
        RULES.board(state).distance(f["at"], "0718") <= 3
        for fid, f in state["figures"].items()
        if f["side"] == "defender" and fid not in ("sol", "ned", "kni")
    )
    # Sol is routed outright: no roll (nobody else within three cells could panic).
    state, events = act(state, "besieger", "/shoot unit:arch target:ned", dice=[10])
    assert state["figures"]["ned"]["dead"]
    assert state["figures"]["sol"]["panic"] == "rout" and not of(events, "panic_roll")


def test_attacking_a_panicked_figure_shifts_one_column_and_ignores_results_on_the_attackers():
    figs = {
        "a": ("man-at-arms", "besieger", "0519"),
        "d": ("man-at-arms", "defender", "0619"),
        "x": ("peasant", "defender", "2201"),
    }
    calm = build(figs, phase="melee", **PANIC)
    state, _ = act(calm, "besieger", "/attack unit:a target:d")
    _, events = act(state, "besieger", "/fight", dice=[5])
    plain = of(events, "melee")[0]
    scared = build(figs, phase="melee", **PANIC)
    scared["figures"]["d"]["panic"] = "panic"
    state, _ = act(scared, "besieger", "/attack unit:a target:d")
    _, events = act(state, "besieger", "/fight", dice=[5])
    shifted = of(events, "melee")[0]
    columns = [plain["column"], shifted["column"]]
    from engine.siege import data

    order = data.melee()["columns"]
    assert order.index(columns[1]) == order.index(columns[0]) + 1
    assert "defenders in panic or rout: +1" in shifted["text"]
    # A result against the attackers (E or F) is ignored.
    for roll in range(1, 11):
        state, _ = act(scared, "besieger", "/attack unit:a target:d")
        after, events = act(state, "besieger", "/fight", dice=[roll])
        letter = of(events, "melee")[0]["letter"]
        if letter != "-" and data.results()[letter]["side"] == "attacker":
            assert of(events, "result_ignored") and not after["figures"]["a"]["stunned"]
            assert not of(events, "choose_retreat") and not of(events, "retreated")
            break
    else:
        raise AssertionError("no result against the attackers in this column")


def test_panic_ends_beside_a_knight_or_sergeant_or_six_cells_from_the_enemy():
    figs = {
        "arch": ("archer", "besieger", "0119"),
        "p": ("peasant", "defender", "0419"),
        "serg": ("sergeant", "defender", "0720"),
    }
    state = build(figs, phase="move", active="defender", **PANIC)
    state["figures"]["p"]["panic"] = "panic"
    state, events = act(state, "defender", "/move unit:p to:0619")
    assert of(events, "calmed") and "panic" not in state["figures"]["p"]
    far = build(
        {**figs, "serg": ("sergeant", "defender", "2201")}, phase="move", active="defender", **PANIC
    )
    far["figures"]["p"]["panic"] = "panic"
    assert RULES.board(far).distance("0719", "0119") >= 6
    state, events = act(far, "defender", "/move unit:p to:0719")
    assert of(events, "calmed")[0]["was"] == "panic"


def test_a_panicked_figure_never_moves_next_to_an_enemy_a_routed_one_not_at_all():
    figs = {
        "foe": ("knight", "besieger", "0819"),
        "p": ("peasant", "defender", "0519"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, phase="move", active="defender", **PANIC)
    before = {a["to"] for a in legal(state, "defender", "move") if a["unit"] == "p"}
    assert "0719" in before
    state["figures"]["p"]["panic"] = "panic"
    moves = {a["to"] for a in legal(state, "defender", "move") if a["unit"] == "p"}
    assert "0719" not in moves and moves
    state["figures"]["p"]["panic"] = "rout"
    assert not [a for a in legal(state, "defender", "move") if a["unit"] == "p"]


def test_a_routed_figure_runs_its_whole_movement_each_round_until_rallied():
    figs = {
        "foe": ("knight", "besieger", "0519"),
        "r": ("peasant", "defender", "0719"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, phase="fire1", active="defender", **PANIC)
    state["figures"]["r"]["panic"] = "rout"
    state, events = act(state, "defender", "/end-phase")  # into the movement step
    fled = of(events, "fled")[0]
    board = RULES.board(state)
    assert fled["unit"] == "r" and board.distance(fled["to"], "0519") > 2
    assert state["figures"]["r"]["panic"] == "rout"
    # A sergeant beside it at the end of a movement step rallies it.
    where = fled["to"]
    near = [c for c in board.neighbours(where) if board.cell(c).cost is not None][0]
    state = build(
        {**figs, "r": ("peasant", "defender", where), "serg": ("sergeant", "defender", near)},
        phase="move",
        active="defender",
        **PANIC,
    )
    state["figures"]["r"]["panic"] = "rout"
    state, events = act(state, "defender", "/end-phase")
    assert of(events, "calmed")[0] == {"type": "calmed", "unit": "r", "at": where, "was": "rout"}


def test_a_panicked_figure_that_cannot_fall_back_is_wounded():
    # Hemmed in by two enemies: every cell around is next to one of them.
    figs = {
        "arch": ("archer", "besieger", "0619"),
        "foe": ("knight", "besieger", "0818"),
        "tom": ("man-at-arms", "defender", "0720"),
        "pea": ("peasant", "defender", "0719"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, **PANIC)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, 6])
    assert of(events, "cannot_fall_back")[0]["unit"] == "pea"
    assert state["figures"]["pea"]["wounded"] and state["figures"]["pea"]["panic"] == "panic"


def test_a_besieger_inside_the_castle_flees_towards_the_nearest_way_out():
    figs = {
        "arch": ("archer", "defender", "1012"),
        "tom": ("man-at-arms", "besieger", "1014"),
        "pea": ("peasant", "besieger", "1114"),
        "x": ("peasant", "besieger", "2201"),
    }
    state = build(figs, phase="fire1", active="defender", first="defender", **PANIC)
    board = RULES.board(state)
    assert board.cell("1114").inside and not state["bridge_up"]
    state, events = act(state, "defender", "/shoot unit:arch target:tom", dice=[10, 10])
    fled = of(events, "fled")[0]
    gate = board.drawbridge["cells"][0]
    assert board.distance(fled["to"], gate) < board.distance("1114", gate)


def test_the_panic_table_and_classes_are_data():
    rows = panic.table()
    assert [r["count"] for r in rows["rows"]] == [0, 1, 2, 3, 3, 6]
    assert rows["classes"]["knight"] == "knight" and rows["rallying"] == ["knight", "sergeant"]


def test_the_fall_back_leaves_the_next_movement_whole():
    figs = {**FIGS, "foe": ("knight", "besieger", "0918")}
    state, _ = _kill_tom(build(figs, **PANIC), 6)
    state, events = act(state, "defender", "/panic unit:sol")
    where = of(events, "fled")[0]["to"]
    state, _ = act(state, "defender", "/panic")  # Pea is spared
    for _ in range(4):  # the besiegers' steps end; the defenders' shooting step ends
        state, _ = act(state, state["active"], "/end-phase")
    state, _ = act(state, "defender", "/end-phase")
    assert (state["phase"], state["active"]) == ("move", "defender")
    after_flight = {a["to"] for a in legal(state, "defender", "move") if a["unit"] == "sol"}
    # The same figure put there in panic without having fled: the same moves.
    fresh = build(
        {
            **figs,
            "tom": ("man-at-arms", "defender", "0319", "dead"),
            "sol": ("man-at-arms", "defender", where),
        },
        phase="move",
        active="defender",
        **PANIC,
    )
    fresh["figures"]["sol"]["panic"] = "panic"
    assert after_flight and after_flight == {
        a["to"] for a in legal(fresh, "defender", "move") if a["unit"] == "sol"
    }


def test_a_figure_killed_because_it_could_not_fall_back_makes_its_own_panic_roll():
    figs = {
        "arch": ("archer", "besieger", "0619"),
        "foe": ("knight", "besieger", "0818"),
        "tom": ("man-at-arms", "defender", "0720"),
        "pea": ("peasant", "defender", "0719", "wounded"),
        "pe3": ("peasant", "defender", "0917"),  # three cells from Pea, four from Tom
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, **PANIC)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, 6, 8])
    assert of(events, "cannot_fall_back")[0]["outcome"] == "dead"
    assert [(r["dead"], r["among"]) for r in of(events, "panic_roll")] == [
        ("tom", ["pea"]),
        ("pea", ["pe3"]),
    ]
    assert of(events, "fled")[0]["unit"] == "pe3"


def test_a_referee_cannot_set_a_step_while_a_panic_choice_is_open():
    import pytest

    from engine.core.errors import RuleError

    figs = {**FIGS, "foe": ("knight", "besieger", "0918")}
    state, _ = _kill_tom(build(figs, **PANIC), 6)
    with pytest.raises(RuleError, match="who panics"):
        RULES.referee_edit(state, {"type": "ref-phase", "side": "referee", "phase": "move"})


def test_a_flight_that_runs_into_the_map_edge_leaves_the_map_for_good():
    # Pea stands in the map's corner, the enemy coming at it: nowhere farther on the map.
    figs = {
        "arch": ("archer", "besieger", "0318"),
        "tom": ("man-at-arms", "defender", "0219"),
        "pea": ("peasant", "defender", "0120"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, days=2, rounds_per_day=1, **PANIC)
    state, events = act(state, "besieger", "/shoot unit:arch target:tom", dice=[9, 6])
    left = of(events, "left_map")[0]
    assert left["unit"] == "pea"
    pea = state["figures"]["pea"]
    assert pea["off_map"] and pea["dead"] and "panic" not in pea
    assert "never to return" in RULES.describe_event(state, left)
    # Gone: not drawn, no body costing movement, never a target.
    assert "pea" not in {p["id"] for p in RULES.scene(state, events, None)["pieces"]}
    assert RULES._dead_count(state).get(pea["at"]) is None
    assert not [a for a in legal(state, "besieger", "shoot") if a["target"] == "pea"]
    # The night's summary names it apart from the dead.
    for _ in range(8):
        state, events = act(state, state["active"], "/end-phase")
    line = RULES.describe_event(state, of(events, "day_ended")[0])
    assert "Dead: Tom." in line and "Fled off the map: Pea." in line


def test_a_side_whose_last_figures_fled_off_the_map_has_lost_and_is_told_so():
    """Figures that left the map "können die Karte nicht mehr betreten": with the last one
    dead or gone the side is wiped out, and the result says that some fled."""
    figs = {
        "arch": ("archer", "besieger", "0318"),
        "tom": ("man-at-arms", "defender", "0219"),
        "pea": ("peasant", "defender", "0120"),
    }
    state, events = act(
        build(figs, **PANIC), "besieger", "/shoot unit:arch target:tom", dice=[9, 6]
    )
    assert of(events, "left_map")[0]["unit"] == "pea"
    assert state["result"] == {
        "winner": "besieger",
        "reason": "every defender figure is dead or fled off the map",
    }


def test_a_rout_reaching_the_map_edge_with_movement_to_spare_runs_off_the_map():
    figs = {
        "foe": ("knight", "besieger", "0517"),
        "r": ("peasant", "defender", "0219"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, phase="fire1", active="defender", **PANIC)
    state["figures"]["r"]["panic"] = "rout"
    state, events = act(state, "defender", "/end-phase")  # into the movement step
    assert of(events, "left_map")[0]["path"] == ["0219", "0120"]
    assert state["figures"]["r"]["off_map"]


def test_a_flight_never_runs_into_or_through_fire_an_engine_or_a_horse():
    """The flight is a move: like every move it stays out of burning cells (3.54), engines
    (3.43) and horses not a friend's mount (3.3). Without them Pea runs 0419-0519-0618 and
    Sol 0518-0617-0717 (rout, 10)."""
    state = build(
        FIGS,
        engines={"b1": {"kind": "ballista", "side": "besieger", "at": "0518"}},
        horses={"h": {"side": "besieger", "cells": ["0618", "0718"]}},
        **PANIC,
    )
    state["fires"] = {"0519": {"age": 1, "by": "besieger"}}
    state, events = _kill_tom(state, 10)
    shut = {"0519", "0518", "0618", "0718"}
    fled = of(events, "fled")
    assert {e["unit"] for e in fled} == {"pea", "sol"}
    for e in fled:
        assert not shut & set(e["path"]), e


def test_a_mounted_sergeant_in_panic_rides_off_with_his_horse():
    """Our reading: the rider flees on his horse; the counter moves as in a move, the back
    following the front, so rider and horse stay together."""
    figs = {**FIGS, "sol": ("sergeant", "defender", "0418")}
    state = build(
        figs,
        horses={"h": {"side": "defender", "cells": ["0418", "0318"], "rider": "sol"}},
        **PANIC,
    )
    state, events = _kill_tom(state, 10)
    fled = next(e for e in of(events, "fled") if e["unit"] == "sol")
    moved = of(events, "horse_moved")[0]
    sol, horse = state["figures"]["sol"], state["horses"]["h"]
    assert moved["horse"] == "h" and horse["cells"][0] == sol["at"] == fled["to"] != "0418"
    assert RULES.board(state).distance(*horse["cells"]) == 1
    board = RULES.board(state)
    assert board.distance(fled["to"], "0119") > board.distance("0418", "0119")


def test_a_melee_against_a_panicked_and_a_steady_defender_gets_no_shift():
    """D10: the column moves only when every defender of the melee is in panic or rout."""
    figs = {
        "b": ("knight", "besieger", "0720"),
        "d": ("peasant", "defender", "0619"),
        "e": ("peasant", "defender", "0620"),
        "x": ("peasant", "defender", "2201"),
    }
    state = build(figs, phase="melee", **PANIC)
    state["figures"]["d"]["panic"] = "panic"
    state, _ = act(state, "besieger", "/attack unit:b target:e")
    state, events = act(state, "besieger", "/attack unit:b target:d")
    assert sorted(of(events, "melee_declared")[0]["defenders"]) == ["d", "e"]
    _, events = act(state, "besieger", "/fight", dice=[5])
    assert "panic or rout" not in of(events, "melee")[0]["text"]
