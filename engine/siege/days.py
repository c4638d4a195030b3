"""Sieges of several days (5.4): the day as state, and what happens between two days.

A scenario may split its rounds into days (``days`` and ``rounds_per_day``); ``state["turn"]``
still counts every round of the siege, so ``last_turn`` and the victory conditions work across
days. When the last round of a day ends:

- every figure wounded during that day (alive, wounded now, not wounded at dawn) rolls on the
  healing table (``data/siege/healing.json``) for the morning it is healthy again;
- the filled-moat counters are taken off (2.2: "am Ende jeden Tages entfernt und vor den
  erneuten Angriffen neu gesetzt") and the besieger lays as many anew in the ``prepare`` step
  that opens the next day;
- on the next morning the figures whose healing day has come turn back to healthy.

Readings D1-D3 in docs/rules/siege.md.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core.dice import Dice

from . import data
from .data import need

MAX_DAYS = 30
MAX_ROUNDS_PER_DAY = 50


def rows_table(file: str, value_ok, value_key: str, problem: str) -> dict:
    """A d10 table of ``{"from", "to", value_key, ...}`` rows covering 1..die exactly once."""
    raw = data.read_json(data.DATA_DIR / file, file)
    die: Any = raw.get("die")
    need(die == 10, file, "die", "must be 10 (every SIEGE table is rolled with a d10)")
    rows: Any = raw.get("rows")
    need(isinstance(rows, list) and rows, file, "rows", "must be a list of rows")
    covered: list[int] = []
    for index, row in enumerate(rows):
        entry = f"rows[{index}]"
        need(isinstance(row, dict), file, entry, "must be an object")
        low: Any = row.get("from")
        high: Any = row.get("to")
        need(
            isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= die,
            file,
            entry,
            f"from and to must be whole numbers 1..{die}, from <= to",
        )
        need(value_ok(row.get(value_key)), file, f"{entry}.{value_key}", problem)
        covered += range(low, high + 1)
    need(
        sorted(covered) == list(range(1, die + 1)),
        file,
        "rows",
        f"must cover every result 1..{die} exactly once",
    )
    return raw


def lookup(table: dict, roll: int) -> dict:
    return next(row for row in table["rows"] if row["from"] <= roll <= row["to"])


@functools.lru_cache(maxsize=1)
def healing() -> dict:
    return rows_table(
        "healing.json",
        lambda v: v is None or (isinstance(v, int) and 1 <= v <= MAX_DAYS),
        "days",
        f"must be a number of days 1..{MAX_DAYS}, or null (not healed during the siege)",
    )


# ----- scenario ------------------------------------------------------------------------------
def with_last_turn(raw: dict, file: str) -> dict:
    """Scenario keys ``days`` and ``rounds_per_day`` (optional, given together) fix
    ``last_turn`` to their product; the scenario loader then checks it and ``turn`` as always."""
    days: Any = raw.get("days")
    per_day: Any = raw.get("rounds_per_day")
    if days is None and per_day is None:
        return raw
    need(
        isinstance(days, int) and 1 <= days <= MAX_DAYS,
        file,
        "days",
        f"must be 1..{MAX_DAYS} (and given together with rounds_per_day)",
    )
    need(
        isinstance(per_day, int) and 1 <= per_day <= MAX_ROUNDS_PER_DAY,
        file,
        "rounds_per_day",
        f"must be 1..{MAX_ROUNDS_PER_DAY} (and given together with days)",
    )
    total = days * per_day
    need(
        raw.get("last_turn", total) == total,
        file,
        "last_turn",
        f"must be days × rounds_per_day = {total}, or left out",
    )
    return {**raw, "last_turn": total}


def normalise(raw: dict, out: dict) -> None:
    """The day structure into the normalised scenario; without it a siege is one day."""
    out["days"] = raw.get("days", 1)
    out["rounds_per_day"] = raw.get("rounds_per_day", out["last_turn"])


def day_of(state: dict, turn: int) -> int:
    return (turn - 1) // state.get("rounds_per_day", state["last_turn"]) + 1


def setup(scenario: dict, state: dict) -> None:
    state["days"] = scenario.get("days", 1)
    state["rounds_per_day"] = scenario.get("rounds_per_day", scenario["last_turn"])
    state["day"] = day_of(state, state["turn"])
    state["wounded_at_dawn"] = sorted(
        fid for fid, f in state["figures"].items() if f["wounded"] and not f["dead"]
    )
    state["healing"] = {}


# ----- the night between two days -------------------------------------------------------------
def after_step(state: dict, events: list[dict], dice: Dice) -> None:
    """Called after every step's end: when the round that just ended closed a day, end that
    day and open the next one."""
    if "day" not in state or state.get("result") or state.get("turn_limit_reached"):
        return
    today = day_of(state, state["turn"])
    if today == state["day"]:
        return
    _end_day(state, events, dice)
    _dawn(state, today, events)


def _end_day(state: dict, events: list[dict], dice: Dice) -> None:
    day = state["day"]
    table = healing()
    at_dawn = set(state.get("wounded_at_dawn", []))
    rolls = []
    for fid, f in sorted(state["figures"].items()):
        if f["dead"] or not f["wounded"] or fid in at_dawn:
            continue
        roll = dice.roll(f"healing {f['name']}", events, sides=table["die"])
        row = lookup(table, roll)
        if row["days"] is not None:
            state["healing"][fid] = day + row["days"]
        rolls.append(
            {
                "unit": fid,
                "roll": roll,
                "title": row["title"],
                "healed_on": state["healing"].get(fid),
            }
        )
    # Counters under a standing siege tower or engine (a ram at the wall) stay: it stands on
    # them (our reading D2); taking them off would leave it in the moat.
    standing_on = {c for t in state.get("towers", {}).values() for c in t.get("cells", [])}
    standing_on |= {c for e in state.get("engines", {}).values() for c in e.get("cells", [])}
    removed = [c for c, kind in state["counters"] if kind == "filled-moat" and c not in standing_on]
    state["counters"] = [
        [c, kind] for c, kind in state["counters"] if not (kind == "filled-moat" and c in removed)
    ]
    dead = sorted(fid for fid, f in state["figures"].items() if f["dead"] and not f.get("off_map"))
    gone = sorted(fid for fid, f in state["figures"].items() if f.get("off_map"))
    wounded = sorted(fid for fid, f in state["figures"].items() if f["wounded"] and not f["dead"])
    events.append(
        {
            "type": "day_ended",
            "day": day,
            "healing": rolls,
            "moat_removed": removed,
            "wounded": wounded,
            "dead": dead,
            "left_map": gone,
        }
    )
    state["to_place"] = {"filled_moat": len(removed), "breaches": 0, "towers": []}


def _dawn(state: dict, day: int, events: list[dict]) -> None:
    state["day"] = day
    healed = []
    for fid, on in sorted(state["healing"].items()):
        f = state["figures"][fid]
        if on <= day and not f["dead"] and f["wounded"]:
            f["wounded"] = False
            healed.append(fid)
    state["healing"] = {
        fid: on for fid, on in state["healing"].items() if fid not in healed and on > day
    }
    state["wounded_at_dawn"] = sorted(
        fid for fid, f in state["figures"].items() if f["wounded"] and not f["dead"]
    )
    events.append({"type": "day_started", "day": day, "of": state["days"], "healed": healed})


def open_prepare(state: dict, events: list[dict], engine_work: list[str]) -> None:
    """After dawn, the besieger's work before the day's assault, if there is any: the
    filled-moat counters laid anew (2.2) and engines set up anew, aimed, bombarding or
    repaired (``engine_work``: those commands; 4.21, 4.23, 3.43). The morning's announcement
    says what is to do, so a player sees why the round opens with that step."""
    moat = state["to_place"].get("filled_moat", 0)
    if not moat and not engine_work:
        return
    state["phase"] = "prepare"
    state["active"] = "besieger"
    state["awaiting"] = ["besieger"]
    for e in events:
        if e.get("type") == "day_started":
            e["prepare"] = {"filled_moat": moat, "engines": sorted(engine_work)}
    events.append({"type": "phase_started", "phase": "prepare", "side": "besieger"})


def dawned(events: list[dict]) -> bool:
    return any(e.get("type") == "day_started" for e in events)


# ----- presentation -----------------------------------------------------------------------------
def header_fields(state: dict, out: dict[str, str]) -> None:
    """The round within the day, and the day, for a siege of several days."""
    if state.get("days", 1) <= 1:
        return
    per_day = state["rounds_per_day"]
    round_in_day = state["turn"] - (state["day"] - 1) * per_day
    value = f"{state['day']} of {state['days']}, round {round_in_day} of {per_day}"
    # "Day 2 of 4, round 3 of 8" in the place of the plain round count.
    fields = [("Day", value) if key == "Round" else (key, v) for key, v in out.items()]
    out.clear()
    out.update(fields)


DAY_WORDS = {
    "en": {
        "ended": "Day {day} ends.",
        "healing": "{name} rolls {roll} for healing: {title}.",
        "moat": "The filled-moat counters on {cells} are taken off; the besiegers lay {count} "
        "anew before the next assault.",
        "wounded": "Still wounded: {names}.",
        "dead": "Dead: {names}.",
        "left_map": "Fled off the map: {names}.",
        "started": "Day {day} of {of} begins.",
        "healed": " Healed overnight: {names}.",
        "lay": "lay {count} filled-moat counter(s) anew (/fill)",
        "engines": "work their engines ({commands})",
        "and": " and ",
        "prepare": " Before the assault the besiegers may {tasks}; their /end-phase starts the "
        "day's first round.",
    },
    "de": {
        "ended": "Tag {day} endet.",
        "healing": "{name} würfelt {roll} für die Heilung: {title}.",
        "moat": "Die Marker „aufgefüllter Graben“ auf {cells} werden entfernt; die Belagerer "
        "legen vor dem nächsten Sturm {count} neu.",
        "wounded": "Noch verwundet: {names}.",
        "dead": "Tot: {names}.",
        "left_map": "Vom Spielplan geflohen: {names}.",
        "started": "Tag {day} von {of} beginnt.",
        "healed": " Über Nacht geheilt: {names}.",
        "lay": "{count} Marker „aufgefüllter Graben“ neu legen (/fill)",
        "engines": "ihre Maschinen bedienen ({commands})",
        "and": " und ",
        "prepare": " Vor dem Sturm dürfen die Belagerer {tasks}; ihr /end-phase beginnt die "
        "erste Runde des Tages.",
    },
}

HEALING_DE = {
    "healed next morning": "am nächsten Morgen geheilt",
    "healed in two days": "in zwei Tagen geheilt",
    "healed in three days": "in drei Tagen geheilt",
    "not healed during this siege": "während dieser Belagerung nicht geheilt",
}


def describe_event(state: dict, e: dict, lang: str = "en") -> str | None:
    """The day's end and the next morning, in English or German (one table of words)."""
    say = DAY_WORDS.get(lang, DAY_WORDS["en"])

    def names(fids) -> str:
        return ", ".join(state["figures"].get(f, {}).get("name", f) for f in fids)

    if e.get("type") == "day_ended":
        parts = [say["ended"].format(day=e["day"])]
        for r in e["healing"]:
            title = HEALING_DE.get(r["title"], r["title"]) if lang == "de" else r["title"]
            parts.append(
                say["healing"].format(name=names([r["unit"]]), roll=r["roll"], title=title)
            )
        if e["moat_removed"]:
            parts.append(
                say["moat"].format(cells=", ".join(e["moat_removed"]), count=len(e["moat_removed"]))
            )
        for key in ("wounded", "dead", "left_map"):
            if e.get(key):
                parts.append(say[key].format(names=names(e[key])))
        return " ".join(parts)
    if e.get("type") == "day_started":
        line = say["started"].format(day=e["day"], of=e["of"])
        if e["healed"]:
            line += say["healed"].format(names=names(e["healed"]))
        work = e.get("prepare")
        if work:
            tasks = []
            if work["filled_moat"]:
                tasks.append(say["lay"].format(count=work["filled_moat"]))
            if work["engines"]:
                commands = ", ".join(f"/{c}" for c in work["engines"])
                tasks.append(say["engines"].format(commands=commands))
            line += say["prepare"].format(tasks=say["and"].join(tasks))
        return line
    return None
