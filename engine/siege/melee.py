"""Melee by odds (rulebook 1.7): strengths, the ratio rounded down in the defender's favour,
column shifts for terrain and for several attackers, the d10 on the table against foot (or, in
part 2, mounted) figures. :func:`assess` returns the whole arithmetic so the result line can show
it; the consequences (who is hit, retreats, advancing) are applied by the ruleset.
"""

from __future__ import annotations

from . import data, figures, tower
from .board import Board

SIGN_ORDER = {"-": 0, "0": 1, "+": 2}


def terrain_sign(
    board: Board,
    cell: str,
    *,
    attacker: bool,
    defender_cells: list[str],
    ladders: dict[str, str] | None = None,
    towers: dict[str, str] | None = None,
) -> tuple[str, str]:
    """The melee sign of a participant's cell and why (1.71; 1.75 the keep entrance; 1.93
    ladders; 2.4 the siege tower)."""
    if ladders and cell in ladders:
        return "-", f"{cell} on a ladder (1.93)"
    if towers and cell in towers:
        return tower.spec()["melee"], f"{cell} in a siege tower (2.4)"
    here = board.cell(cell)
    if attacker and here.building is None:
        for target in defender_cells:
            if board.cell(target).kind == "keep-door":
                return "-", f"{cell} attacks the keep entrance from outside the keep (1.75)"
    return here.melee, f"{cell} {here.title}"


def assess(
    board: Board,
    figs: dict,
    attackers: list[str],
    defenders: list[str],
    ladders: dict[str, str] | None = None,
    towers: dict[str, str] | None = None,
    mounted: dict[str, list[str]] | None = None,
    horse: dict | None = None,
) -> dict:
    """Odds and column of a melee between figure ids ``attackers`` and ``defenders``.
    ``mounted``: figure id -> the two cells of its horse, for the riders among them (3.3).
    ``horse``: ``{"name", "defence", "cells"}`` when the attackers strike a horse itself
    (3.35), with no figure defending."""
    mounted = mounted or {}
    att = [figs[a] for a in attackers]
    dfn = [figs[d] for d in defenders]
    attack = sum(figures.values(f)["attack"] for f in att)
    defence = horse["defence"] if horse else sum(figures.values(f)["defence"] for f in dfn)
    odds = attack // defence if defence else 99
    table = data.melee()
    columns = table["columns"]
    shifts_spec = data.terrain()["melee_shifts"]
    defender_cells = horse["cells"] if horse else [f["at"] for f in dfn]
    a_signs = [
        terrain_sign(
            board,
            f["at"],
            attacker=True,
            defender_cells=defender_cells,
            ladders=ladders,
            towers=towers,
        )
        for f in att
    ]
    d_signs = [
        terrain_sign(
            board, f["at"], attacker=False, defender_cells=[], ladders=ladders, towers=towers
        )
        for f in dfn
    ]
    # 3.35 "Wichtig": a rider fights on the less favourable of his horse's two cells.
    for signs, group, is_attacker in ((a_signs, attackers, True), (d_signs, defenders, False)):
        for i, fid in enumerate(group):
            if fid in mounted:
                signs[i] = min(
                    (
                        terrain_sign(
                            board,
                            c,
                            attacker=is_attacker,
                            defender_cells=defender_cells if is_attacker else [],
                        )
                        for c in mounted[fid]
                    ),
                    key=lambda s: SIGN_ORDER[s[0]],
                )
                signs[i] = (signs[i][0], f"{signs[i][1]} (the rider's worse cell, 3.35)")
    if horse:
        d_signs = [
            min(
                (terrain_sign(board, c, attacker=False, defender_cells=[]) for c in horse["cells"]),
                key=lambda s: SIGN_ORDER[s[0]],
            )
        ]
    against_mounted = horse is not None or any(d in mounted for d in defenders)
    # The attackers fight on their worst terrain (1.72); several defenders on their best
    # (our reading: the text only speaks of attackers).
    worst_a = min(a_signs, key=lambda s: SIGN_ORDER[s[0]])
    best_d = max(d_signs, key=lambda s: SIGN_ORDER[s[0]])
    shifts = []
    a_shift = shifts_spec["attacker"][worst_a[0]]
    d_shift = shifts_spec["defender"][best_d[0]]
    shifts.append((d_shift, f"defender on {best_d[1]} ({best_d[0]})"))
    shifts.append((a_shift, f"attackers' worst terrain {worst_a[1]} ({worst_a[0]})"))
    if len(att) > 1 and not against_mounted:
        shifts.append((shifts_spec["several_attackers"], "several attackers (1.72)"))
    base = columns.index("1-1") + max(0, min(odds, 99) - 1)
    base = min(base, len(columns) - 1)
    index = base + sum(s for s, _ in shifts)
    index = max(0, min(index, len(columns) - 1))
    parts = [f"{f['name']} {figures.values(f)['attack']}" for f in att]
    dparts = [f"{f['name']} {figures.values(f)['defence']}" for f in dfn]
    if horse:
        dparts = [f"{horse['name']} {horse['defence']}"]
    shift_text = "; ".join(f"{why}: {s:+d}" for s, why in shifts if s) or "no column shift"
    text = (
        f"attack {' + '.join(parts)} = {attack} vs defence {' + '.join(dparts)} = {defence}: "
        f"{attack}/{defence} -> {columns[base]}; {shift_text}; column {columns[index]}"
    )
    if against_mounted:
        text += " on the table against mounted figures" + (
            "; several attackers do not shift against riders (1.72)" if len(att) > 1 else ""
        )
    return {
        "attack": attack,
        "defence": defence,
        "odds": odds,
        "base_column": columns[base],
        "shifts": [[s, why] for s, why in shifts],
        "column": columns[index],
        "text": text,
        "mounted": against_mounted,
    }


def table_letter(column: str, roll: int, mounted: bool = False) -> str:
    return data.melee()["tables"]["mounted" if mounted else "foot"][column][roll - 1]
