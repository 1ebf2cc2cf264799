"""The experiment scripts run end to end on small inputs and reach the right verdicts."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(script, *args):
    return subprocess.run([sys.executable, str(ROOT / "experiments" / script), *args], capture_output=True, text=True,
                          check=True).stdout


def test_ladder_ranks_the_bots_and_writes_its_files(tmp_path):
    out = run("ladder.py", "--bots", "greedy", "random", "heuristic", "--games-per-pair", "4", "--out", str(tmp_path))
    assert "head to head" in out
    assert out.index("random ") > out.index("greedy ")  # random rated last
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 12
    assert (tmp_path / "ratings.png").exists() and (tmp_path / "results.csv").exists()


def test_sprt_accepts_the_stronger_bot_and_rejects_an_equal_one(tmp_path):
    out = run("sprt.py", "--new", "greedy", "--old", "random", "--elo1", "100", "--batch-pairs", "5", "--out", str(tmp_path / "a"))
    assert "H1 accepted" in out
    out = run("sprt.py", "--new", "random", "--old", "greedy", "--elo1", "50", "--batch-pairs", "5", "--out", str(tmp_path / "b"))
    assert "H0 accepted" in out


def test_strength_curves_play_resume_and_plot(tmp_path):
    meeple = ROOT / "build" / "bin" / "meeple"  # scripts/test.sh builds it before pytest runs
    args = ["--meeple", str(meeple), "--games", "2", "--seed", "3", "--only", "expectimax:depth=1", "--out", str(tmp_path)]
    out = run("strength_curves.py", *args)
    assert "| expectimax (Star2) | `expectimax:depth=1` | 40 | 2 |" in out
    table = (tmp_path / "curves.csv").read_text()
    assert len(table.splitlines()) == 2 and (tmp_path / "curves.png").stat().st_size > 1000
    # A rerun finds the row done and plays nothing: the table is unchanged.
    assert run("strength_curves.py", *args) == out and (tmp_path / "curves.csv").read_text() == table
