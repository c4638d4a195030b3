"""Sight and cover over heights (rulebook 1.4 and 1.5), explained cell by cell.

One function, :func:`look`, decides every shot and every ``/los`` question from the height
model in :mod:`engine.siege.board`; it returns not only yes/no but the reasons, each naming the
cell and the rule that decided it, so a player never has to argue about a sight line.

How a line is judged (our reading of 1.41-1.46, written out in docs/rules/siege.md):

- The line runs centre to centre, except from a parapet or an arrow slit shooting through its
  battlement or opening: then it starts at the middle of that hexside and the range counts from
  the wall (one less than the cell distance).
- Each cell the line crosses is an obstacle of some height: its terrain (walls 2, towers 3,
  keep 4; flat cells none) and a living figure in it (its level + 1). An obstacle no higher than
  the lower end never blocks; one higher than both ends always blocks; one in between blocks
  unless the lower figure stands at least as far from it as the higher one (looking down over a
  wall: example 1.45). A line running along a hexside of a wall, tower or keep grazes it and is
  blocked (1.45, 1.46); along a side between two figures it is blocked only when both block.
- At medium and long range a shot passes over figures (1.42); the target then has light cover.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import hexgrid
from engine.core.errors import Reason, keyed_of

from . import camp, tower
from .board import (
    BATTLEMENTS,
    BUILDING_DOORS,
    SLITS,
    Board,
    _side_corners,
    centre,
    exit_neighbours,
    segment_cells,
    side_midpoint,
)
from .refusals import say, worded

COVER_ORDER = ("none", "light", "medium", "heavy", "full")


def worse_cover(a: str, b: str) -> str:
    """The better protection of two covers (for the target)."""
    return a if COVER_ORDER.index(a) >= COVER_ORDER.index(b) else b


@dataclass
class Sight:
    possible: bool
    distance: int = 0
    band: str | None = None
    cover: str = "none"
    reasons: list[str] = field(default_factory=list)
    crossed: list[str] = field(default_factory=list)
    from_wall: bool = False

    def as_dict(self) -> dict:
        return {
            "possible": self.possible,
            "distance": self.distance,
            "band": self.band,
            "cover": self.cover,
            "reasons": list(self.reasons),
            "crossed": list(self.crossed),
            "from_wall": self.from_wall,
        }


def band_for(bands: dict | None, distance: int) -> str | None:
    if not bands:
        return None
    for name in ("short", "medium", "long"):
        if distance <= bands[name]:
            return name
    return None


def look(
    board: Board,
    living: dict[str, str],
    shooter: str,
    target: str,
    *,
    bands: dict | None = None,
    bridge_up: bool = False,
    ladders: dict[str, str] | None = None,
    facing: dict[str, str] | None = None,
    towers: dict[str, str] | None = None,
    shooter_top: bool = False,
    target_top: bool = False,
) -> Sight:
    """Whether a figure on ``shooter`` can shoot at one on ``target``, and with what cover.

    ``living``: cell -> a short name of the living figure there (shooter and target excluded
    automatically). ``bands``: the weapon's range bands (``None``: range is not judged, figures
    in the way always block). ``bridge_up``: the drawbridge is raised (1.52, 1.57).
    ``ladders``: raised ladders, cell -> the parapet each leans on (1.93). ``facing``: door cell
    -> "in" or "out", the side a figure in a doorway takes its cover against (1.53).
    ``towers``: cells of standing siege towers -> tower id; ``shooter_top``/``target_top``: that
    figure stands on a tower's platform (a figure on a tower cell otherwise is inside it, 2.4).
    """
    ladders = ladders or {}
    if shooter in ladders:
        # 1.93: from a ladder only at the parapet it faces, whose figure has heavy cover.
        faced = ladders[shooter]
        sight = Sight(possible=target == faced, distance=1, band=band_for(bands, 1), cover="heavy")
        sight.reasons.append(
            say(
                "sight_ladder_parapet" if target == faced else "sight_ladder_only",
                f"{shooter}: on a ladder one shoots only at the parapet it leans on ({faced})"
                + (": heavy cover (1.93)" if target == faced else " (1.93)"),
                cell=shooter,
                faced=faced,
            )
        )
        return sight
    towers = towers or {}
    if shooter in towers and not shooter_top:
        sight = Sight(possible=False, distance=board.distance(shooter, target))
        sight.reasons.append(
            say(
                "sight_inside_tower_shooter",
                f"{shooter}: figures inside a siege tower cannot shoot (2.44)",
                cell=shooter,
            )
        )
        return sight
    if target in towers and not target_top:
        sight = Sight(possible=False, distance=board.distance(shooter, target), cover="full")
        sight.reasons.append(
            say(
                "sight_inside_tower_target",
                f"{target}: inside a siege tower: total cover, no shot (2.44)",
                cell=target,
            )
        )
        return sight
    result = _look(
        board,
        living,
        shooter,
        target,
        bands=bands,
        bridge_up=bridge_up,
        facing=(facing or {}).get(target, "out"),
        towers=towers,
        shooter_top=shooter_top,
        target_top=target_top,
    )
    if target_top and result.possible:
        result.cover = worse_cover(result.cover, tower.spec()["cover_top"])
        result.reasons.append(
            say(
                "sight_tower_top",
                f"{target}: on top of a siege tower: {result.cover} cover (2.44)",
                cell=target,
                cover=f"{result.cover} cover",
            )
        )
    if target in ladders and result.possible:
        result.cover = "none"
        result.reasons.append(
            say("sight_on_ladder", f"{target}: on a ladder: no cover (1.93)", cell=target)
        )
    return result


def _look(
    board: Board,
    living: dict[str, str],
    shooter: str,
    target: str,
    *,
    bands: dict | None,
    bridge_up: bool,
    facing: str = "out",
    towers: dict[str, str] | None = None,
    shooter_top: bool = False,
    target_top: bool = False,
) -> Sight:
    s_cell, t_cell = board.cell(shooter), board.cell(target)
    towers = towers or {}
    top_level = tower.spec()["top_level"] if towers else 0
    s_level = top_level if shooter_top else s_cell.level
    t_level = top_level if target_top else t_cell.level
    # 2.43: within ten cells a shooter on a siege tower's top ignores lower figures.
    over_lower = (
        shooter_top and hexgrid.distance(s_cell.hex, t_cell.hex) <= tower.spec()["shooting_radius"]
    )
    s_hex, t_hex = s_cell.hex, t_cell.hex
    cell_distance = hexgrid.distance(s_hex, t_hex)
    sight = Sight(possible=False, distance=cell_distance)
    why = sight.reasons
    if shooter == target:
        why.append(say("sight_same_cell", "shooter and target are the same cell"))
        return sight
    s_what = "top of a siege tower" if shooter_top else s_cell.title
    t_what = "top of a siege tower" if target_top else t_cell.title
    why.append(
        say(
            "sight_ends",
            f"{shooter}: {s_what}, level {s_level}; {target}: {t_what}, level {t_level}",
            a=shooter,
            a_what=s_what,
            a_level=s_level,
            b=target,
            b_what=t_what,
            b_level=t_level,
        )
    )

    if s_cell.kind == "keep-door":
        why.append(
            say(
                "sight_from_keep_door",
                f"{shooter}: nobody shoots from the keep entrance (1.43)",
                cell=shooter,
            )
        )
        return sight
    if t_cell.kind == "keep-door":
        sight.cover = "full"
        why.append(
            say(
                "sight_keep_door",
                f"{target}: the keep entrance gives full cover; no shot (1.54)",
                cell=target,
            )
        )
        return sight
    if (
        t_cell.kind == "moat"
        and s_cell.kind != "moat"
        and not s_cell.inside
        and not board.is_moat_edge(shooter)
    ):
        why.append(
            say(
                "sight_into_moat",
                f"{shooter}: from outside, shots into the moat only from the moat or its edge "
                "(1.46)",
                cell=shooter,
            )
        )
        return sight
    if s_cell.kind == "moat" and t_cell.kind != "moat" and not board.is_moat_edge(target):
        why.append(
            say(
                "sight_from_moat",
                f"{shooter}: from the moat, shots only at the moat and its outer edge (1.46)",
                cell=shooter,
            )
        )
        return sight
    if t_cell.kind == "moat" and s_cell.inside and s_cell.kind not in BATTLEMENTS + SLITS:
        why.append(
            say(
                "sight_moat_from_inside",
                f"{shooter}: inside the castle only parapets and slits see into the moat (1.46)",
                cell=shooter,
            )
        )
        return sight

    # Where the line starts: a parapet or slit shoots from its battlement or opening.
    start = centre(s_hex)
    exits = exit_neighbours(s_hex, centre(t_hex))
    exit_labels = [hexgrid.label(n) for n in exits]
    if s_cell.kind in BATTLEMENTS + SLITS:
        through = [lab for lab in exit_labels if lab in s_cell.openings]
        if through:
            if len(exits) == 1:
                start = side_midpoint(s_hex, exits[0])
            else:
                shared = set(_side_corners(s_hex, exits[0])) & set(_side_corners(s_hex, exits[1]))
                start = shared.pop()
            sight.from_wall = True
            opening = "opening" if s_cell.kind in SLITS else "battlement"
            why.append(
                say(
                    f"sight_from_{opening}",
                    f"{shooter}: the line starts at the {opening} "
                    f"towards {'/'.join(through)} and range counts from the wall (1.44)",
                    cell=shooter,
                    towards="/".join(through),
                )
            )
        elif s_cell.kind in SLITS:
            why.append(
                say(
                    "sight_slit_only",
                    f"{shooter}: a figure behind an arrow slit shoots only through its opening "
                    f"({', '.join(sorted(s_cell.openings)) or 'none'}) (1.44)",
                    cell=shooter,
                    openings=sorted(s_cell.openings),
                )
            )
            return sight
    elif s_cell.kind == "tower-door":
        # 1.43: "… dann wird die Schußlinie von der Mitte der Tür ermittelt und nicht von der
        # Mitte des Feldes". Our doors are cells; the door itself is the side (or corner) by
        # which the line leaves the building. Range still counts from the cell (1.43 says
        # nothing else).
        leaving = [
            n
            for n, lab in zip(exits, exit_labels)
            if lab not in board or board.cell(lab).building != s_cell.building
        ]
        if leaving and len(leaving) == len(exits):
            if len(exits) == 1:
                start = side_midpoint(s_hex, exits[0])
            else:
                start = (
                    set(_side_corners(s_hex, exits[0])) & set(_side_corners(s_hex, exits[1]))
                ).pop()
            why.append(
                say(
                    "sight_from_door",
                    f"{shooter}: the line starts at the door towards {'/'.join(exit_labels)}, "
                    f"not at the cell's centre (1.43)",
                    cell=shooter,
                    towards="/".join(exit_labels),
                )
            )
    elif board.is_building_interior(shooter) and not any(
        board.cell(lab).building == s_cell.building for lab in exit_labels if lab in board
    ):
        why.append(
            say(
                "sight_building_out",
                f"{shooter}: inside a building one shoots out only through its doors and slits "
                "(1.43)",
                cell=shooter,
            )
        )
        return sight

    distance = max(1, cell_distance - 1) if sight.from_wall else cell_distance
    sight.distance = distance
    band = band_for(bands, distance)
    sight.band = band
    if bands is not None and band is None:
        why.append(
            say(
                "sight_beyond_range",
                f"range {distance} is beyond long range ({bands['long']})",
                distance=distance,
                long=bands["long"],
            )
        )
        return sight

    # How the line reaches the target, and the cover that gives.
    cover = "none"
    entries = [hexgrid.label(n) for n in exit_neighbours(t_hex, start)]
    if t_cell.kind in SLITS:
        straight = any(_on_ray(t_hex, board.cell(o).hex, s_hex) for o in t_cell.openings)
        if not straight:
            why.append(
                say(
                    "sight_slit_line",
                    f"{target}: a figure behind an arrow slit can be shot only from the straight "
                    f"line through its opening (1.45)",
                    cell=target,
                )
            )
            return sight
        cover = "heavy"
        why.append(
            say(
                "sight_slit_cover",
                f"{target}: behind an arrow slit, shot through its opening: heavy cover (1.51)",
                cell=target,
            )
        )
    elif t_cell.kind in BATTLEMENTS and (
        any(lab in t_cell.openings for lab in entries) or not s_cell.inside
    ):
        # From outside the castle every line to a parapet crosses the battlements.
        cover = "heavy"
        why.append(
            say(
                "sight_battlement_cover",
                f"{target}: the line crosses the battlement: heavy cover (1.51)",
                cell=target,
            )
        )
    elif t_cell.kind in BUILDING_DOORS:
        # 1.53: a doorway covers one way only, against the building's inside or its outside.
        side_of_shot = "in" if s_cell.building == t_cell.building else "out"
        if side_of_shot == facing:
            cover = "medium"
            why.append(
                say(
                    "sight_doorway_cover",
                    f"{target}: in a doorway, covered against the {facing}side: medium cover "
                    "(1.53)",
                    cell=target,
                    facing=f"{facing}side",
                )
            )
        else:
            why.append(
                say(
                    "sight_doorway_open",
                    f"{target}: in a doorway covered against the {facing}side; this shot comes "
                    f"from the {side_of_shot}side: no cover (1.53)",
                    cell=target,
                    facing=f"{facing}side",
                    shot_side=f"{side_of_shot}side",
                )
            )
    elif board.is_building_interior(target):
        if not any(lab in board and board.cell(lab).building == t_cell.building for lab in entries):
            sight.cover = "full"
            why.append(
                say(
                    "sight_no_opening",
                    f"{target}: behind a wall without an opening: full cover, no shot (1.56)",
                    cell=target,
                )
            )
            return sight
    elif t_cell.kind == "moat":
        why.append(say("sight_in_moat", f"{target}: in the moat: no cover (1.55)", cell=target))
    elif t_cell.kind == "breach":
        cover = "medium"
        why.append(
            say(
                "sight_on_breach",
                f"{target}: on a broken wall: medium cover from every side (2.32)",
                cell=target,
            )
        )
    elif target == board.drawbridge.get("gate") and not bridge_up and not s_cell.inside:
        # 1.57: "... besitzen die Figuren, die sich an den beiden Gebäudeecken befinden, schwere
        # Deckung gegen Schüsse von außen": our gatehouse has one passage cell between the two
        # gate towers, so a figure in it stands in their corners.
        cover = "heavy"
        why.append(
            say(
                "sight_gateway",
                f"{target}: in the gateway between the gate towers, bridge down: heavy cover "
                "from outside (1.57)",
                cell=target,
            )
        )
    # Section 3: the camp's kinds give the figure in them their own cover.
    cover = camp.cover_in_cell(board, target, cover, why, over_lower)
    line = _crossing(start, centre(t_hex), s_hex, t_hex)
    through_breach = [
        hexgrid.label(h)
        for h in line.crossed
        if hexgrid.label(h) in board and board.cell(hexgrid.label(h)).kind == "breach"
    ]
    if bridge_up and not s_cell.inside and t_cell.inside and t_cell.kind not in BATTLEMENTS + SLITS:
        if shooter_top:
            why.append(
                say(
                    "sight_tower_over_parapets",
                    f"{shooter}: from the top of a siege tower one shoots over the parapets into "
                    f"the castle, bridge up or not (2.43)",
                    cell=shooter,
                )
            )
        elif not through_breach:
            sight.cover = "full"
            why.append(
                say(
                    "sight_bridge_up",
                    f"{target}: the drawbridge is up, everyone inside has full cover from outside "
                    "(1.52, 1.57)",
                    cell=target,
                )
            )
            return sight
        else:
            why.append(
                say(
                    "sight_through_breach",
                    f"{through_breach[0]}: the breach lets the shot into the castle (2.32)",
                    cell=through_breach[0],
                )
            )

    low_end, high_end = (shooter, target) if s_level <= t_level else (target, shooter)
    low, high = min(s_level, t_level), max(s_level, t_level)
    seen_over: list[str] = []
    own_towers = {
        towers[c]
        for c, top in ((shooter, shooter_top), (target, target_top))
        if top and c in towers
    }
    over = []
    door_seen = None
    thickets: list[str] = []
    in_trench: list[str] = []

    def open_door(lab: str) -> bool:
        """1.43: a door lets a line through at the shooter's level, into or out of its own
        building; past the building it is part of the wall."""
        cell = board.cell(lab)
        return (
            cell.kind == "tower-door"
            and cell.level == s_level
            and cell.building in (s_cell.building, t_cell.building)
        )

    def terrain_block(lab: str) -> str | None:
        nonlocal door_seen
        cell = board.cell(lab)
        height = cell.height
        if lab in towers and towers[lab] not in own_towers:
            return say(
                "sight_siege_tower",
                f"{lab}: a siege tower: one shoots at it, never through it (2.44)",
                cell=lab,
            )
        if open_door(lab):
            door_seen = lab
            return None
        if cell.kind == "gate" and bridge_up:
            height = 3
        return _judge(board, lab, f"{cell.title}", height, low, high, low_end, high_end)

    def figure_block(lab: str) -> str | None:
        who = living.get(lab)
        if who is None or lab in towers:
            return None
        if camp.figures_do_not_block(board, lab):
            in_trench.append(lab)
            return None
        if over_lower and board.cell(lab).level < s_level:
            seen_over.append(lab)
            return None
        return _judge(
            board,
            lab,
            f"figure {who}",
            board.cell(lab).level + 1,
            low,
            high,
            low_end,
            high_end,
            who=who,
        )

    for h in line.crossed:
        lab = hexgrid.label(h)
        sight.crossed.append(lab)
        if lab not in board:
            continue
        blocked = terrain_block(lab) or camp.blocks(board, lab, over_lower)
        if blocked:
            why.append(blocked)
            return sight
        if camp.thins(board, lab, over_lower):
            thickets.append(lab)
        blocked = figure_block(lab)
        if blocked:
            if band in ("medium", "long"):
                over.append(lab)
            else:
                why.append(at_short_range(blocked) if bands else blocked)
                return sight
    for a, b in line.edges:
        la, lb = hexgrid.label(a), hexgrid.label(b)
        pair = [lab for lab in (la, lb) if lab in board]
        grazed = [terrain_block(lab) for lab in pair]
        if any(grazed):
            inner = next(g for g in grazed if g)
            why.append(
                say(
                    "sight_grazes",
                    f"the line runs along the side of {la}/{lb} and grazes a wall: "
                    f"{inner} (1.45, 1.46)",
                    a=la,
                    b=lb,
                    inner=inner,
                )
            )
            return sight
        passing, camp_why = camp.side_verdict(board, pair, over_lower)
        if passing == "block":
            why.append(
                say(
                    "sight_side_blocked",
                    f"the line runs along the side of {la}/{lb}, blocked on both sides: {camp_why}",
                    a=la,
                    b=lb,
                    inner=camp_why,
                )
            )
            return sight
        if passing == "light":
            thickets.append(camp_why)
        figures = [figure_block(lab) for lab in pair]
        if len(pair) == 2 and all(figures):
            if band in ("medium", "long"):
                over += pair
            else:
                why.append(
                    say(
                        "sight_between",
                        f"the line runs between {la} and {lb}, both blocked: {figures[0]}; "
                        f"{figures[1]}",
                        a=la,
                        b=lb,
                        first=figures[0],
                        second=figures[1],
                    )
                )
                return sight
    for h in line.touched:
        lab = hexgrid.label(h)
        touched_height = board.cell(lab).height if lab in board else None
        if touched_height is not None and touched_height > high and not open_door(lab):
            why.append(
                say(
                    "sight_corner",
                    f"the line touches a corner of {lab} ({board.cell(lab).title}, height "
                    f"{board.cell(lab).height}, higher than both ends) and grazes its wall: "
                    "blocked (1.45)",
                    cell=lab,
                    what=board.cell(lab).title,
                    height=board.cell(lab).height,
                )
            )
            return sight
    if door_seen:
        if board.is_building_interior(target):
            cover = worse_cover(cover, "medium")
        why.append(
            say(
                "sight_door_passed",
                f"{door_seen}: the line passes the door at the shooter's level (1.43)",
                cell=door_seen,
            )
        )
    elif board.is_building_interior(target) and s_cell.building != t_cell.building:
        sight.cover = "full"
        why.append(
            say(
                "sight_no_door",
                f"{target}: inside a building, reached by no door or slit: no shot (1.56)",
                cell=target,
            )
        )
        return sight
    blocked, notes, edge_cover = camp.slope_edge(
        board, camp.along(board, line, start, centre(t_hex), shooter, target), over_lower
    )
    why.extend(notes)
    if blocked:
        why.append(blocked)
        return sight
    if edge_cover:
        cover = worse_cover(cover, "light")
    if thickets:
        cover = worse_cover(cover, "light")
        why.append(
            say(
                "sight_thicket",
                f"the line passes through the thicket in {', '.join(dict.fromkeys(thickets))}: "
                f"light cover (3.21)",
                cells=list(dict.fromkeys(thickets)),
            )
        )
    if in_trench:
        why.append(
            say(
                "sight_trench",
                f"the figures in the trench at {', '.join(dict.fromkeys(in_trench))} do not "
                f"hinder the shot (3.25)",
                cells=list(dict.fromkeys(in_trench)),
            )
        )
    if seen_over:
        why.append(
            say(
                "sight_tower_sees_over",
                f"from the top of a siege tower, within {tower.spec()['shooting_radius']} cells, "
                f"the lower figures in {', '.join(dict.fromkeys(seen_over))} do not hinder the "
                "shot (2.43)",
                radius=tower.spec()["shooting_radius"],
                cells=list(dict.fromkeys(seen_over)),
            )
        )
    if over:
        cover = worse_cover(cover, "light")
        why.append(
            say(
                "sight_over_figures",
                f"shoots over the figures in {', '.join(over)} at {band} range: light cover (1.42)",
                cells=list(over),
                band=f"{band} range",
            )
        )
    sight.possible = True
    sight.cover = cover
    why.append(say("sight_cover_of", f"cover of {target}: {cover}", cell=target, cover=cover))
    return sight


def _on_ray(origin, through, point) -> bool:
    """Whether ``point`` lies on the straight hex row from ``origin`` through its neighbour
    ``through``."""
    dq, dr = through[0] - origin[0], through[1] - origin[1]
    k = hexgrid.distance(origin, point)
    return (origin[0] + k * dq, origin[1] + k * dr) == tuple(point)


def _crossing(start, end, s_hex, t_hex):
    return segment_cells(start, end, exclude=(s_hex, t_hex))


def _judge(
    board: Board,
    lab: str,
    what: str,
    height,
    low: int,
    high: int,
    low_end: str,
    high_end: str,
    who: str | None = None,
) -> Reason | None:
    """Why an obstacle of ``height`` in ``lab`` blocks a line between levels low and high
    (``who``: the figure standing there, when it is one). The reason carries a key, so a
    refused shot can say it in the player's language."""
    if height is None or height <= low:
        return None
    kind = "figure" if who is not None else "terrain"
    if height > high:
        return Reason(
            f"{lab}: {what} (height {height}) is higher than both ends: blocked (1.41)",
            key=f"siege.shot_over_{kind}",
            domain="siege",
            cell=lab,
            what=what,
            who=who or "",
            height=height,
        )
    near_low, near_high = board.distance(low_end, lab), board.distance(high_end, lab)
    if near_low >= near_high:
        return None
    return Reason(
        f"{lab}: {what} (height {height}) hides {low_end}: it stands {near_low} from it, "
        f"closer than {high_end} ({near_high}) (1.45)",
        key=f"siege.shot_hidden_{kind}",
        domain="siege",
        cell=lab,
        what=what,
        who=who or "",
        height=height,
        low_end=low_end,
        near_low=near_low,
        high_end=high_end,
        near_high=near_high,
    )


def at_short_range(blocked: str) -> str:
    """A figure's block with 1.42's reason why the shot does not pass over it, keeping the
    block's key (its ``_short`` variant)."""
    text = blocked + " (at short range one cannot shoot over figures, 1.42)"
    keyed = keyed_of(blocked)
    if not keyed:
        return text
    return Reason(text, key=keyed["key"] + "_short", domain=keyed["domain"], **keyed["params"])


def explain(
    board: Board,
    living: dict[str, str],
    shooter: str,
    target: str,
    *,
    bands: dict | None = None,
    bridge_up: bool = False,
    ladders: dict[str, str] | None = None,
    facing: dict[str, str] | None = None,
    towers: dict[str, str] | None = None,
    shooter_top: bool = False,
    target_top: bool = False,
) -> str:
    """The ``/los`` answer as text: verdict, range, cover, then every reason in order."""
    sight = look(
        board,
        living,
        shooter,
        target,
        bands=bands,
        bridge_up=bridge_up,
        ladders=ladders,
        facing=facing,
        towers=towers,
        shooter_top=shooter_top,
        target_top=target_top,
    )
    return answer_text(sight, shooter, target)


BANDS_DE = {"short": "kurz", "medium": "mittel", "long": "weit"}
COVER_DE = {
    "none": "keine",
    "light": "leicht",
    "medium": "mittel",
    "heavy": "schwer",
    "full": "voll",
}


def answer_text(sight: Sight, shooter: str, target: str, lang: str = "en") -> str:
    """A judged line as the ``/los`` answer: verdict, range, cover, then every reason (in the
    reader's language; each reason carries its key)."""
    if lang == "de":
        head = (
            f"{'Schuss möglich' if sight.possible else 'Kein Schuss'} von {shooter} nach "
            f"{target}: Entfernung {sight.distance}"
        )
        if sight.band:
            head += f" ({BANDS_DE.get(sight.band, sight.band)})"
        head += f", Deckung {COVER_DE.get(sight.cover, sight.cover)}."
        return "\n".join([head] + [f"- {worded(r, lang)}" for r in sight.reasons])
    verdict = "Shot possible" if sight.possible else "No shot"
    head = f"{verdict} from {shooter} to {target}: range {sight.distance}"
    if sight.band:
        head += f" ({sight.band})"
    head += f", cover {sight.cover}."
    return "\n".join([head] + [f"- {r}" for r in sight.reasons])
