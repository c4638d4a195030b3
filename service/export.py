"""A game as one self-contained HTML file (and its JSON log), for ``/game export`` and
``python bot.py export``.

The page needs nothing but a browser, offline: the board after every action is embedded as a
PNG (data: URL), a slider and buttons step through them, the log lists every action with every
die, and once the game is over it shows the seed and how to verify the game with it. Only the
public view is exported: nobody's hidden cards or private events, whoever asks.

Everything a player or a scenario file wrote (unit names, labels) is escaped: the page runs no
text from the game as markup or script. A long game is thinned (every n-th action, always the
first and the last board) so the file stays under ``max_bytes``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import json
import sys
from dataclasses import dataclass

from engine.core.game import new_game

from .games import GameService, describe_action, describe_event
from .replay import apply_logged, dice_for

MAX_FRAMES = 150  # boards drawn at most (a longer game: every n-th action)
MAX_BYTES = 8 * 1024 * 1024  # Discord's attachment limit for the HTML file


@dataclass
class Export:
    html: str
    log_json: str
    frames: int  # boards in the page
    actions: int  # live actions in the log


def _log_lines(ruleset, state: dict, events: list[dict]) -> list[str]:
    lines = []
    for event in events:
        if event.get("private"):
            continue
        if event.get("type") == "roll":
            sides = event.get("sides", 6)
            die = "" if sides == 6 else f" (d{sides})"
            lines.append(f"🎲 {event.get('purpose', 'die')}: {event.get('value')}{die}")
            continue
        text = describe_event(ruleset, state, event)
        if text:
            lines.append(text)
    return lines


def _thin(count: int, max_frames: int) -> list[int]:
    """Which of ``count`` frames to keep: all, or every n-th with the first and the last."""
    if count <= max_frames:
        return list(range(count))
    stride = -(-count // max(2, max_frames - 1))
    return sorted(set(range(0, count, stride)) | {count - 1})


async def export_game(
    svc: GameService, game_id: int, *, max_bytes: int = MAX_BYTES, max_frames: int = MAX_FRAMES
) -> Export:
    """The game's HTML page and JSON log. Heavy work: refused with GameBusy while another
    replay of this game runs."""
    row, _ = await svc._load(game_id)
    ruleset = svc._ruleset(row["ruleset"])
    renderer = svc._renderer()
    finished = row["status"] == "finished"
    async with svc.heavy(row["id"]):
        live = await svc.store.actions(row["id"], include_undone=False)
        undone = [
            r for r in await svc.store.actions(row["id"], include_undone=True) if r.get("undone_by")
        ]

        # Drawn in this worker thread, one board after another: an export is heavy work with
        # a slot of its own, not a burst of pictures for the shared pool.
        def build():
            state, setup_events = new_game(ruleset, json.loads(row["scenario_json"]), row["seed"])
            steps = [{"caption": "Setup", "state": None, "events": setup_events}]
            entries = []
            wanted = set(_thin(len(live) + 1, max_frames))
            pictures: dict[int, bytes] = {}
            if 0 in wanted:
                pictures[0] = renderer.render_png(svc._scene(ruleset, state, [], None))
            for index, r in enumerate(live, start=1):
                action = json.loads(r["action_json"])
                label = r.get("label") or describe_action(ruleset, state, action)
                state, events = apply_logged(ruleset, state, action, dice_for(r, row["seed"]))
                who = ruleset.side_title(r["side"]) if r["side"] in ruleset.sides else r["side"]
                caption = f"v{r['version']} · {who}: {label}"
                steps.append({"caption": caption})
                entries.append(
                    {
                        "version": r["version"],
                        "side": r["side"],
                        "action": action,
                        "text": caption,
                        "lines": _log_lines(ruleset, state, events),
                        "events": [e for e in events if not e.get("private")],
                    }
                )
                if index in wanted:
                    pictures[index] = renderer.render_png(svc._scene(ruleset, state, events, None))
            return steps, entries, pictures

        steps, entries, pictures = await asyncio.to_thread(build)

    header = {
        "game": row["id"],
        "ruleset": row["ruleset"],
        "title": ruleset.title,
        "scenario": row["scenario"],
        "status": row["status"],
        "seed_hash": row["seed_hash"],
        "seed": row["seed"] if finished else None,
        "result": json.loads(row["result_json"]) if row["result_json"] else None,
    }
    log = dict(
        header,
        actions=[{k: v for k, v in e.items() if k != "lines"} for e in entries],
        undone=[
            {
                "version": r["version"],
                "side": r["side"],
                "action": json.loads(r["action_json"]),
                "undone_by": r["undone_by"],
            }
            for r in undone
        ],
    )
    log_json = json.dumps(log, ensure_ascii=False, indent=1)
    # Thin further until the page fits: the first and the last board always stay.
    kept = sorted(pictures)
    encoded = {i: base64.b64encode(pictures[i]).decode("ascii") for i in kept}

    def size(indices):
        return sum(len(encoded[i]) for i in indices) + len(log_json) + 64 * 1024

    while size(kept) > max_bytes and len(kept) > 2:
        kept = [i for n, i in enumerate(kept) if n % 2 == 0 or i == kept[-1]]
    page = _page(header, steps, entries, {i: encoded[i] for i in kept}, len(live))
    return Export(html=page, log_json=log_json, frames=len(kept), actions=len(live))


def _script_json(value) -> str:
    """JSON safe inside a <script> element: no "<" at all, so nothing can close it early."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def _page(
    header: dict, steps: list[dict], entries: list[dict], images: dict[int, str], actions: int
) -> str:
    esc = html.escape
    frames = [
        {"step": i, "src": "data:image/png;base64," + images[i], "caption": steps[i]["caption"]}
        for i in sorted(images)
    ]
    log_items = []
    for n, entry in enumerate(entries, start=1):
        lines = "".join(f"<li>{esc(line)}</li>" for line in entry["lines"])
        log_items.append(
            f'<li id="step-{n}" data-step="{n}"><span>{esc(entry["text"])}</span>'
            f"{'<ul>' + lines + '</ul>' if lines else ''}</li>"
        )
    title = f"{header['title']} — game #{header['game']}"
    if header["seed"]:
        verify = (
            f'<section id="seed"><h2>Check the dice</h2><p>Seed: <code>{esc(header["seed"])}'
            f"</code><br>Hash posted at the start: <code>{esc(header['seed_hash'])}</code></p>"
            f"<p>Every die came from this seed. To check it: <code>/game verify</code> in the "
            f"game's thread, or with a copy of the database <code>python bot.py verify "
            f"--db umpire.sqlite3 --game {int(header['game'])} --seed {esc(header['seed'])} "
            f"--seed-hash {esc(header['seed_hash'])}</code>.</p></section>"
        )
    else:
        verify = (
            f'<section id="seed"><h2>Check the dice</h2><p>The game is not over: its seed '
            f"stays secret until it ends (hash <code>{esc(header['seed_hash'])}</code>). "
            f"Export it again afterwards to get the seed and how to verify it.</p></section>"
        )
    result = ""
    if header.get("result"):
        winner = header["result"].get("winner") or "nobody"
        result = f'<p id="result">Result: {esc(str(winner))} ({esc(str(header["result"].get("reason", "")))})</p>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{esc(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1em; max-width: 70em; }}
#board {{ max-width: 100%; border: 1px solid #888; }}
#controls {{ display: flex; gap: .5em; align-items: center; margin: .5em 0; }}
#slider {{ flex: 1; }}
#log li.current > span {{ background: #ffe58a; }}
#log ul {{ color: #444; }}
</style></head>
<body>
<h1>{esc(title)}</h1>
<p>Scenario <code>{esc(str(header["scenario"]))}</code> · {actions} actions · status {esc(header["status"])}</p>
{result}
<div id="controls">
<button id="prev" type="button">◀</button>
<input id="slider" type="range" min="0" max="{len(frames) - 1}" value="0" aria-label="Step">
<button id="next" type="button">▶</button>
<span id="position"></span>
</div>
<p id="caption"></p>
<img id="board" alt="The board">
{verify}
<section><h2>Log</h2><ol id="log">{"".join(log_items)}</ol></section>
<script id="frames" type="application/json">{_script_json(frames)}</script>
<script>
(function () {{
  var frames = JSON.parse(document.getElementById("frames").textContent);
  var slider = document.getElementById("slider");
  function show(i) {{
    i = Math.max(0, Math.min(frames.length - 1, i));
    slider.value = i;
    var f = frames[i];
    document.getElementById("board").src = f.src;
    document.getElementById("caption").textContent = f.caption;
    document.getElementById("position").textContent = (i + 1) + " / " + frames.length;
    var items = document.querySelectorAll("#log > li");
    for (var k = 0; k < items.length; k++) {{
      items[k].classList.toggle("current", Number(items[k].dataset.step) === f.step);
    }}
  }}
  slider.addEventListener("input", function () {{ show(Number(slider.value)); }});
  document.getElementById("prev").addEventListener("click", function () {{ show(Number(slider.value) - 1); }});
  document.getElementById("next").addEventListener("click", function () {{ show(Number(slider.value) + 1); }});
  show(0);
}})();
</script>
</body></html>
"""


# ----- python bot.py export ------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python bot.py export",
        description="Write a game as one HTML page (boards, log, seed once over) and its JSON log.",
    )
    p.add_argument("--db", required=True, help="the database: a SQLite file or postgresql://...")
    p.add_argument("--game", required=True, type=int, help="the game id (#N in the thread)")
    p.add_argument(
        "--out",
        required=True,
        help="the HTML file to write; the JSON log goes next to it with .json",
    )
    return p


async def _export(db: str, game_id: int) -> Export:
    svc = await GameService.open(db)
    try:
        return await export_game(svc, game_id)
    finally:
        await svc.close()


def _export_to(db: str, game_id: int, out: str) -> Export:
    from pathlib import Path

    made = asyncio.run(_export(db, game_id))
    target = Path(out)
    target.write_text(made.html, encoding="utf-8")
    target.with_suffix(".json").write_text(made.log_json, encoding="utf-8")
    return made


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from .errors import ServiceError

    try:
        made = _export_to(args.db, args.game, args.out)
    except (ServiceError, OSError) as error:
        print(f"Cannot export game {args.game}: {error}", file=sys.stderr)
        return 1
    print(f"Wrote {args.out} (boards: {made.frames}, actions: {made.actions}) and its JSON log.")
    return 0
