import re
import signal

import pytest

import meeple


def interruptible():
    """preexec_fn for a child that the test interrupts with SIGINT: a shell starting the test run in the
    background (without job control) leaves SIGINT ignored, and Python then installs no Ctrl-C handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def ray_cluster():
    """A local Ray of two CPUs, shared by the tests of the Ray backends (started once: it takes seconds)."""
    import ray  # an optional dependency of the package (meeple[ray]); the test extra includes it

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def browser():
    """Headless Chromium (Debian's chromium and chromium-driver, which scripts/setup.sh installs) in a window of
    1280 by 900, as a person might have."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "bash scripts/setup.sh installs Debian's chromium and chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900"]:
        options.add_argument(flag)
    page = webdriver.Chrome(service=Service(driver), options=options)
    yield page
    page.quit()


TILE_CODE = re.compile(r"\b(?:" + "|".join(sorted({t.split(".")[0] for t in meeple.tile_ids()})) + r")\.\S")
PLACE_CODE = re.compile(r"\b(?:NL|NR|EL|ER|SL|SR|WL|WR|NE|SE|SW|NW|I1|I2)\b|\((?:field|city|road|cloister)\)")


def raw_codes(text: str) -> list[str]:
    """Tile ids and record location codes in a text meant for a person."""
    return TILE_CODE.findall(text) + PLACE_CODE.findall(text)


def check_account_data(account, before_last, final):
    """The account of the end a page is given (meeple.render.final_account) adds up: per seat the score before final
    scoring and what each feature paid make the game's final score; no category gained more than it did with the
    last action; each line in words, naming seats that play and tiles that lie on the board."""
    seats, features = account["seats"], account["features"]
    assert [a["final"] for a in seats] == final.scores
    board = {(x, y) for _, x, y, _ in final.tiles()}
    for p, (a, last, end) in enumerate(zip(seats, before_last.score_breakdown(), final.score_breakdown())):
        assert a["before"] + sum(f["points"][p] for f in features) == a["final"], (p, a, features)
        assert a["before"] >= sum(last.values())
        for c in meeple.SCORE_CATEGORIES:
            assert a[c] == sum(f["points"][p] for f in features if f["category"] == c)
            assert 0 <= a[c] <= end[c] - last[c], (p, c, a, last, end)
    for f in features:
        assert f["paid"] and set(f["paid"]) <= set(range(final.num_players)), f
        assert all(v == 0 for p, v in enumerate(f["points"]) if p not in f["paid"]), f
        assert {tuple(c) for c in f["cells"]} <= board and not raw_codes(f["text"]), f


class BoardPage:
    """What a person sees of a page with a board (python -m meeple play, meeple view), asked of the browser."""

    def __init__(self, page):
        self.page = page

    def tiles(self) -> list[dict]:
        """Each drawn tile: its id, cell, and box on the screen."""
        return self.page.execute_script("""return [...document.querySelectorAll('#board .tile')].map((t) => {
            const r = t.getBoundingClientRect();
            return {id: t.dataset.tile, x: +t.dataset.x, y: +t.dataset.y, box: [r.left, r.top, r.right, r.bottom]}; });""")

    def outside(self) -> list[dict]:
        """The tiles not wholly inside both the window and the board's box."""
        window, frame = self.page.execute_script("""const r = document.querySelector('#board svg').getBoundingClientRect();
            return [[0, 0, innerWidth, innerHeight], [r.left, r.top, r.right, r.bottom]];""")
        inside = lambda b, a: a[0] - 0.5 <= b[0] and a[1] - 0.5 <= b[1] and b[2] <= a[2] + 0.5 and b[3] <= a[3] + 0.5
        return [t for t in self.tiles() if not (inside(t["box"], window) and inside(t["box"], frame))]

    def last_marked(self) -> dict | None:
        """The tile the last-tile outline surrounds (its centre on the tile's), or None."""
        return self.page.execute_script("""const m = document.querySelector('#board .last-tile');
            if (!m) return null;
            const r = m.getBoundingClientRect(), cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
            for (const t of document.querySelectorAll('#board .tile')) {
              const b = t.getBoundingClientRect();
              if (Math.abs((b.left + b.right) / 2 - cx) < 1 && Math.abs((b.top + b.bottom) / 2 - cy) < 1 &&
                  t.dataset.tile === m.dataset.tile) return {id: t.dataset.tile, x: +t.dataset.x, y: +t.dataset.y};
            }
            return {id: 'nowhere'};""")

    def account(self) -> dict:
        """The account of the end as shown: "seats", per seat the score before final scoring, the gains by category
        and the final score; "features", per line what paid (in words), its category, cells and points per seat."""
        account = self.page.execute_script("""return {
            seats: [...document.querySelectorAll('#account .account-row')].map((r) => ({
              before: +r.dataset.before, final: +r.dataset.final, shown: +r.querySelector('.final').textContent,
              gains: Object.fromEntries([...r.querySelectorAll('.gain')].map((g) => [g.dataset.category, +g.dataset.points]))})),
            features: [...document.querySelectorAll('#account .feature-row')].map((r) => ({
              text: r.textContent, what: r.dataset.what, category: r.dataset.category, cells: JSON.parse(r.dataset.cells),
              points: Object.fromEntries([...r.querySelectorAll('.paid')].map((p) => [+p.dataset.seat, +p.dataset.points]))}))};""")
        for f in account["features"]:  # JSON object keys are strings
            f["points"] = {int(seat): points for seat, points in f["points"].items()}
        return account

    def highlighted(self) -> list[dict]:
        """The cells outlined on the board for a line of the account: each with the tile drawn under its centre."""
        return self.page.execute_script("""return [...document.querySelectorAll('#board .feature-cell')].map((c) => {
            const r = c.getBoundingClientRect(), cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
            const under = [...document.querySelectorAll('#board .tile')].find((t) => {
              const b = t.getBoundingClientRect();
              return Math.abs((b.left + b.right) / 2 - cx) < 1 && Math.abs((b.top + b.bottom) / 2 - cy) < 1; });
            return {x: +c.dataset.x, y: +c.dataset.y, tile: under ? [+under.dataset.x, +under.dataset.y] : null}; });""")

    def check_account(self, scores):
        """The account of the end adds up: per seat, the score before final scoring and the gains by category make
        the final score shown, which is the game's; the lines feature by feature make those gains; pointing at a
        line outlines its feature's tiles on the board, and only while the pointer is there."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        account = self.account()
        seats, features = account["seats"], account["features"]
        assert [a["final"] for a in seats] == [a["shown"] for a in seats] == list(scores)
        assert all(a["before"] + sum(a["gains"].values()) == a["final"] for a in seats), seats
        assert features, "no feature paid anything at the end"
        for p, a in enumerate(seats):
            for category in meeple.SCORE_CATEGORIES:
                paid = sum(f["points"].get(p, 0) for f in features if f["category"] == category)
                assert paid == a["gains"].get(category, 0), (p, category, features)
        for f in features:
            assert f["points"] and f["text"][0].isupper() and f["text"].count("+") == len(f["points"]), f
            assert bool(f["cells"]) == (f["what"] not in ("king", "robber")), f
        rows = self.page.find_elements(By.CSS_SELECTOR, "#account .feature-row")
        for row, f in list(zip(rows, features))[:6]:
            if not f["cells"]:
                continue
            self.page.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
            ActionChains(self.page).move_to_element(row).perform()
            shown = self.highlighted()
            assert sorted([c["x"], c["y"]] for c in shown) == sorted(f["cells"]), (f, shown)
            assert all(c["tile"] == [c["x"], c["y"]] for c in shown), shown  # each outline on its tile
            ActionChains(self.page).move_to_element(self.page.find_element(By.ID, "status")).perform()
            assert self.highlighted() == []
        return account

    def codes(self) -> list[str]:
        """Tile ids and location codes in the visible text, where a person wants words."""
        return raw_codes(self.page.execute_script("return document.body.innerText"))

    def names(self) -> list[dict]:
        """The seat names shown: full name (tooltip), text, whether cut by an ellipsis."""
        return self.page.execute_script("""return [...document.querySelectorAll('.name')].map((n) => {
            const t = n.querySelector('.name-text');
            return {title: n.title, text: t.textContent, cut: t.scrollWidth > t.clientWidth}; });""")

    def side_fits(self) -> bool:
        return self.page.execute_script("const s = document.getElementById('side'); return s.scrollWidth <= s.clientWidth")

    def check_final_position(self, scores, names):
        """The end of a game as a person should see it: the whole board, the last tile marked, the account adding
        up to the final scores (check_account), words instead of codes, every name whole in its tooltip, nothing cut off."""
        tiles = self.tiles()
        assert tiles and not self.outside(), self.outside()
        assert self.last_marked() is not None and self.last_marked()["id"] != "nowhere"
        self.check_account(scores)
        assert self.codes() == []
        shown = self.names()
        assert [n["title"] for n in shown[:len(names)]] == list(names)
        for n in shown:  # whole in the tooltip; a long name cut with an ellipsis, a short one not
            assert n["title"] == n["text"] and n["cut"] == (len(n["text"]) > 20) or 8 < len(n["text"]) <= 20, n
        assert self.side_fits()
        return tiles

    def check_zoom_and_pan(self):
        """Each way of zooming and panning changes the view as it should, and Fit brings the whole board back."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
        from selenium.webdriver.common.by import By

        def box():  # the board's drawn extent
            boxes = [t["box"] for t in self.tiles()]
            return [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]

        width = lambda b: b[2] - b[0]
        fitted = box()
        svg = self.page.find_element(By.CSS_SELECTOR, "#board svg")
        self.page.find_element(By.CSS_SELECTOR, "#board .zoom-in").click()
        assert width(box()) > 1.2 * width(fitted)
        self.page.find_element(By.CSS_SELECTOR, "#board .zoom-out").click()
        self.page.find_element(By.CSS_SELECTOR, "#board .zoom-out").click()
        assert width(box()) < 0.9 * width(fitted)
        self.page.find_element(By.CSS_SELECTOR, "#board .fit").click()
        assert box() == pytest.approx(fitted, abs=1)
        ActionChains(self.page).scroll_from_origin(ScrollOrigin.from_element(svg), 0, -300).perform()  # wheel up: in
        zoomed = box()
        assert width(zoomed) > 1.3 * width(fitted) and self.outside()
        ActionChains(self.page).move_to_element(svg).click_and_hold().move_by_offset(120, -70).release().perform()
        moved = box()
        assert moved == pytest.approx([zoomed[0] + 120, zoomed[1] - 70, zoomed[2] + 120, zoomed[3] - 70], abs=2)
        self.page.find_element(By.CSS_SELECTOR, "#board .fit").click()
        assert box() == pytest.approx(fitted, abs=1) and not self.outside()


@pytest.fixture
def board_page(browser):
    return BoardPage(browser)
