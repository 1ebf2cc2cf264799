"""docs/rules.md against the sources: every rule id the code and tests cite has an entry (its table of options
is checked against `meeple info --json` in test_readme_tables.py).

Pure file reading: nothing is built or imported from meeple. tests/python/conftest.py imports meeple, so
without a build run this file alone: python3 -m pytest --noconftest tests/python/test_docs_rules.py

Rule ids are a family letter and a number from 1: B (base game), R (The River II), C (the Count), K (King &
Robber Baron), S (cult places), A (abbey), M (mayor), W (wagon), F (barn). Rule-shaped words are also used
for other things (board labels in scenario comments such as "pair A0", field names "F1", weight names "[W1,
b1, ...]", tile ids "RI2.III", SPRT hypotheses "H0"), so only the forms the sources use to cite a rule
count as citations:
  - a test name made of underscore-separated parts, one of them an id: TEST(Count, C3_A4_AbbeyRound...);
  - a comment that starts with ids: "// C6: ...", "// W1, W3, [AM fn 36]", "// ---- B1 Setup ----";
  - an id followed by a colon: "R3/R5: the tile continues ...", "W3: an abbey ..." (in a string);
  - an id that opens a parenthesized item: "(B3)", "(C3, C4)", "(C6; the market ..., C7)", "(C7: no farm)";
  - an id in a bracketed footnote reference: "[CKR fn 27, C7, C9]";
  - a range, anywhere: "A1-A4", "R3-R5" (the ids between count too).
"C3/C4" and "R3-R5" cite both ends. An id cited only in running prose ("S2 allows at most one") is not
seen; every id so far is also cited in one of the forms above.
"""
from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "rules.md"
SCANNED = ["core", "ai", "tests", "cli", "bindings"]
SOURCE_SUFFIXES = {".cpp", ".h", ".hpp", ".py", ".sh", ".md", ".js", ".html", ".in"}
SKIPPED = {Path(__file__).resolve()}  # this file names ids in its explanations

ID = r"[ABCFKMRSW][1-9][0-9]?"
# Not part of a longer word, a tile id (RI2.III) or a primed label (C3').
ID_ALONE = rf"(?<![\w.'-]){ID}(?![\w'])"
UNIT = rf"{ID_ALONE}(?:[-/]{ID}(?![\w']))?"  # an id, a range "R3-R5" or a pair "C3/C4"

TEST_NAME = re.compile(r"\bTEST(?:_P|_F)?\(\s*\w+\s*,\s*(\w+)")
COMMENT_HEAD = re.compile(rf"(?://+|#)\s*(?:-{{2,}}\s*)?((?:{UNIT})(?:\s*,\s*(?:{UNIT}))*)(?![\w'])")
BEFORE_COLON = re.compile(rf"({UNIT}):")
PAREN_GROUP = re.compile(r"\(([^()]*)\)")  # innermost
ITEM_HEAD = re.compile(rf"(?:^|[,;])\s*({UNIT})(?=$|[\s,;:])")
FOOTNOTE_GROUP = re.compile(r"\[([^\[\]]*\bfn\b[^\[\]]*)\]")
RANGE = re.compile(rf"{ID_ALONE}-{ID}(?![\w'])")
ANY_UNIT = re.compile(UNIT)


def expand(unit: str) -> list[str]:
    """The ids a citation unit names: "C6" -> [C6], "C3/C4" -> [C3, C4], "R3-R5" -> [R3, R4, R5]."""
    if "/" in unit:
        return unit.split("/")
    if "-" in unit:
        lo, hi = unit.split("-")
        if lo[0] == hi[0] and int(lo[1:]) < int(hi[1:]):
            return [f"{lo[0]}{n}" for n in range(int(lo[1:]), int(hi[1:]) + 1)]
        return [lo, hi]
    return [unit]


def cited_in_line(line: str) -> set[str]:
    """The rule ids a line of source cites, in the forms listed in the module's doc."""
    units: list[str] = []
    for m in TEST_NAME.finditer(line):
        units += [part for part in m.group(1).split("_") if re.fullmatch(ID, part)]
    for m in COMMENT_HEAD.finditer(line):
        units += ANY_UNIT.findall(m.group(1))
    units += BEFORE_COLON.findall(line)
    for m in PAREN_GROUP.finditer(line):
        units += ITEM_HEAD.findall(m.group(1))
    for m in FOOTNOTE_GROUP.finditer(line):
        units += ANY_UNIT.findall(m.group(1))
    units += RANGE.findall(line)
    return {rule for unit in units for rule in expand(unit)}


def source_files():
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file() or path.resolve() in SKIPPED:
                continue
            if "corpus" in path.parts or any(part.startswith("build") for part in path.relative_to(ROOT).parts):
                continue
            yield path


def citations() -> dict[str, list[str]]:
    """Each cited rule id with the places ("path:line") that cite it."""
    where = defaultdict(list)
    for path in source_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for rule in cited_in_line(line):
                where[rule].append(f"{path.relative_to(ROOT)}:{number}")
    return where


def documented_labels(text: str) -> list[str]:
    """Rule ids docs/rules.md labels: in bold (**C6**) or in a heading line."""
    labels = re.findall(rf"\*\*({ID})\*\*", text)
    for line in text.splitlines():
        if line.startswith("#"):
            labels += re.findall(ID_ALONE, line)
    return labels


def id_key(rule: str):
    return ("BRCKSAMWF".index(rule[0]), int(rule[1:]))


# The forms: what counts as a citation and what does not.


def test_citation_forms_are_read_and_labels_are_not():
    assert cited_in_line("TEST(Count, C3_A4_AbbeyRoundPlacementTriggersTheDeploy) {") == {"C3", "A4"}
    assert cited_in_line("TEST(AbbeyMayor, AM_W1_W3_fn36_WagonOnAbbeyMovesToItsSides) {") == {"W1", "W3"}
    assert cited_in_line("  if (x) {  // C6: a redeploy lap before the scoring") == {"C6"}
    assert cited_in_line("// ---- B12 Farms ------") == {"B12"}
    assert cited_in_line("// W1, W3, [AM fn 36], section 8: the wagon") == {"W1", "W3"}
    assert cited_in_line("  // R3/R5: the tile continues exactly one open river mouth") == {"R3", "R5"}
    assert cited_in_line('return "cell does not touch the board (B3)";') == {"B3"}
    assert cited_in_line("a matching feature completed this turn (C6; the market only at farm scorings, C7)") == {"C6", "C7"}
    assert cited_in_line("its edges must match (B3, R3-R5)") == {"B3", "R3", "R4", "R5"}
    assert cited_in_line("// Scenario tests for Abbey & Mayor, A1-A4 and M1 of the rules") == {"A1", "A2", "A3", "A4"}
    assert cited_in_line("// [CKR fn 27, C7, C9] A follower moved onto a farm") == {"C7", "C9"}
    # Labels and other rule-shaped words.
    assert cited_in_line("//   y=-2   ... B2 A2 B1 A1 B0 A0        pair k: A_k = BA.LR rot 90") == set()
    assert cited_in_line("  play(sc, \"BA.RFr\", 1, 0, 0, \"SL\");   // 2 s1 farmer on F1") == set()
    assert cited_in_line("//   y=0   RFr          start        RFr(farmer s1 on its south field F1)") == set()
    assert cited_in_line("//  -1    C1    C3    C3'   C5    C5'") == set()
    assert cited_in_line('"""Parameters [W1, b1, W2, b2, ...] of a network with these layer sizes."""') == set()
    assert cited_in_line("tile RI2.III    IIFI fork : river W N E") == set()
    assert cited_in_line('assert "H1 accepted" in out') == set()
    assert cited_in_line('if (at == "I1" || at == "I2") {') == set()


def test_every_cited_rule_id_has_an_entry_in_docs_rules_md():
    where = citations()
    assert where, "no rule id found in the sources: the citation forms have changed; update this test"
    labels = set(documented_labels(RULES_MD.read_text(encoding="utf-8")))
    missing = sorted(set(where) - labels, key=id_key)
    assert not missing, (
        "rule ids cited in the sources without an entry (a heading or a bold **ID** label) in docs/rules.md:\n"
        + "\n".join(f"  {rule}: cited at {', '.join(where[rule][:5])}{' ...' if len(where[rule]) > 5 else ''}"
                    for rule in missing))


def test_each_rule_id_is_labelled_once():
    labels = re.findall(rf"\*\*({ID})\*\*", RULES_MD.read_text(encoding="utf-8"))
    twice = sorted({rule for rule in labels if labels.count(rule) > 1}, key=id_key)
    assert not twice, f"rule ids labelled more than once in docs/rules.md (a reader looks for one entry): {twice}"
