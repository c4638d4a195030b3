"""Combat: one strike, weakening dice, counter-attacks, damage to buildings.

Our base rule (docs/rules/tactical-table-war.md, "Combat"): the striker rolls an attack die and
adds its strength; the defender rolls a die and adds its strength and its tile's terrain
advantage, minus the pips of the weakening dice lying on it. Attack >= defence kills. A strike
that does not kill leaves its attack die on the defender as a weakening die.
"""

from __future__ import annotations

from engine.core.dice import Dice

from . import board
from .data import Catalogue, other
from .units import ENGINES, building_of, stats


def remove_unit(cat: Catalogue, state: dict, uid: str, events: list, reason: str) -> None:
    """Take a unit out of play (always by the enemy's hand), tidying what it was part of, and
    count it on the killer's looting die."""
    unit = state["units"].pop(uid)
    at = unit["at"]
    b = state["buildings"].get(at)
    if b and b["occupant"] == uid:
        # The quarry's counter die stays for the next occupant (the expansion's ACHTUNG).
        b["occupant"] = None
    c = state["constructions"].get(at)
    if c and uid in (c["settler"], c["crew"]):
        release_tile(state, c["kind"], c["tile"])
        del state["constructions"][at]
        events.append({"type": "construction_abandoned", "at": at, "kind": c["kind"]})
    state["eliminated"].append(uid)
    record_loss(cat, state, unit)
    events.append(
        {"type": "eliminated", "unit": uid, "side": unit["side"], "at": at, "reason": reason}
    )
    killer = other(unit["side"])
    state["looting"][killer] += 1
    if state["looting"][killer] >= cat.looting["kills_per_die"]:
        state["looting"][killer] = 0
        state["treasury"][killer] += 1
        events.append({"type": "looted", "side": killer, "treasury": state["treasury"][killer]})


def record_loss(cat: Catalogue, state: dict, unit: dict) -> None:
    """What each side lost, for the picture's losses strip (a settler used up by building
    a fortress, trebuchet or engine is not a loss and never comes here)."""
    lost = state.setdefault("lost", {"red": [], "blue": []})
    lost[unit["side"]].append(
        cat.types[unit["type"]]["short"] + ("+" if unit["level"] == "advanced" else "")
    )


def release_tile(state: dict, kind: str, tile: int | None) -> None:
    if tile is None:
        return
    pool = state["engine_supply"] if kind in ENGINES else state["supply"]
    pool[tile]["at"] = None


def terrain_counts(state: dict, uid: str) -> bool:
    """Units in a building have no terrain advantage (both ways of conquering say
    "ohne ... Landschaftsvorteile" / "keinen Landschaftsvorteil")."""
    return building_of(state, uid) is None


def strike(
    cat: Catalogue,
    state: dict,
    attacker: str,
    defender: str,
    dice: Dice,
    events: list,
    kind: str,
    terrain: bool,
    path: list[str],
    weakens: bool = True,
) -> str:
    """One strike of ``attacker`` at ``defender``. Returns ``killed``, ``tie`` or ``held``.

    On ``tie`` the defender is doomed but may still strike back (the expansion: "Falls der
    Angreifer höher oder gleich ist, stirbt die Einheit. Falls sie niedriger oder gleich ist,
    darf der Gegner ... zurück angreifen"); the caller removes it afterwards. ``weakens=False``
    is the catapult's extra attack die, which "wird nicht zu einem Schwächungswürfel".
    """
    a_unit, d_unit = state["units"][attacker], state["units"][defender]
    a_strength = stats(cat, state, attacker)["strength"]
    d_strength = stats(cat, state, defender)["strength"]
    advantage = cat.landscapes[state["tiles"][d_unit["at"]]]["terrain_advantage"] if terrain else 0
    a_die = dice.roll("attack", events, unit=attacker)
    d_die = dice.roll("defence", events, unit=defender)
    weakening = sum(d_unit["weak"])
    attack = a_strength + a_die
    defence = d_strength + advantage + d_die - weakening
    outcome = "killed" if attack > defence else "tie" if attack == defence else "held"
    if outcome == "held" and weakens:
        d_unit["weak"].append(a_die)
    events.append(
        {
            "type": "combat",
            "kind": kind,
            "attacker": attacker,
            "defender": defender,
            "side": a_unit["side"],
            "from": a_unit["at"],
            "to": d_unit["at"],
            "route": path,
            "attack": attack,
            "attack_die": a_die,
            "strength": a_strength,
            "defence": defence,
            "defence_die": d_die,
            "defender_strength": d_strength,
            "terrain_advantage": advantage,
            "weakening": weakening,
            "outcome": outcome,
        }
    )
    return outcome


def counter_route(
    cat: Catalogue, state: dict, striker: str, target: str, crossable
) -> list[str] | None:
    """The route a counter-attack would take, if the striker's range reaches back."""
    s, t = state["units"][striker], state["units"][target]
    return board.route(
        state["tiles"],
        s["at"],
        t["at"],
        stats(cat, state, striker)["range"],
        lambda lab: crossable(state, s["side"], lab),
    )
