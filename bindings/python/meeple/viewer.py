"""A single static HTML page that steps through a game record: every position pre-drawn as SVG, with
buttons, a slider and the arrow keys. Open it in any browser; it needs nothing else.

    meeple.write_viewer(record_line, "game.html")      # or: python -m meeple view games.jsonl --game 3
"""
from __future__ import annotations

import html
import json

from .render import position_of_record, render_svg

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
 body {{ font-family: sans-serif; margin: 12px; background: #f7f3e8; }}
 #bar {{ display: flex; gap: 8px; align-items: center; margin-bottom: 8px; }}
 #slider {{ flex: 1; }}
 #frame svg {{ max-width: 100%; height: auto; }}
</style></head>
<body>
<div id="bar">
 <button id="first">&laquo;</button><button id="prev">&#x25C0;</button>
 <button id="next">&#x25B6;</button><button id="last">&raquo;</button>
 <input id="slider" type="range" min="0" max="{last}" value="{last}">
 <span id="label"></span>
</div>
<div id="frame"></div>
<script>
const frames = {frames};
const labels = {labels};
let at = frames.length - 1;
function show(i) {{
  at = Math.max(0, Math.min(frames.length - 1, i));
  document.getElementById("frame").innerHTML = frames[at];
  document.getElementById("slider").value = at;
  document.getElementById("label").textContent = labels[at];
}}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(frames.length - 1);
document.getElementById("slider").oninput = (e) => show(Number(e.target.value));
document.addEventListener("keydown", (e) => {{
  if (e.key === "ArrowLeft") show(at - 1);
  if (e.key === "ArrowRight") show(at + 1);
}});
show(at);
</script>
</body></html>
"""


def viewer_html(record_line: str, title: str = "meeple game") -> str:
    """The page for one record: a frame after each placement and at the end (draws and figure choices are
    shown with the placement they follow)."""
    record = json.loads(record_line)
    names = record.get("names") or None
    actions = record["actions"]
    cuts = [0] + [i + 1 for i, a in enumerate(actions) if "place" in a or "abbey" in a] + [len(actions)]
    cuts = sorted(set(cuts))
    frames, labels = [], []
    for k, cut in enumerate(cuts):
        state = position_of_record(record_line, cut if cut < len(actions) else None)
        frames.append(render_svg(state, names=names))
        labels.append(f"position {k} of {len(cuts) - 1}: after {cut} of {len(actions)} actions")
    return _PAGE.format(title=html.escape(title), last=len(frames) - 1, frames=json.dumps(frames), labels=json.dumps(labels))


def write_viewer(record_line: str, path, title: str = "meeple game") -> None:
    with open(path, "w") as f:
        f.write(viewer_html(record_line, title))
