"""The siege shield (rulebook 5.2): carried by a figure in its cell at two points less
movement, laid along one hexside of a cell; cover for the figure behind it against shots
across that side or its two neighbouring sides, no melee and no retreat across that side.

State ``state["shields"]``: ``{shield: {"at": cell, "faces": neighbour}}`` for a shield laid
along the side between ``at`` and ``faces``; ``{shield: {"carrier": figure}}`` for one carried;
``{shield: {"at": cell}}`` for one lying unlaid (dropped by a stunned or killed carrier, or
placed so by a scenario). Numbers: ``data/siege/shield.json``. Readings F10-F12.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core import hexgrid
from engine.core.errors import ScenarioError

from . import data, figures
from .refusals import say

FILE = "shield.json"


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    return load(data.DATA_DIR / FILE, FILE)


def load(path, label: str) -> dict:
    raw = data.read_json(path, label)
    data.need(
        raw.get("cover") in data.COVERS, label, "cover", f"must be one of {', '.join(data.COVERS)}"
    )
    data.need(
        isinstance(raw.get("carry_penalty"), int) and raw["carry_penalty"] >= 0,
        label,
        "carry_penalty",
        "must be a whole number >= 0",
    )
    return raw


def normalise(raw: Any, board, figs: dict, file: str, taken: set[str]) -> dict:
    """The scenario's ``shields``; ``taken`` are ids and carriers already used by oil pots."""
    if not isinstance(raw, dict):
        raise ScenarioError(
            file, "shields", "must be an object: shield id -> {at, faces} or {carrier}"
        )
    out: dict[str, dict] = {}
    for sid, item in raw.items():
        entry = f"shields.{sid}"
        data.need(sid not in taken, file, entry, "an oil pot has this id")
        data.need(
            isinstance(item, dict) and (set(item) in ({"carrier"}, {"at"}, {"at", "faces"})),
            file,
            entry,
            "must be {at, faces}, {at} or {carrier}",
        )
        if "carrier" in item:
            carrier = item["carrier"]
            data.need(
                carrier in figs and not figs[carrier]["dead"] and carrier not in taken,
                file,
                f"{entry}.carrier",
                "must be a living figure of the scenario that carries nothing else",
            )
            taken = taken | {carrier}
        else:
            at = item["at"]
            data.need(
                at in board and board.cell(at).cost is not None,
                file,
                f"{entry}.at",
                "must be a cell a figure can stand on",
            )
            data.need(
                "faces" not in item or item["faces"] in board.neighbours(at),
                file,
                f"{entry}.faces",
                "must be a neighbour of its cell: the shield stands along the side between them",
            )
        out[sid] = dict(item)
    return out


def shields(state: dict) -> dict[str, dict]:
    return state.get("shields") or {}


def where(state: dict, sid: str) -> str:
    item = shields(state)[sid]
    return state["figures"][item["carrier"]]["at"] if item.get("carrier") else item["at"]


def carriers(state: dict) -> dict[str, str]:
    """Able figure -> the shield it carries."""
    return {
        item["carrier"]: sid
        for sid, item in sorted(shields(state).items())
        if item.get("carrier") and figures.can_act(state["figures"][item["carrier"]])
    }


def drop_unable(state: dict, events: list) -> None:
    """F11: a carrier stunned or killed holds nothing: his shield lies unlaid in his cell, and
    when he comes to he must take it up again."""
    for sid, item in sorted(shields(state).items()):
        carrier = item.get("carrier")
        if carrier and not figures.can_act(state["figures"][carrier]):
            state["shields"][sid] = {"at": state["figures"][carrier]["at"]}
            events.append({"type": "shield_dropped", "unit": carrier, "shield": sid})


def laid(state: dict) -> dict[str, str]:
    """Cell -> the neighbour its laid shield faces."""
    return {item["at"]: item["faces"] for item in shields(state).values() if item.get("faces")}


def penalty(state: dict, fid: str) -> int:
    return spec()["carry_penalty"] if fid in carriers(state) else 0


def across(state: dict, a: str, b: str) -> bool:
    """5.23: no fight and no retreat across a laid shield's side."""
    return any({item.get("at"), item.get("faces")} == {a, b} for item in shields(state).values())


def lift_actions(state: dict, side: str, candidates: list[str], holding: set[str]) -> list[dict]:
    """A figure on the shield's cell takes it up ("wenn sie sich auf dem gleichen Feld
    befindet"), laid or lying, unless an able figure carries it; it carries one thing only."""
    held = carriers(state)
    return [
        {"type": "lift", "side": side, "unit": fid, "item": sid}
        for fid in candidates
        if fid not in holding
        for sid in sorted(shields(state))
        if sid not in held.values() and where(state, sid) == state["figures"][fid]["at"]
    ]


def lift(state: dict, action: dict, events: list) -> None:
    state["shields"][action["item"]] = {"carrier": action["unit"]}
    events.append({"type": "shield_lifted", "unit": action["unit"], "shield": action["item"]})


def lay_actions(state: dict, board, side: str, candidates: list[str]) -> list[dict]:
    """``/lay unit: faces:`` in the movement step, after moving or instead: the carrier sets the
    shield down in its cell along the side towards ``faces``."""
    out = []
    for fid, sid in sorted(carriers(state).items()):
        if fid not in candidates:
            continue
        at = state["figures"][fid]["at"]
        out += [
            {"type": "lay", "side": side, "unit": fid, "faces": n}
            for n in sorted(board.neighbours(at))
        ]
    return out


def lay(state: dict, action: dict, events: list) -> None:
    fid = action["unit"]
    sid = carriers(state)[fid]
    at = state["figures"][fid]["at"]
    state["shields"][sid] = {"at": at, "faces": action["faces"]}
    events.append(
        {"type": "shield_laid", "unit": fid, "shield": sid, "at": at, "faces": action["faces"]}
    )


def cover(board, state: dict, shooter_at: str, target_at: str, seen) -> None:
    """5.22: a line that enters the target's cell across the shield's side or one of its two
    neighbouring sides gives the figure behind it the shield's cover (F10). Those three sides
    face every direction within 90 degrees of the shield's; a line exactly along the border of
    that half (through a corner) counts as covered, in the defender's favour."""
    faces = laid(state).get(target_at)
    if faces is None or not seen.possible or shooter_at == target_at:
        return
    tx, ty = hexgrid.pixel_center(board.cell(target_at).hex, 1.0)
    sx, sy = hexgrid.pixel_center(board.cell(shooter_at).hex, 1.0)
    fx, fy = hexgrid.pixel_center(board.cell(faces).hex, 1.0)
    if (sx - tx) * (fx - tx) + (sy - ty) * (fy - ty) < -1e-9:
        return
    better = spec()["cover"]
    if data.COVERS.index(seen.cover) < data.COVERS.index(better):
        seen.cover = better
    seen.reasons.append(
        say(
            "sight_shield",
            f"{target_at}: a siege shield along its side towards {faces} covers the target "
            f"({better} cover, 5.22)",
            cell=target_at,
            faces=faces,
            cover=f"{better} cover",
        )
    )


def markers(state: dict) -> list[dict]:
    """Carried or lying unlaid: a marker in the cell; laid ones are drawn as their hexside."""
    return [
        {"at": where(state, sid), "kind": "flag", "color": "#34495e", "text": "Sh"}
        for sid, item in sorted(shields(state).items())
        if not item.get("faces")
    ]


def edges(state: dict) -> list[dict]:
    return [
        {"at": at, "to": faces, "color": "#34495e", "width": 9}
        for at, faces in sorted(laid(state).items())
    ]


def notes(state: dict) -> list[str]:
    if not shields(state):
        return []
    return [
        "Thick slate side: a siege shield laid along it (cover behind it); Sh: a shield carried."
    ]


# A shield's events in each language (Schirm: the rulebook's word).
EVENT_WORDS = {
    "en": {
        "shield_lifted": "{who} takes up the siege shield {shield} (moves two points less).",
        "shield_dropped": "{who} drops the siege shield {shield}; it lies in his cell.",
        "shield_laid": "{who} lays the siege shield {shield} at {at} facing {faces}.",
    },
    "de": {
        "shield_lifted": "{who} nimmt den Schirm {shield} auf (zieht zwei Punkte weniger).",
        "shield_dropped": "{who} lässt den Schirm {shield} fallen; er liegt in seinem Feld.",
        "shield_laid": "{who} stellt den Schirm {shield} auf {at} auf, Front zu {faces}.",
    },
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    template = EVENT_WORDS.get(lang, EVENT_WORDS["en"]).get(str(e.get("type")))
    if template is None:
        return None
    who = state["figures"].get(e.get("unit", ""), {}).get("name", e.get("unit"))
    return template.format(who=who, **{k: v for k, v in e.items() if k != "type"})
