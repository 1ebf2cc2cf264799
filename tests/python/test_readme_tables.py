"""The tables a newcomer reads agree with what the build knows: docs/rules.md's table of rules options with
`meeple info --json`, ai/README.md's bot specs with the bot factory, and experiments/README.md with the
scripts in experiments/.

The bots come from `meeple info --json`, which lists each bot's table of parameters (ai/src/bots.cpp), and
the factory's own refusals confirm them: an unknown parameter is refused with the parameters that bot's
parser accepts."""
import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
MEEPLE = ROOT / "build" / "bin" / "meeple"  # scripts/test.sh builds it before pytest runs


def section(path: pathlib.Path, heading: str) -> str:
    """The text under `heading` (a line such as "## Rules supported") up to the next heading of its level."""
    text = path.read_text()
    level = heading.split(" ")[0]
    start = text.index(heading + "\n") + len(heading) + 1
    end = re.search(rf"^{level} ", text[start:], re.MULTILINE)
    return text[start:start + end.start()] if end else text[start:]


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose header row starts with `header`."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[first + 2:]:  # past the header and the --- row
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def ticked(cell: str) -> list[str]:
    """The `code` items of a cell, in order."""
    return re.findall(r"`([^`]+)`", cell)


def differences(what: str, documented, actual, source: str) -> list[str]:
    """What to add to and remove from a documented list to make it the actual one, in words."""
    add, remove = sorted(set(actual) - set(documented)), sorted(set(documented) - set(actual))
    out = []
    if add:
        out.append(f"{what}: add rows for {', '.join(add)} (listed by {source})")
    if remove:
        out.append(f"{what}: remove rows for {', '.join(remove)} (not listed by {source})")
    return out


def refusal(spec: str) -> str:
    """meeple's message refusing a bot spec (it checks the specs before playing anything)."""
    run = subprocess.run([str(MEEPLE), "match", "--bots", spec, "random", "--games", "2"], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2, (spec, run.returncode, run.stdout, run.stderr)
    return run.stderr.strip()


def split_top_level(text: str) -> list[str]:
    """Comma-separated items, ignoring commas inside brackets."""
    items, depth, current = [], 0, ""
    for c in text:
        depth += (c == "[") - (c == "]")
        if c == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += c
    return items + [current.strip()] if current.strip() else items


def meeple_info() -> dict:
    return json.loads(subprocess.run([str(MEEPLE), "info", "--json"], capture_output=True, text=True, check=True,
                                     timeout=60).stdout)


def factory_bots() -> dict[str, list[str]]:
    """Each bot `meeple info --json` lists, with its parameters; each list is the one its parser gives when it
    refuses an unknown parameter."""
    bots = {b["name"]: [p["key"] for p in b["parameters"]] for b in meeple_info()["bots"]}
    for name, keys in bots.items():
        message = refusal(f"{name}:no_such_key")
        found = re.search(rf"unknown parameter 'no_such_key' of bot {name}; its parameters are (.*)$", message)
        assert found, message
        assert sorted([] if found.group(1) == "none" else found.group(1).split(", ")) == sorted(keys), (name, message)
    return bots


def documented_bots() -> dict[str, list[str]]:
    """ai/README.md's bot specs: each bullet `name[:key=...]` names a bot (and, inline, its parameters); the
    rows of a `| key | default | meaning |` table after a bullet are that bot's parameters."""
    bots, current = {}, None
    for line in section(ROOT / "ai" / "README.md", "## Bot specs").splitlines():
        bullet = re.match(r"- `([a-z_]+)(?:\[:([^\]]*)\])?`", line)
        if bullet:
            current = bullet.group(1)
            inline = bullet.group(2) or ""
            bots[current] = [] if inline.startswith("key=value") else [p.split("=")[0] for p in inline.split(",") if p]
        elif current and line.startswith("| `"):
            bots[current] += ticked(line.strip("|").split("|")[0])
    return bots


def test_the_table_of_options_is_what_meeple_info_lists():
    options = {o["name"]: o for o in meeple_info()["options"]}
    rows = {ticked(row[0])[0]: row for row in table_rows(section(ROOT / "docs" / "rules.md", "## 9. Options"),
                                                          "| option | values")}
    problems = differences("docs/rules.md's table of options", rows, options, "meeple info --json")
    for name in sorted(set(rows) & set(options)):
        values, option = ticked(rows[name][1].split("(")[0]), options[name]  # not the notes in brackets
        default = option["default"] if isinstance(option["default"], str) else option["default"][0]
        if values != option["values"]:
            problems.append(f"docs/rules.md's option {name}: values {values}, but meeple info lists {option['values']}")
        elif values[0] != default:
            problems.append(f"docs/rules.md's option {name}: lists {values[0]} first, but the default is {default}")
    assert not problems, "\n".join(problems)


def test_the_bot_specs_of_ai_readme_are_what_the_bot_factory_accepts():
    actual, documented = factory_bots(), documented_bots()
    assert {"random", "greedy", "heuristic", "mcts", "expectimax"} <= set(actual), actual  # the parse found them
    problems = differences("ai/README.md's bot specs", documented, actual, "meeple's list of bots")
    for name in sorted(set(actual) & set(documented)):
        problems += differences(f"ai/README.md's parameters of {name}", documented[name], actual[name],
                                f"the parser of bot {name}")
        repeated = sorted({k for k in documented[name] if documented[name].count(k) > 1})
        if repeated:
            problems.append(f"ai/README.md's parameters of {name}: {', '.join(repeated)} documented twice")
    assert not problems, "\n".join(problems)


def test_experiments_readme_lists_every_script():
    scripts = [p.name for p in (ROOT / "experiments").iterdir() if p.suffix in (".py", ".sh")]
    rows = [ticked(row[0])[0] for row in table_rows((ROOT / "experiments" / "README.md").read_text(), "| script |")]
    problems = differences("experiments/README.md's table of scripts", rows, scripts, "the files in experiments/")
    assert not problems, "\n".join(problems)


def test_both_command_lines_print_the_same_info_and_replays(tmp_path):
    import sys

    records = tmp_path / "games.jsonl"
    subprocess.run([str(MEEPLE), "selfplay", "--games", "3", "--bot", "greedy", "--out", str(records)], check=True,
                   capture_output=True, timeout=60)
    cpp = subprocess.run([str(MEEPLE), "replay", str(records)], capture_output=True, text=True, timeout=60)
    python = subprocess.run([sys.executable, "-m", "meeple", "replay", str(records)], capture_output=True, text=True,
                            timeout=60)
    assert cpp.returncode == python.returncode == 0 and cpp.stdout == python.stdout
    assert len(cpp.stdout.splitlines()) == 3 and "line 3: final scores " in cpp.stdout
    # A file of one record, on one line or written over several, is named without a line.
    one = tmp_path / "one.jsonl"
    one.write_text(records.read_text().splitlines()[0] + "\n")
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(json.loads(one.read_text()), indent=1))
    for path in (one, pretty):
        cpp = subprocess.run([str(MEEPLE), "replay", str(path)], capture_output=True, text=True, timeout=60)
        python = subprocess.run([sys.executable, "-m", "meeple", "replay", str(path)], capture_output=True, text=True,
                                timeout=60)
        assert cpp.stdout == python.stdout and cpp.stdout.startswith(f"{path}: final scores ")
    # An empty file and a deeply nested line are refused by both, with no traceback.
    empty, nested = tmp_path / "empty.jsonl", tmp_path / "nested.jsonl"
    empty.write_text("\n")
    nested.write_text("[" * 100000 + "\n")
    for path in (empty, nested):
        cpp = subprocess.run([str(MEEPLE), "replay", str(path)], capture_output=True, text=True, timeout=60)
        python = subprocess.run([sys.executable, "-m", "meeple", "replay", str(path)], capture_output=True, text=True,
                                timeout=60)
        assert cpp.returncode == python.returncode == 2 and "not valid JSON" in python.stderr, python.stderr
        assert "Traceback" not in python.stderr and cpp.stdout == python.stdout == ""

    for flags in (["--json"], []):
        cpp = subprocess.run([str(MEEPLE), "info", *flags], capture_output=True, text=True, check=True, timeout=60).stdout
        python = subprocess.run([sys.executable, "-m", "meeple", "info", *flags], capture_output=True, text=True,
                                check=True, timeout=60).stdout
        assert cpp == python
    info = meeple_info()
    assert info["features"][0] and info["score_categories"] == ["city", "road", "cloister", "field", "bonus"]
    assert {b["name"] for b in info["bots"]} == {"random", "greedy", "heuristic", "mcts", "expectimax"}
