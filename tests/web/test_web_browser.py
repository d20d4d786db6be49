"""The web game in a real browser: Chromium driven by Selenium against a server started here on a
free port.  A whole race played by typing and clicking, the sheet marked by click and by keyboard
alone, a reload in the middle, the review, play again, a phone's width, and no request to another
origin.  One server and one browser for the module (they take seconds to start); 3-letter words
at the easy level, since the page is tested here, not the computer.

They skip, naming what is missing, only where no browser can be installed (Debian: ``apt-get
install chromium chromium-driver``); CI installs them (``.ci/run``).  ``JOTTO_SCREENSHOT=1``
also writes the finished game's screenshot to ``docs/_static/web-game.png`` for the manual.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")

from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from jotto.game.words import load_words  # noqa: E402
from jotto.web.server import bind, make_server, url_of  # noqa: E402

DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "_static" / "web-game.png"
WAIT = 30  # seconds for one server round trip on a loaded machine


def _find(*names: str) -> str | None:
    return next((p for p in (shutil.which(n) for n in names) if p), None)


@pytest.fixture(scope="module")
def server():
    sock = bind("127.0.0.1", 0)
    srv = make_server(sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(400):
        if srv.started:
            break
        time.sleep(0.025)
    assert srv.started, "the server did not start"
    yield url_of(sock)
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    chromium = _find("chromium", "chromium-browser", "google-chrome")
    driver_path = _find("chromedriver")
    if chromium is None or driver_path is None:
        pytest.skip(
            "no browser to test the page in: "
            f"{'chromium' if chromium is None else 'chromedriver'} is not installed "
            f"(Debian: apt-get install chromium chromium-driver)"
        )
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1000,1400",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
    except WebDriverException as exc:
        pytest.skip(f"chromium could not be started: {exc.msg}")
    yield driver
    driver.quit()


class Page:
    """The game's page in the browser, and a person playing it: they hide ``hidden`` and guess
    words that fit the replies shown."""

    def __init__(self, driver, url: str):
        self.d = driver
        self.url = url
        self.words = load_words("enable", length=3)
        self.hidden = self.words[len(self.words) // 3]

    def by(self, css: str):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def shown(self, css: str) -> bool:
        """Whether the first element ``css`` selects is displayed (read at once)."""
        return self.d.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return !!e && !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)",
            css,
        )

    def wait(self, what, message: str):
        return WebDriverWait(self.d, WAIT).until(lambda d: what(), message)

    def question(self) -> str:
        return self.by("#question").text

    def rows(self, sheet: str) -> list[tuple[str, str]]:
        """A sheet's (guess, reply) rows as shown, read at once (the page redraws them)."""
        return [
            tuple(r)
            for r in self.d.execute_script(
                "return Array.from(document.querySelectorAll(arguments[0])).map("
                "tr => Array.from(tr.cells).slice(1, 3).map(td => td.textContent))",
                f"#{sheet} tbody tr",
            )
        ]

    def new_game(self) -> None:
        self.d.get(self.url)
        self.d.execute_script("localStorage.clear()")
        self.d.get(self.url)
        self.wait(lambda: self.shown("#setup"), "the setup form")
        for field, value in (("#length", "3"), ("#level", "easy"), ("#mode", "race")):
            self.by(
                f"{field} option[value='{value}']"
                if field != "#length"
                else f"{field} option:nth-child(1)"
            ).click()
        self.by("#start").click()
        self.wait(lambda: self.shown("#guess-form"), "the first guess asked")

    def guess(self) -> None:
        rules = self.words.rules
        rows = self.rows("your-sheet")
        fits = [
            w
            for w in self.words
            if all(rules.reply(g, w) == int(r) for g, r in rows) and w not in {g for g, _ in rows}
        ]
        before = len(rows)
        box = self.by("#guess-word")
        box.clear()
        box.send_keys(fits[0] + Keys.ENTER)  # typed, and sent by the Enter key
        self.wait(
            lambda: len(self.rows("your-sheet")) > before or self.shown("#end"),
            "my reply to the guess",
        )

    def answer(self) -> None:
        mine = self.by("#my-guess").text.lower()
        before = len(self.rows("my-sheet"))
        if mine == self.hidden:
            self.by("#yes-button").click()
        else:
            n = self.words.rules.reply(mine, self.hidden)
            self.by(f"#answer-buttons button[data-reply='{n}']").click()
        self.wait(
            lambda: (
                len(self.rows("my-sheet")) > before
                or self.shown("#end")
                or self.shown("#word-form")
            ),
            "the answer taken",
        )

    def play_round(self) -> None:
        if self.shown("#guess-form"):
            self.guess()
        if self.shown("#answer-panel"):
            self.answer()

    def finish(self) -> None:
        for _ in range(40):
            if self.shown("#end") and not self.shown("#word-form"):
                return
            if self.shown("#word-form"):
                self.by("#word-text").send_keys(self.hidden + Keys.ENTER)
                self.wait(lambda: not self.shown("#word-form"), "your word checked")
                continue
            self.play_round()
        raise AssertionError("the race did not end")

    def no_horizontal_scroll(self) -> bool:
        return self.d.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
        )

    def mark(self, letter: str) -> str:
        return self.by(f"#alphabet [data-letter='{letter}']").get_attribute("data-mark")


@pytest.fixture(scope="module")
def page(browser, server):
    return Page(browser, server)


def test_a_whole_race_with_reload_review_and_play_again(page, tmp_path):
    page.new_game()
    assert "guess my 3-letter word" in page.question()
    page.play_round()
    rows = page.rows("your-sheet")
    # a reload in the middle keeps the game
    page.d.refresh()
    page.wait(lambda: page.shown("#game"), "the game after the reload")
    assert page.rows("your-sheet") == rows
    page.finish()
    outcome = page.by("#outcome").text
    assert "My word was" in outcome and any(w in outcome for w in ("win", "draw"))
    page.wait(lambda: page.shown("#review table"), "the review")
    assert page.shown("#review svg.chart")
    assert "skill" in page.by("#review").text.lower()
    page.wait(lambda: page.shown("#stats table"), "your record")
    assert "race" in page.by("#stats").text
    shot = tmp_path / "web-game.png"
    page.d.set_window_size(1000, 2300)  # the whole finished game, review and chart included
    page.d.execute_script("window.scrollTo(0, 0)")
    page.d.save_screenshot(str(shot))
    page.d.set_window_size(1000, 1400)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    if os.environ.get("JOTTO_SCREENSHOT") == "1":
        DOCS_SHOT.parent.mkdir(exist_ok=True)
        tmp = DOCS_SHOT.with_suffix(".tmp")
        tmp.write_bytes(shot.read_bytes())
        tmp.replace(DOCS_SHOT)
    # play again: a fresh race with the same settings
    page.by("#again").click()
    page.wait(lambda: page.shown("#guess-form") and not page.rows("your-sheet"), "a new game")
    assert not page.shown("#end")


def test_the_sheet_marked_by_click_and_by_keyboard_kept_on_reload(page):
    page.new_game()
    page.by("#alphabet [data-letter='q']").click()
    page.wait(lambda: page.mark("q") == "in", "q marked in")
    page.by("#alphabet [data-letter='q']").click()
    page.wait(lambda: page.mark("q") == "out", "q marked out")
    # by keyboard alone: Tab to the alphabet, a letter's key jumps to it, Enter/Space mark it
    body = page.by("body")
    body.click()
    actions = webdriver.ActionChains(page.d)
    for _ in range(60):
        if page.d.execute_script(
            "return !!document.activeElement.closest && "
            "!!document.activeElement.closest('#alphabet')"
        ):
            break
        actions.send_keys(Keys.TAB).perform()
    else:
        raise AssertionError("Tab never reached the sheet's letters")
    actions.send_keys("z").perform()
    actions.send_keys(Keys.ENTER).perform()
    page.wait(lambda: page.mark("z") == "in", "z marked in by Enter")
    actions.send_keys(Keys.ARROW_LEFT).perform()
    actions.send_keys(Keys.SPACE).perform()
    page.wait(lambda: page.mark("y") == "in", "y marked in by Space")
    page.d.refresh()
    page.wait(lambda: page.shown("#alphabet button"), "the sheet after the reload")
    assert (page.mark("q"), page.mark("z"), page.mark("y"), page.mark("a")) == (
        "out",
        "in",
        "in",
        "none",
    )


def test_a_phone_wide_page_needs_no_horizontal_scrolling(page):
    page.d.set_window_size(390, 844)
    try:
        inner = page.d.execute_script("return window.innerWidth")
        assert inner <= 390
        page.new_game()
        assert page.no_horizontal_scroll()
        page.play_round()
        assert page.no_horizontal_scroll()
        page.finish()
        page.wait(lambda: page.shown("#review table"), "the review")
        assert page.no_horizontal_scroll()
    finally:
        page.d.set_window_size(1000, 1400)


def test_no_request_leaves_the_origin(page, server):
    page.new_game()
    page.play_round()
    requests = []
    for entry in page.d.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            requests.append(message["params"]["request"]["url"])
    assert any(u.startswith(server + "api/games") for u in requests)
    strangers = [u for u in requests if not (u.startswith(server) or u.startswith("data:"))]
    assert strangers == []
