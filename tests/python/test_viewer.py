"""The HTML viewer: one static page per record, opened in headless Chromium (Debian's chromium package,
installed by scripts/setup.sh) to check that it draws the board."""
import shutil
import subprocess
import sys

import matplotlib.image
import numpy as np

import meeple


def test_viewer_renders_the_board_in_headless_chromium(tmp_path):
    meeple.tournament(["greedy", "heuristic"], games=2, players=2, seed=6, out=str(tmp_path / "g.jsonl"), progress=False)
    page = tmp_path / "game.html"
    subprocess.run([sys.executable, "-m", "meeple", "view", str(tmp_path / "g.jsonl"), "--game", "1", "--out", str(page)],
                   check=True, capture_output=True)
    text = page.read_text()
    assert text.count("<svg") > 30 and 'id="slider"' in text
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "headless Chromium is needed: bash scripts/setup.sh installs Debian's chromium"
    shot = tmp_path / "shot.png"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=900,900",
                    f"--screenshot={shot}", page.as_uri()], check=True, capture_output=True, timeout=120)
    pixels = matplotlib.image.imread(shot)[:, :, :3]
    field = np.all(np.abs(pixels - np.array([0x8F, 0xC4, 0x5A]) / 255) < 0.03, axis=2)
    city = np.all(np.abs(pixels - np.array([0xC0, 0x87, 0x4F]) / 255) < 0.03, axis=2)
    assert field.mean() > 0.05, "no board drawn: too few field-green pixels"
    assert city.mean() > 0.005, "no cities drawn"
