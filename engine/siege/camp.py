"""The besiegers' camp (rulebook 3.1-3.2): what its terrain does to shots and cover.

:func:`engine.siege.sight.look` asks this module about every cell of the camp's kinds, so a
``/shoot`` and a ``/los`` judge the camp exactly alike and name each deciding cell:

- a tree between shooter and target blocks; a figure in a tree can be hit (3.22);
- a tent takes shots in but not through, until it has burnt (a ``burnt-tent`` counter, 3.24);
- a thicket lets shots through, with light cover for a target in it or behind it (3.21);
- a trench lets shots in and through, even past the figures in it; heavy cover in it (3.25);
- the hill: a line over the slope edge (the hexsides between the hill's top and its slope,
  reading C3) is decided by how far both figures stand from that edge (3.23).

Kinds, their cover and elevation are data (``data/siege/terrain.json``); the readings C1-C6 are
written out in docs/rules/siege.md.
"""

from __future__ import annotations

from engine.core import hexgrid

from . import data
from .board import Board, centre
from .refusals import say

TOP, SLOPE = 2, 1
# Where the 3.1 chart and 3.21-3.25 give a figure in the cell cover against any shot.
CELL_COVER_RULE = {"thicket": "3.21", "tree": "3.1, C1", "tent": "3.24", "trench": "3.25"}


def elevation(board: Board, label: str) -> int:
    return int(data.terrain()["kinds"][board.cell(label).kind].get("elevation", 0))


def blocks(board: Board, label: str, from_tower_top: bool = False) -> str | None:
    """Why a cell the line crosses stops the shot, or ``None``. From the top of a siege tower,
    within its radius, tents are lower obstacles and ignored (2.43); trees never are."""
    kind = board.cell(label).kind
    if kind == "tree":
        return say(
            "sight_tree",
            f"{label}: a tree stands between shooter and target: no shot (3.22)",
            cell=label,
        )
    if kind == "tent" and not from_tower_top:
        return say(
            "sight_tent",
            f"{label}: a tent: one shoots into a tent, never through it until it has burnt (3.24)",
            cell=label,
        )
    return None


def thins(board: Board, label: str, from_tower_top: bool = False) -> bool:
    """A crossed thicket: the shot passes with light cover for the target (3.21), except from
    a siege tower's top within its radius (2.43: lower obstacles do not count)."""
    return board.cell(label).kind == "thicket" and not from_tower_top


def figures_do_not_block(board: Board, label: str) -> bool:
    """3.25: one shoots into and through a trench "selbst wenn es besetzt sein sollte"."""
    return board.cell(label).kind == "trench"


def side_verdict(board: Board, pair: list[str], from_tower_top: bool) -> tuple[str, str]:
    """A line running along the hexside between two cells passes on the more open side
    (reading C5): ("block", why) only when both sides block, ("light", the thicket's cell) when
    the open side is a thicket, else ("clear", "")."""
    verdicts = []
    for label in pair:
        why = blocks(board, label, from_tower_top)
        if why:
            verdicts.append((2, "block", why))
        elif thins(board, label, from_tower_top):
            verdicts.append((1, "light", label))
        else:
            verdicts.append((0, "clear", ""))
    if not verdicts:
        return "clear", ""
    best = min(verdicts)
    if best[1] == "block":
        if len(verdicts) == 1:
            return "block", verdicts[0][2]
        first, second = verdicts[0][2], verdicts[1][2]
        return "block", say("sight_both", f"{first}; {second}", first=first, second=second)
    return best[1], best[2]


def cover_in_cell(
    board: Board, target: str, cover: str, why: list[str], from_tower_top: bool = False
) -> str:
    """The cover a camp cell gives the figure in it (3.21, 3.22, 3.24, 3.25; the 3.1 chart for
    the tree, reading C1). From a siege tower's top within its radius a figure in a thicket or
    on a slope has none (2.43)."""
    kind = board.cell(target).kind
    if kind in ("thicket", "slope") and from_tower_top:
        why.append(
            say(
                "sight_camp_open",
                f"{target}: in a {board.cell(target).title}, shot from the top of a siege tower "
                f"within its radius: no cover (2.43)",
                cell=target,
                what=board.cell(target).title,
            )
        )
        return cover
    if kind not in CELL_COVER_RULE:
        return cover
    gives = board.cell(target).cover
    why.append(
        say(
            "sight_camp_cover",
            f"{target}: in a {board.cell(target).title}: {gives} cover ({CELL_COVER_RULE[kind]})",
            cell=target,
            what=board.cell(target).title,
            cover=f"{gives} cover",
            rule=CELL_COVER_RULE[kind],
        )
    )
    return gives if _rank(gives) > _rank(cover) else cover


def _rank(cover: str) -> int:
    return data.COVERS.index(cover)


def along(board: Board, crossing, start, end, shooter: str, target: str) -> list[str]:
    """The cells of a line in order from the shooter: both ends, the cells crossed and both
    cells of every hexside it runs along."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    hexes = set(crossing.crossed) | {h for pair in crossing.edges for h in pair}

    def ahead(h):
        x, y = centre(h)
        return dx * (x - start[0]) + dy * (y - start[1])

    middle = [hexgrid.label(h) for h in sorted(hexes, key=ahead)]
    return (
        [shooter]
        + [lab for lab in middle if lab in board and lab not in (shooter, target)]
        + [target]
    )


def on_slope_edge(board: Board, label: str) -> bool:
    """A cell beside the slope edge: a top cell next to the slope, or a slope cell next to the
    top (reading C3)."""
    here = elevation(board, label)
    if here not in (TOP, SLOPE):
        return False
    other = SLOPE if here == TOP else TOP
    return any(elevation(board, n) == other for n in board.neighbours(label))


def slope_edge(
    board: Board, cells: list[str], from_tower_top: bool = False
) -> tuple[str | None, list[str], bool]:
    """3.23 over the line ``cells`` (shooter first, target last): why the hill stops the shot
    (or ``None``), the notes to show, and whether the target has light cover on the edge."""
    if from_tower_top:
        return None, [], False
    shooter, target = cells[0], cells[-1]
    ups = [elevation(board, c) for c in cells]
    s_up, t_up = ups[0], ups[-1]
    inner_top = [c for c, u in zip(cells[1:-1], ups[1:-1]) if u == TOP]
    if s_up < TOP and t_up < TOP:
        if inner_top:
            return (
                say(
                    "sight_hilltop",
                    f"{inner_top[0]}: the top of the hill is higher than both ends: blocked "
                    "(3.23, 1.41)",
                    cell=inner_top[0],
                ),
                [],
                False,
            )
        return None, [], False
    if s_up == TOP and t_up == TOP:
        return None, [], False
    upper, lower = (shooter, target) if s_up == TOP else (target, shooter)
    from_upper = cells if upper == shooter else cells[::-1]
    brow = upper
    for c in from_upper[1:]:
        if elevation(board, c) != TOP:
            break
        brow = c
    d_up, d_low = board.distance(upper, brow), board.distance(lower, brow)
    notes: list[str] = [
        say(
            "sight_slope_edge",
            f"the line crosses the slope edge at {brow}, the last cell of the hill's top (3.23)",
            cell=brow,
        )
    ]
    if elevation(board, lower) == SLOPE:
        notes.append(
            say(
                "sight_on_slope",
                f"{lower}: the lower figure stands on a slope: both may shoot (3.23)",
                cell=lower,
            )
        )
    elif d_low < d_up:
        return (
            say(
                "sight_edge_hides",
                f"{brow}: the slope edge hides {lower}: it stands {d_low} from the edge, closer "
                f"than {upper} ({d_up}) (3.23)",
                cell=brow,
                lower=lower,
                d_low=d_low,
                upper=upper,
                d_up=d_up,
            ),
            notes,
            False,
        )
    else:
        notes.append(
            say(
                "sight_edge_far",
                f"{lower}, the lower figure, stands {d_low} from the edge, at least as far as "
                f"{upper} ({d_up}) (3.23)",
                lower=lower,
                d_low=d_low,
                upper=upper,
                d_up=d_up,
            )
        )
    edge_cover = on_slope_edge(board, target)
    if edge_cover:
        notes.append(
            say("sight_edge_cover", f"{target}: on the slope edge: light cover (3.23)", cell=target)
        )
    return None, notes, edge_cover


# The picture: the camp's kinds in the key under the map, the slope edge drawn on the map.
KEY_KINDS = ("open", "thicket", "tree", "slope", "hilltop", "tent", "burnt-tent", "trench")
SLOPE_EDGE = "#6b4a1f"


def is_camp(board: Board) -> bool:
    return any(board.cell(lab).kind in KEY_KINDS[1:] for lab in board.labels())


def terrain_key(board: Board, word=lambda text: text) -> list[dict] | None:
    """Key entries for a camp map: each kind with its movement cost and cover (3.1); ``None``
    on a map without the camp's kinds (the castle keeps its own key). ``word`` gives the
    picture's words in the reader's language."""
    if not is_camp(board):
        return None
    kinds = data.terrain()["kinds"]
    present = {board.cell(lab).kind for lab in board.labels()}
    return [
        {
            "color": kinds[k]["fill"],
            "text": word("{kind} {cost}pt {cover}").format(
                kind=word(kinds[k]["title"]), cost=kinds[k]["cost"], cover=word(kinds[k]["cover"])
            )
            + (f" {word('at the edge')}" if k == "slope" else ""),
        }
        for k in KEY_KINDS
        if k in present or k == "open"
    ]


def slope_edges(board: Board) -> list[dict]:
    """The slope edge (3.23, reading C3) as thick brown hexsides between top and slope."""
    out = []
    for lab in board.labels():
        if elevation(board, lab) != TOP:
            continue
        for n in board.neighbours(lab):
            if elevation(board, n) == SLOPE:
                out.append({"at": lab, "to": n, "color": SLOPE_EDGE, "width": 4})
    return out


def notes(board: Board) -> list[str]:
    if not is_camp(board):
        return []
    return [
        "Badges: S stunned (light counter), W wounded, + dead (grey). Thick brown sides: the "
        "slope edge between the hill's top and its slope. Trees block shots, tents stop shots "
        "through them until burnt, trenches give heavy cover."
    ]
