"""python -m meeple play: a person plays meeple's bots in the browser, served on 127.0.0.1.

    python -m meeple play --bots mcts:ms=1000 greedy --expansions river2 abbey_mayor --port 8000

The page (play.html) shows the board (board.js, from meeple.render.board_data), the tile in hand with the cells where it fits
highlighted, and every other decision of the rules in play as buttons, with the spots of figures marked on
the board. The game is played here, in this process: the page asks for the position (GET /api/state) and
sends the person's choice (POST /api/act {"action": index of the decision's choices}); the bots then play
until it is the person's turn again, and the answer is the new position. When the game ends its record
(meeple-game/1) is appended to --out, which is checked before the game starts; should the append still fail,
the record goes to a file in the temporary folder and the page says where (and offers it for download).
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import random
import stat
import sys
import tempfile
import threading
import time
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from . import _meeple
from .environment import as_rules
from .render import T, board_data, final_account, page_assets
from .words import PHASE_WORDS, board_of, describe, tile_name

# Where each record location of a tile is drawn, as fractions of the tile (board frame).
SPOTS = {"N": (0.5, 0.2), "E": (0.8, 0.5), "S": (0.5, 0.8), "W": (0.2, 0.5),
         "NL": (0.25, 0.12), "NR": (0.75, 0.12), "EL": (0.88, 0.25), "ER": (0.88, 0.75),
         "SL": (0.75, 0.88), "SR": (0.25, 0.88), "WL": (0.12, 0.75), "WR": (0.12, 0.25),
         "NE": (0.85, 0.15), "SE": (0.85, 0.85), "SW": (0.15, 0.85), "NW": (0.15, 0.15),
         "C": (0.5, 0.5), "I1": (0.4, 0.6), "I2": (0.6, 0.4)}
SPOT_RADIUS = 6  # px, as play.html draws them


def spot_point(x: int, y: int, code: str) -> list[float]:
    """Where a location (record code, board frame) of the tile at (x, y) is drawn, in board pixels."""
    fx, fy = SPOTS[code]
    return [(x + fx) * T, (y + fy) * T]


def spread(points: list[list[float]]) -> list[list[float]]:
    """The points moved apart so that no two spots overlap (a follower and a mayor may go to the same
    place, a barn's corner lies close to a field's half-edge): each point that touches an earlier one goes
    to the nearest free position on rings around it."""
    placed = []
    for x, y in points:
        candidates = [(x, y)] + [(x + r * math.cos(a * math.pi / 4), y + r * math.sin(a * math.pi / 4))
                                 for r in (2.2 * SPOT_RADIUS, 4.4 * SPOT_RADIUS) for a in range(8)]
        free = next((c for c in candidates if all(math.dist(c, p) >= 2 * SPOT_RADIUS for p in placed)), candidates[-1])
        placed.append(free)
    return [[round(px, 1), round(py, 1)] for px, py in placed]


def check_output(path: str) -> None:
    """Refuses, before any game is played, a records file that could not take a record: a directory, a
    device or pipe (/dev/full, a FIFO: a record there is lost, or the write blocks), a read-only file, a
    folder that cannot be created or written in. A missing folder is created (the default's runs/play/)."""
    if not path:
        raise ValueError("--out is empty: give a file for the records")
    try:
        info = os.stat(path)  # through symlinks: records are appended to the link's target
    except FileNotFoundError:
        if os.path.islink(path):
            raise ValueError(f"--out {path!r} is a symlink to nothing ({os.readlink(path)!r})") from None
        folder = os.path.dirname(path) or "."
        try:
            os.makedirs(folder, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as e:
            raise ValueError(f"--out {path!r}: cannot write in the folder {folder!r} ({e.strerror})") from None
        return
    except OSError as e:  # e.g. a path through a regular file (ENOTDIR)
        raise ValueError(f"--out {path!r} cannot be used ({e.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"--out {path!r} is a directory: give a file for the records (e.g. {os.path.join(path, 'games.jsonl')!r})")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"--out {path!r} is not a regular file (a device or pipe would lose the records)")
    # The mode bits as well as access(): root may write anything, but a file made read-only is meant to stay as it is.
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise ValueError(f"--out {path!r} is read-only")


def append_line(path: str, line: str) -> None:
    """Appends one whole line or nothing: a failed write is cut back off, so the file keeps only whole records."""
    check_output(path)  # the target may have changed since the game started
    # O_NONBLOCK: a FIFO put there meanwhile fails to open instead of blocking the server.
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
    try:
        start = os.fstat(fd).st_size
        data = line.encode()
        try:
            while data:
                data = data[os.write(fd, data):]
        except OSError:
            with contextlib.suppress(OSError):  # best effort: the write's own error is the one to report
                os.ftruncate(fd, start)
            raise
    finally:
        os.close(fd)


class Table:
    """One game between a person (seat `seat`) and bots, played as the page asks."""

    def __init__(self, rules, bots: list[str], seat: int, seed: int, out: str):
        if not 0 <= seat <= len(bots):
            raise ValueError(f"--seat must be 0 to {len(bots)} with {len(bots)} bots, got {seat}")
        for spec in bots:
            _meeple.make_player(spec, 0)  # a bad spec fails before the server starts
        check_output(out)  # so does a records file that would lose the game at its end
        self.rules, self.bot_specs, self.seat, self.out = rules, bots, seat, out
        self.names = list(bots[:seat]) + ["you"] + list(bots[seat:])
        self.lock = threading.Lock()
        self.new_game(seed)

    def new_game(self, seed: int) -> None:
        self.seed = seed
        specs = iter(self.bot_specs)
        bots = [None if p == self.seat else _meeple.make_player(next(specs), _meeple.seat_seed(seed, p))
                for p in range(self.rules.players)]
        self.game = _meeple.Table(self.rules, bots, self.names, seed)
        self.log, self.saved, self.save_error, self.record = [], None, None, None
        self.before_last = None  # (the position before the last action, that action): for the account of the end
        self.shown_from = 0  # log entries from the person's last decision on are shown
        self._play_until_the_person()

    def _note(self, before, action) -> None:
        """The log's line for an action, and the position before it (for the account of the end)."""
        if not before.is_chance:
            if before.current_player == self.seat:
                self.shown_from = len(self.log)
            self.log.append(f"{self.names[before.current_player]}: {self._words(_meeple.action_json(before, action), before)}")
        elif action.tile is not None:
            self.log.append(f"tile drawn: {tile_name(action.tile)}")
        self.before_last = (before, action)

    def _play_until_the_person(self) -> None:
        try:
            for before, action in self.game.advance(log=True):
                self._note(before, action)
        finally:
            self.state = self.game.state  # as far as the game went, should a bot fail
        if self.state.is_terminal and self.record is None:
            self.saved = self._save()

    def _save(self) -> str:
        """Appends the record to --out; if that fails, to a file in the temporary folder, with the reason kept
        for the page (which also offers the record itself for download). Returns where it went."""
        self.record = self.game.record_line() + "\n"
        try:
            append_line(self.out, self.record)
            return self.out
        except (OSError, ValueError) as e:
            reason = f"could not append the record to {self.out}: {getattr(e, 'strerror', None) or e}"
        fallback = os.path.join(tempfile.gettempdir(), f"meeple-play-{os.getpid()}-seed{self.seed}.jsonl")
        try:
            append_line(fallback, self.record)
        except (OSError, ValueError) as e:
            self.save_error = f"{reason}; nor to {fallback} ({getattr(e, 'strerror', None) or e}): download it from this page"
            print(f"meeple play: {self.save_error}", file=sys.stderr, flush=True)
            return None
        self.save_error = f"{reason}; it was saved to {fallback} instead"
        print(f"meeple play: {self.save_error}", file=sys.stderr, flush=True)
        return fallback

    def _words(self, record, state=None) -> str:
        """The words for an action's record, on the board of `state` (the position it is taken in)."""
        state = self.state if state is None else state
        tiles = state.tiles()
        return describe(record, board_of(state), tuple(tiles[-1][1:3]) if tiles else None)

    def act(self, index: int) -> None:
        """The person's choice: index into the decision's choices (legal_actions order)."""
        s = self.state
        if s.is_terminal:
            raise ValueError("the game is over: start a new one")
        legal = s.legal_actions()
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(legal):
            raise ValueError(f"action must be an index 0 to {len(legal) - 1} of this decision's choices, got {index!r}")
        self._note(s.copy(), legal[index])
        self.game.act(legal[index])
        self._play_until_the_person()

    def view(self) -> dict:
        """Everything the page draws."""
        s = self.state
        yours = not s.is_terminal and s.current_player == self.seat
        placements, choices = [], []
        if yours:
            placed = s.tiles()[-1]  # where deploys go
            for i, action in enumerate(s.legal_actions()):
                record = _meeple.action_json(s, action)
                if action.kind == "place":
                    placements.append({"action": i, "x": action.x, "y": action.y, "rotation": action.rotation})
                    continue
                choice = {"action": i, "label": self._words(record), "kind": action.kind, "cell": None, "spot": None}
                what = None if record is None else next(v for k, v in record.items() if k != "p")
                if action.kind == "abbey":
                    choice["cell"] = what
                elif action.kind == "deploy" and what is not None:
                    choice["spot"] = spot_point(placed[1], placed[2], what["at"])
                elif action.kind in ("wagon", "redeploy") and what is not None:
                    to = what if action.kind == "wagon" else what["to"]
                    choice["spot"] = spot_point(to[0], to[1], to[2])
                choices.append(choice)
            with_spots = [c for c in choices if c["spot"]]
            for c, point in zip(with_spots, spread([c["spot"] for c in with_spots])):
                c["spot"] = point
        if s.is_terminal:
            top = max(s.scores)
            status = "Game over: " + ", ".join(self.names[p] for p, v in enumerate(s.scores) if v == top) + " won"
        elif placements:
            status = f"Your turn: place the {tile_name(s.drawn_tile)}"
        elif yours:
            status = f"Your turn: {PHASE_WORDS.get(s.phase, s.phase)}"
        else:
            status = "Bots are playing"
        return {
            "board": board_data(s), "names": self.names, "seat": self.seat,
            "scores": s.scores, "breakdown": s.score_breakdown(), "tiles_left": s.tiles_left, "phase": s.phase,
            "status": status, "over": s.is_terminal, "tile": s.drawn_tile if placements else None,
            "tile_name": tile_name(s.drawn_tile) if placements else None, "placements": placements,
            "account": final_account(*self.before_last) if s.is_terminal else None,
            "choices": choices, "log": self.log[self.shown_from:], "record": self.saved, "seed": self.seed,
            "save_error": self.save_error, "record_text": self.record,
        }


MAX_BODY = 4096  # bytes: a choice is a few


def handler_for(table: Table):
    page = resources.files(__package__).joinpath("play.html").read_text()
    page = page.replace("<!-- board -->", page_assets(_meeple.tile_ids())).encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):  # quiet: the page is the interface
            pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, value) -> None:
            self._send(status, json.dumps(value).encode(), "application/json")

        def _refused(self) -> bool:
            """Requests for another host name (a web page using DNS rebinding to reach this port) are
            refused: the game answers only to 127.0.0.1 and localhost."""
            host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
            if host in ("127.0.0.1", "localhost"):
                return False
            self._json(403, {"error": f"this server answers requests for 127.0.0.1 or localhost, not {host!r}"})
            return True

        def do_GET(self):
            if self._refused():
                return
            if self.path in ("/", "/index.html"):
                self._send(200, page, "text/html; charset=utf-8")
            elif self.path == "/api/state":
                with table.lock:
                    self._json(200, table.view())
            else:
                self._json(404, {"error": f"no such page {self.path}; the game is at /"})

        def do_POST(self):
            if self._refused():
                return
            # Only JSON: a form or text/plain post from another web page (which needs no permission to
            # send one) is refused before anything is read.
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                return self._json(415, {"error": "send the choice as JSON (Content-Type: application/json)"})
            try:
                length = int(self.headers.get("Content-Length") or 0)
                if not 0 <= length <= MAX_BODY:
                    raise ValueError(f"a request body must be 0 to {MAX_BODY} bytes, got {length}")
                body = json.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("the request body must be a JSON object")
                with table.lock:
                    if self.path == "/api/act":
                        table.act(body.get("action"))
                    elif self.path == "/api/new":
                        table.new_game(table.seed + 1)
                    else:
                        return self._json(404, {"error": f"no such action {self.path}"})
                    self._json(200, table.view())
            except (ValueError, _meeple.RulesError) as e:
                self._json(400, {"error": str(e)})
            except Exception as e:  # a request always gets an answer: the page shows it, the server goes on
                self._json(500, {"error": f"{type(e).__name__}: {e}"})

    return Handler


def serve(rules, bots: list[str], seat: int = 0, seed: int | None = None, port: int = 8000, out: str | None = None,
          open_browser: bool = True) -> None:
    """Serves the game on 127.0.0.1:port (0: any free port) until interrupted; prints the address first."""
    seed = random.randrange(1, 2**31) if seed is None else seed
    out = out or os.path.join("runs", "play", time.strftime("games-%Y%m%d.jsonl"))
    table = Table(as_rules(rules), bots, seat, seed, out)
    server = ThreadingHTTPServer(("127.0.0.1", port), handler_for(table))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"meeple play: {url} (you are seat {seat}, against {', '.join(bots)}; records go to {out}); Ctrl-C stops",
          flush=True)
    if open_browser:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
