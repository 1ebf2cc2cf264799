"""python -m meeple: tournament, train, play, replay, render, view, info, encoding.

    python -m meeple tournament --bots mcts:iterations=2000 heuristic greedy random --games 48 --players 2 \
        --seed 1 --out runs/ladder
    python -m meeple train --expansions river2 --generations 6 --games 400 --out runs/train-river2
    python -m meeple train-policy --games 200 --bot mcts:iterations=800 --out runs/policy-base
    python -m meeple train-net --out runs/net-base --generations 6
    python -m meeple replay runs/ladder/games.jsonl
    python -m meeple render runs/ladder/games.jsonl --game 3 --actions 80 --out board.svg
    python -m meeple view runs/ladder/games.jsonl --game 3 --out game3.html
    python -m meeple play --bots mcts:ms=1000 --expansions river2 --port 8000
    python -m meeple info
    python -m meeple encoding --players 2 --markdown
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from . import _meeple, files
from .checks import MAX_SEED, number, real
from .environment import make_rules
from .tournament import MAX_GAMES, MAX_WORKERS, tournament


def cmd_tournament(args) -> int:
    # tournament() checks the bots, rules and numbers before it makes the folder and the record file.
    result = tournament(args.bots, games=args.games, rules=rules_of_args(args, default_players=len(args.bots)),
                        seed=args.seed, workers=args.workers,
                        out=os.path.join(args.out, "games.jsonl"), progress=not args.quiet,
                        backend=args.backend, address=args.address, batch=args.batch)
    print(result.table())
    result.write_csv(os.path.join(args.out, "results.csv"))
    from .plots import plot_tournament

    plot_tournament(result, os.path.join(args.out, "ratings.png"))
    print(f"wrote {args.out}/games.jsonl, results.csv, ratings.png")
    return 0


def cmd_train(args) -> int:
    from .training import TrainConfig, generations_table, train

    config = TrainConfig(rules=str(rules_of_args(args)), generations=args.generations, games=args.games, window=args.window, method=args.method,
                         lam=args.lam, alpha=args.alpha, shrink_to=args.shrink_to, frozen=tuple(args.freeze),
                         hidden=tuple(args.hidden), selfplay_bot=args.selfplay_bot, match_bot=args.match_bot,
                         elo0=args.elo0, elo1=args.elo1, batch_pairs=args.batch_pairs, max_pairs=args.max_pairs,
                         seed=args.seed, workers=args.workers, start=args.start)
    rows = train(args.out, config, progress=not args.quiet, command="python -m meeple " + shlex.join(args.argv))
    print(generations_table(rows))
    print(f"wrote {args.out}/generations.csv, generations.png, best.json (the last promoted weights, or the start)")
    return 0


def cmd_train_policy(args) -> int:
    from .policy import FitConfig, train_policy

    rules = rules_of_args(args)
    config = FitConfig(hidden=tuple(args.hidden), epochs=args.epochs, lr=args.lr, seed=args.seed)
    report = train_policy(args.out, rules, bot=args.bot, games=args.games, seed=args.seed, workers=args.workers,
                          config=config, progress=not args.quiet, command="python -m meeple " + shlex.join(args.argv),
                          backend=args.backend, address=args.address, batch=args.batch)
    for key, value in report.items():
        print(f"{key:>36}: {value:.4f}" if isinstance(value, float) else f"{key:>36}: {value}")
    print(f"wrote {args.out}/data.npz, policy.json, report.json; play it with mcts:policy={args.out}/policy.json")
    return 0


def cmd_train_net(args) -> int:
    from .net import LoopConfig, NetConfig, train_net

    rules = rules_of_args(args)
    net = NetConfig(channels=args.channels, residual=args.residual, flat_hidden=args.flat_hidden,
                    global_hidden=args.global_hidden, hand_features=not args.no_hand_features,
                    value_base=args.value_base).check()
    config = LoopConfig(rules=str(rules), generations=args.generations, games=args.games, teacher=args.teacher,
                        teacher_games=args.teacher_games, selfplay=args.selfplay_bot, match=args.match_bot,
                        window=args.window, epochs=args.epochs,
                        batch=args.batch_size, lr=args.lr, search_value=args.search_value, net=net, elo0=args.elo0,
                        elo1=args.elo1, batch_pairs=args.batch_pairs, max_pairs=args.max_pairs, workers=args.workers,
                        seed=args.seed, backend=args.backend, address=args.address, ray_batch=args.batch)
    rows = train_net(args.out, config, progress=not args.quiet)
    best = rows[-1]["best"] if rows else None
    print(f"wrote {args.out}/generations.csv, generations.png, best.json ({best}); play it with mcts:net={args.out}/best.json")
    return 0


def cmd_replay(args) -> int:
    """As meeple replay: JSON Lines, or one record written over several lines; each record's line is
    "FILE line N: final scores ..." (a file of one record: "FILE: ..."), errors on standard error. Records
    are replayed as they are read; only the first one's line waits to see whether another follows."""
    status, first, count = 0, None, 0

    def replayed(number, line):
        where = f"{args.file} line {number}"
        try:
            _, state = replay_line(line, where)
            return number, True, f"{'final' if state.is_terminal else 'unfinished'} scores " + " ".join(map(str, state.scores))
        except ValueError as e:
            text = one_line(e)
            return number, False, text[len(where) + 2:] if text.startswith(where + ": ") else text

    def show(result, where):
        print(f"{where}: {result[2]}", file=sys.stdout if result[1] else sys.stderr)

    def records():
        lines = files.read_lines(args.file, "record file")
        for number, line in lines:
            if not line.strip():
                continue
            if not is_json(line):  # perhaps one record written over several lines
                try:
                    whole = files.read_text(args.file, "record file", limit=files.MAX_LINE)
                except ValueError:  # too long for one record: JSON Lines with a bad line
                    whole = b""
                if is_json(whole):
                    yield 1, whole
                    return
            yield number, line
            break
        yield from ((n, line) for n, line in lines if line.strip())

    try:
        for number, line in records():
            result = replayed(number, line)
            status = status if result[1] else 2
            count += 1
            if count == 1:
                first = result
                continue
            if first:
                show(first, f"{args.file} line {first[0]}")
                first = None
            show(result, f"{args.file} line {result[0]}")
    except ValueError:  # the file cannot be read on (a line too long): what was replayed is shown first
        if first:
            show(first, f"{args.file} line {first[0]}")
        raise
    if first:
        show(first, args.file)
    if count == 0:
        raise ValueError(f"{args.file}: not valid JSON: the file holds no record")
    return status


def is_json(text: bytes) -> bool:
    try:
        files.loads(text, "record")  # deep nesting too is a ValueError here
        return True
    except ValueError:
        return False


def replay_line(line: bytes, where: str, check_result: bool = True):
    """(the record, its final state) of one record line; ValueError starting with `where` otherwise.
    Python's parser reads the line first: it refuses what is not UTF-8 JSON, however deeply nested, with a
    clear error."""
    record = files.loads(line, where)
    try:
        return record, _meeple.replay(line.decode(), check_result)
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def cmd_render(args) -> int:
    from .render import position_of_record, render_svg

    line, names = read_record(args.file, args.game)
    state = position_of_record(line, args.actions)
    with open(args.out, "w") as f:
        f.write(render_svg(state, names=names, title=f"{args.file} game {args.game}"))
    print(f"wrote {args.out}")
    return 0


def read_record(path, game) -> tuple[str, list | None]:
    """(the text of the game-th record of a file, from 1, blank lines not counted; its seat names), once it
    is known to replay; ValueError naming the file and the game otherwise."""
    count = 0
    for number, line in files.read_lines(path, "record file"):
        if line.strip():
            count += 1
            if count == game:
                record, _ = replay_line(line, f"{path}: game {game} (line {number})", check_result=False)
                return line.decode(), record.get("names") or None
    raise ValueError(f"{path} has {count} games; --game is 1 to {count}" if count else f"{path} holds no game")


def cmd_view(args) -> int:
    from .viewer import write_viewer

    write_viewer(read_record(args.file, args.game)[0], args.out, title=f"{args.file} game {args.game}")
    print(f"wrote {args.out}")
    return 0


def cmd_play(args) -> int:
    from .play import serve

    rules = rules_of_args(args, default_players=1 + len(args.bots))
    serve(rules, args.bots, seat=args.seat, seed=args.seed, port=args.port, out=args.out, open_browser=not args.no_open)
    return 0


def cmd_info(args) -> int:
    print(_meeple.info_json() if args.json else _meeple.info_text(), end="\n" if args.json else "")
    return 0


def encoding_tables(players: int) -> tuple[list, list]:
    """The board encoding's planes and flat fields as table rows (index, count, name, what): every plane, and
    the flat fields grouped by name (in_hand.{tile} is one row for all the tile types), from
    Encoding.plane_channels() and flat_fields(), so that docs/environments.md cannot drift from the code."""
    encoding = _meeple.Encoding(players)
    planes = [(str(i), 1, name, what) for i, (name, what) in enumerate(encoding.plane_channels())]
    tiles, seats = set(_meeple.tile_ids()), {str(k) for k in range(players)}
    groups: dict[str, list] = {}  # key -> [(index, suffix, what)], in order of first appearance
    for i, (name, what) in enumerate(encoding.flat_fields()):
        key, _, suffix = name.partition(".")
        groups.setdefault(key if suffix else name, []).append((i, suffix, what))
    flat = []
    for key, members in groups.items():
        if len(members) == 1:
            i, suffix, what = members[0]
            flat.append((str(i), 1, f"{key}.{suffix}" if suffix else key, what))
            continue
        suffixes = [m[1] for m in members]
        label = "tile" if set(suffixes) <= tiles else "k" if set(suffixes) == seats else "x"
        # {label} rather than <label>: Markdown would take <tile> for an HTML tag and show nothing
        what = members[0][2].replace(suffixes[0], f"{{{label}}}") if label != "k" else \
            members[0][2].replace("observer", "seat +{k}")
        if label == "tile":
            what += " (tile types in meeple.tile_ids() order)"
        elif label == "x":
            what += f"; {{x}}: {', '.join(suffixes)}"
        flat.append((index_range([m[0] for m in members]), len(members), f"{key}.{{{label}}}", what))
    return planes, flat


# What each block of ids (meeple.ACTION_ID_BLOCKS) holds: (the id after the block's first, what it does).
ACTION_BLOCKS = {
    "pass": ("", "pass: deploy nothing, decline, draw instead of placing the abbey, stop redeploying"),
    "place": ("+ 4 × cell + rotation", "place the tile in hand on a cell of the planes (row × WINDOW + column), turned "
              "rotation quarter turns clockwise; rotations of a symmetric tile that look alike share the id"),
    "abbey": ("+ cell", "place the abbey on that cell"),
    "deploy": ("+ figure × 10 + segment", "a follower (figure 0), mayor (1), wagon (2) or barn (3) onto a segment of "
               "the tile just placed (meeple.tile_geometry numbers them; a barn's is a corner)"),
    "count_deploy": ("+ (figure × 4 + quarter) × 5 + count_to", "the Count: a follower, mayor or wagon into a quarter, "
                     "the Count moved to quarter count_to (4: it stays)"),
    "redeploy": ("+ figure × 576 + node", "a follower, mayor or wagon from its quarter onto the feature whose first "
                 "segment placed is that node"),
    "wagon": ("+ node", "move the wagon onto the feature whose first segment placed is that node"),
}


def action_table() -> list:
    """Rows (ids, count, block, id, what) of the action id space, from meeple.ACTION_ID_BLOCKS."""
    starts = sorted(_meeple.ACTION_ID_BLOCKS.items(), key=lambda kv: kv[1])
    rows = []
    for (name, first), (_, end) in zip(starts, starts[1:]):
        offset, what = ACTION_BLOCKS[name]  # a block without its sentence here is a KeyError: write one
        rows.append((f"{first}-{end - 1}" if end - first > 1 else str(first), end - first, name, f"{first} {offset}".strip(), what))
    return rows


def index_range(indices: list[int]) -> str:
    """Indices as text: 3-8 when consecutive, else listed (239, 242, 245), the middle left out of a long list."""
    if all(b - a == 1 for a, b in zip(indices, indices[1:])):
        return f"{indices[0]}-{indices[-1]}"
    return ", ".join(map(str, indices)) if len(indices) <= 4 else f"{indices[0]}, {indices[1]}, ... {indices[-1]}"


def cmd_encoding(args) -> int:
    planes, flat = encoding_tables(args.players)
    for title, rows, index in (("planes", planes, "plane"), ("flat", flat, "flat index")):
        if args.markdown:  # planes one a row, no count; flat fields grouped, with their count
            counted = title == "flat"
            print(f"| {index} |{' count |' if counted else ''} name | what |\n| ---: |{' ---: |' if counted else ''} --- | --- |")
            for i, count, name, what in rows:
                print(f"| {i} |{f' {count} |' if counted else ''} `{name}` | {what} |")
        else:
            print(f"{title} ({sum(r[1] for r in rows)}):")
            for i, count, name, what in rows:
                print(f"  {i:>16} {count:>4}  {name:<28} {what}")
        print()
    rows = action_table()
    if args.markdown:
        print("| ids | count | block | id | what |\n| ---: | ---: | --- | --- | --- |")
        for ids, count, name, at, what in rows:
            print(f"| {ids} | {count} | `{name}` | {at} | {what} |")
    else:
        print(f"action ids ({_meeple.NUM_ACTION_IDS}):")
        for ids, count, name, at, what in rows:
            print(f"  {ids:>16} {count:>4}  {name:<13} {at:<40} {what}")
    return 0


def add_rules_arguments(parser, players_default: str = "2") -> None:
    """--rules, and --players, --expansions and --option as shorthand for its words (rules_of_args)."""
    parser.add_argument("--rules", default=None, help='the game as one text, e.g. "players=3 expansions=river2,count '
                        'small_city=two_points" (Rules.parse; python -m meeple info lists the names)')
    parser.add_argument("--players", type=number(2, _meeple.MAX_PLAYERS), default=None,
                        help=f"shorthand for players=N in --rules (default: {players_default})")
    parser.add_argument("--expansions", nargs="*", default=[],
                        help="shorthand for expansions=... in --rules: " + " ".join(_meeple.EXPANSION_NAMES))
    parser.add_argument("--option", action="append", default=[],
                        help="shorthand for NAME=VALUE (or NAME:VALUE) in --rules, repeatable: " + " ".join(_meeple.OPTION_NAMES))


def rules_of_args(args, default_players: int = 2) -> _meeple.Rules:
    return make_rules(args.players, args.expansions, args.option, rules=args.rules, default_players=default_players)


def add_jobs_argument(parser) -> None:
    # --jobs as meeple's C++ command line names it; --workers, the Python functions' name, is kept as an alias.
    parser.add_argument("--jobs", "--workers", dest="workers", type=number(1, MAX_WORKERS), default=os.cpu_count() or 1,
                        help="games played at once (C++ threads)")


def add_backend_arguments(parser) -> None:
    parser.add_argument("--backend", choices=["local", "ray"], default="local",
                        help="local: --workers C++ threads; ray: batches of games as Ray tasks (pip install meeple[ray])")
    parser.add_argument("--address", default=None, help="Ray cluster to join (default: a new local one)")
    parser.add_argument("--batch", type=number(1), default=4, help="games per Ray task")


class Parser(argparse.ArgumentParser):
    """argparse with errors on one line (and exit 2, as argparse does)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def one_line(error: BaseException) -> str:
    """The message of an expected error, on one line; an OSError says which file."""
    if isinstance(error, OSError) and error.filename is not None and error.strerror:
        text = f"{error.filename}: {error.strerror}"
    else:
        text = str(error) or type(error).__name__
    return " ".join(text.split("\n"))


def main(argv=None) -> int:
    parser = Parser(prog="python -m meeple", description="Carcassonne engine, bots and tournaments")
    parser.add_argument("--version", action="version", version=f"meeple {_meeple.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    t = sub.add_parser("tournament", help="bots against each other; records, a results table, a CSV and a plot")
    t.add_argument("--bots", nargs="+", required=True, help="bot specs, as for `meeple match`")
    t.add_argument("--games", type=number(1, MAX_GAMES), default=48)
    add_rules_arguments(t, "one per bot")
    t.add_argument("--seed", type=number(0, MAX_SEED), default=1)
    add_jobs_argument(t)
    t.add_argument("--out", required=True, help="folder for games.jsonl, results.csv, ratings.png (reruns resume)")
    add_backend_arguments(t)
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(run=cmd_tournament)
    tr = sub.add_parser("train", help="fit evaluator weights from self-play, promoting only those that win a match",
                        description="Each generation: self-play with the current weights, a fit on the last --window "
                        "generations' positions, and an SPRT match of the fitted weights against the current ones; "
                        "only a win promotes. See docs/training.md.")
    tr.add_argument("--out", required=True, help="folder for data, weights, match records, generations.csv/.png (reruns resume)")
    add_rules_arguments(tr, "2; the self-play games' seats, the matches are head to head")
    tr.add_argument("--generations", type=number(1), default=5)
    tr.add_argument("--games", type=number(1, MAX_GAMES), default=400, help="self-play games per generation")
    tr.add_argument("--window", type=number(1), default=3, help="fit on the data of this many latest generations")
    tr.add_argument("--method", choices=["ridge", "td", "mlp"], default="ridge",
                    help="linear: final-outcome ridge or TD(lambda); or a small multilayer perceptron")
    tr.add_argument("--hidden", type=number(1, _meeple.MlpEvaluator.MAX_WIDTH), nargs="+", default=[32], help="hidden layer widths of --method mlp (at most 64)")
    tr.add_argument("--lam", type=real(0, 1), default=0.7, help="lambda of --method td")
    tr.add_argument("--alpha", type=real(0), default=0.1, help="ridge penalty (on standardised features)")
    tr.add_argument("--shrink-to", choices=["current", "zero"], default="current",
                    help="what the ridge penalty pulls the weights towards: the current weights, or zero")
    tr.add_argument("--freeze", nargs="*", default=[], metavar="FEATURE",
                    help="features whose weights stay as they are (see python -m meeple info for the names)")
    tr.add_argument("--selfplay-bot", default="heuristic:eval={weights}", help="bot template for self-play")
    tr.add_argument("--match-bot", default="heuristic:eval={weights}", help="bot template for the matches")
    tr.add_argument("--elo0", type=real(), default=0.0)
    tr.add_argument("--elo1", type=real(), default=20.0)
    tr.add_argument("--batch-pairs", type=number(1), default=50, help="seat-swapped pairs between SPRT looks")
    tr.add_argument("--max-pairs", type=number(1), default=400, help="pairs after which a match ends undecided")
    tr.add_argument("--start", default=None, help="weights to start from (default: the hand-tuned ones)")
    tr.add_argument("--seed", type=number(0, MAX_SEED), default=1)
    add_jobs_argument(tr)
    tr.add_argument("--quiet", action="store_true", help="no progress bars")
    tr.set_defaults(run=cmd_train)
    tp = sub.add_parser("train-policy", help="fit a policy network (priors for guided search) to MCTS self-play visits",
                        description="Self-play between mcts bots, keeping each decision's root visits, then a fit "
                        "of a small network whose softmax over the legal actions matches them. The result is a "
                        "weight file for mcts:policy=FILE.json.")
    tp.add_argument("--out", required=True, help="folder for data.npz, policy.json, report.json (reruns reuse the data)")
    add_rules_arguments(tp)
    tp.add_argument("--games", type=number(1, MAX_GAMES), default=200, help="self-play games")
    tp.add_argument("--bot", default="mcts:iterations=800", help="the mcts spec of every seat in self-play")
    tp.add_argument("--hidden", type=number(1, _meeple.MlpEvaluator.MAX_WIDTH), nargs="*", default=[32], help="hidden layer widths (at most 64)")
    tp.add_argument("--epochs", type=number(1), default=20)
    tp.add_argument("--lr", type=real(0), default=3e-3)
    tp.add_argument("--seed", type=number(0, MAX_SEED), default=1, help="first tile seed of the games, and the fit's seed")
    add_jobs_argument(tp)
    add_backend_arguments(tp)
    tp.add_argument("--quiet", action="store_true", help="no progress bar")
    tp.set_defaults(run=cmd_train_policy)
    tn = sub.add_parser("train-net", help="train a policy-value network on the board: self-play, fit, SPRT gating",
                        description="Generation 0 distils --teacher's self-play (visits and outcomes) into a net; "
                        "each later generation plays with the best net inside MCTS, trains a candidate on the last "
                        "--window generations' data (in random rotations) and promotes it only if it wins an SPRT "
                        "match against the best. Needs JAX (pip install 'meeple[train]'). See docs/networks.md.")
    tn.add_argument("--out", required=True, help="folder for data, nets, match records, generations.csv/.png (reruns resume)")
    add_rules_arguments(tn)
    tn.add_argument("--generations", type=number(0), default=6, help="generations after generation 0")
    tn.add_argument("--games", type=number(1, MAX_GAMES), default=200, help="self-play games per generation")
    tn.add_argument("--teacher", default="mcts", help="generation 0's self-play bot (an mcts spec)")
    tn.add_argument("--teacher-games", type=number(1, MAX_GAMES), default=600, help="generation 0's self-play games")
    tn.add_argument("--selfplay-bot", default="mcts:net={net},iterations=800,noise=0.3,play_temp=1,play_temp_tiles=8",
                    help="self-play bot template ({net}: the best net; root noise and a play temperature for the first tiles)")
    tn.add_argument("--match-bot", default="mcts:net={net},iterations=800", help="gating match bot template")
    tn.add_argument("--window", type=number(1), default=4, help="train on this many latest generations' data")
    tn.add_argument("--epochs", type=number(1), default=3)
    tn.add_argument("--batch-size", type=number(1), default=256)
    tn.add_argument("--lr", type=real(0), default=2e-3)
    tn.add_argument("--search-value", type=real(0, 1), default=0.0,
                    help="weight of the search's root value in the value targets (0: the games' outcomes only)")
    tn.add_argument("--channels", type=number(1, 256), default=32, help="K: features per candidate cell")
    tn.add_argument("--residual", type=number(0, 8), default=1, help="R: residual layers on the cells")
    tn.add_argument("--flat-hidden", type=number(1, 256), default=64)
    tn.add_argument("--global-hidden", type=number(1, 256), default=64)
    tn.add_argument("--no-hand-features", action="store_true", help="do not give the net the evaluator's features")
    tn.add_argument("--value-base", default="", metavar="EVALUATOR",
                    help="'trained': the value corrects the shipped evaluator's leaf values, tanh(head + their "
                         "margin / reward scale), starting from them (docs/networks.md)")
    tn.add_argument("--elo0", type=real(), default=0.0)
    tn.add_argument("--elo1", type=real(), default=30.0)
    tn.add_argument("--batch-pairs", type=number(1), default=20, help="seat-swapped pairs between SPRT looks")
    tn.add_argument("--max-pairs", type=number(1), default=150, help="pairs after which a match ends undecided")
    tn.add_argument("--seed", type=number(0, MAX_SEED), default=1)
    add_jobs_argument(tn)
    add_backend_arguments(tn)
    tn.add_argument("--quiet", action="store_true", help="no progress bars")
    tn.set_defaults(run=cmd_train_net)
    r = sub.add_parser("replay", help="replay a file of records and print their scores")
    r.add_argument("file")
    r.set_defaults(run=cmd_replay)
    d = sub.add_parser("render", help="an SVG picture of a record's position")
    d.add_argument("file", help="a .jsonl file of meeple-game/1 records (or a .json of one)")
    d.add_argument("--game", type=number(1), default=1, help="which record of the file (from 1)")
    d.add_argument("--actions", type=number(0), default=None, help="the position after this many actions (default: the end)")
    d.add_argument("--out", default="board.svg")
    d.set_defaults(run=cmd_render)
    v = sub.add_parser("view", help="a static HTML page stepping through a record")
    v.add_argument("file")
    v.add_argument("--game", type=number(1), default=1)
    v.add_argument("--out", default="game.html")
    v.set_defaults(run=cmd_view)
    pl = sub.add_parser("play", help="play bots yourself, in the browser (a local web app on 127.0.0.1)")
    pl.add_argument("--bots", nargs="+", default=["mcts:ms=1000"], help="one bot spec per other seat")
    pl.add_argument("--seat", type=number(0, _meeple.MAX_PLAYERS - 1), default=0, help="your seat (0 plays first)")
    add_rules_arguments(pl, "one per bot and yours")
    pl.add_argument("--seed", type=number(0, MAX_SEED), default=None, help="tile order (default: random)")
    pl.add_argument("--port", type=number(0, 65535), default=8000, help="0: any free port")
    pl.add_argument("--out", default=None, help="file the finished games' records are appended to "
                    "(default: runs/play/games-DATE.jsonl)")
    pl.add_argument("--no-open", action="store_true", help="do not open a browser")
    pl.set_defaults(run=cmd_play)
    i = sub.add_parser("info", help="what this build knows: expansions, options, tile sets, bots, features (as meeple info)")
    i.add_argument("--json", action="store_true", help="as JSON (the same as meeple info --json)")
    i.set_defaults(run=cmd_info)
    e = sub.add_parser("encoding", help="the board encoding's planes, flat fields and action ids (the tables of docs/environments.md)")
    e.add_argument("--players", type=number(2, _meeple.MAX_PLAYERS), default=2, help="seat channels for this many players")
    e.add_argument("--markdown", action="store_true", help="as the Markdown tables of docs/environments.md")
    e.set_defaults(run=cmd_encoding)
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return args.run(args)
    except (ValueError, TypeError, OSError, _meeple.RulesError) as e:
        # What bad input raises (a missing or unreadable file, a bad spec, a file that is not what it should
        # be): one line, exit 2. Other exceptions are bugs and keep their traceback.
        print(f"error: {one_line(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: every finished game is saved; rerun the same command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
