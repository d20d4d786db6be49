"""The web game's JSON API (jotto.web.app) through Starlette's test client: every mode, level and
rule set played to the end, every bad input answered with a 4xx JSON error of one sentence, and
the computer's word in no response before its game is over."""

from __future__ import annotations

import itertools
import json
import re

import pytest

starlette = pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

from starlette.testclient import TestClient  # noqa: E402

from jotto.game.words import load_words  # noqa: E402
from jotto.play.history import Stats  # noqa: E402
from jotto.web.app import MAX_BODY, RULE_SETS, create_app  # noqa: E402
from jotto.web.games import Game, Games  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(["testserver"], seed=41)) as c:
        yield c


class Player:
    """A person at the page, played by the test: hides ``hidden`` (a word of the list), guesses
    only words that fit the replies so far (worked out here from the rules, not asked of the
    server), answers the computer's guesses truly.  Every response is kept, to look for the
    computer's word in it afterwards."""

    def __init__(self, client: TestClient, options: dict):
        self.client = client
        self.options = options
        self.words = load_words(
            options.get("words", "enable"), length=options["length"], rules=options["rules"]
        )
        self.rules = self.words.rules
        self.hidden = self.words[len(self.words) // 3]
        self.candidates = list(self.words)
        self.responses: list[dict] = []
        self.typed: set[str] = set()

    def post(self, path: str, body: dict) -> dict:
        r = self.client.post(path, json=body)
        assert r.status_code in (200, 201), (body, r.text)
        data = r.json()
        self.responses.append(data)
        return data

    def move(self, **body) -> dict:
        return self.post(f"/api/games/{self.id}/moves", body)

    def start(self) -> dict:
        data = self.post("/api/games", self.options)
        self.id = data["id"]
        return data

    def play(self, limit: int = 60) -> dict:
        data = self.start()
        for _ in range(limit):
            state = data["state"]
            if state["over"] and state["asks"] == "none":
                return data
            asks = state["asks"]
            if asks == "guess":
                rows = state["yours"]["rows"]
                for row in rows:  # what my replies leave
                    self.candidates = [
                        w
                        for w in self.candidates
                        if self.rules.reply(row["guess"], w) == row["reply"] or row["guess"] == w
                    ]
                guessed = {row["guess"] for row in rows}
                word = next(w for w in self.candidates if w not in guessed)
                self.typed.add(word)
                data = self.move(move="guess", word=word)
            elif asks == "answer":
                g = state["my_guess"]
                reply = (
                    "yes"
                    if g == self.hidden
                    else self.rules.format_reply(
                        self.rules.reply(g, self.hidden), self.words.length
                    )
                )
                data = self.move(move="answer", reply=reply)
            elif asks == "word":
                data = self.move(move="word", word=self.hidden)
            else:
                raise AssertionError(f"unexpected question {asks}")
        raise AssertionError("the game did not end")

    def check_secret_kept(self, final: dict) -> str:
        """No response before the end carries the computer's word, except as a guess one of the
        two sides made (yours: typed here; mine: on my sheet or asked)."""
        secret = final["state"]["my_word"]
        assert secret and secret in self.words
        for data in self.responses:
            state = data["state"]
            if state["over"]:
                break
            assert state["my_word"] is None
            guesses = set(self.typed)
            for side in ("yours", "mine"):
                if state[side]:
                    guesses.update(row["guess"] for row in state[side]["rows"])
            if state["my_guess"]:
                guesses.add(state["my_guess"])
            text = json.dumps(data)
            if secret in re.findall(r"[a-z]+", text):
                assert secret in guesses, (secret, text)
        return secret


COMBOS = [
    dict(mode=m, level=lv, rules=r, length=3, hints=h)
    for (m, lv, r), h in zip(
        itertools.product(("race", "guess", "hide"), ("easy", "medium", "hard"), RULE_SETS),
        itertools.cycle((False, True)),
    )
]


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: f"{o['mode']}-{o['level']}-{o['rules']}")
def test_every_mode_level_and_rule_set_plays_to_the_end_keeping_the_secret(client, options):
    p = Player(client, options)
    final = p.play()
    state = final["state"]
    assert state["mode"] == options["mode"] and state["over"]
    expected = {"race": {"won", "lost", "draw"}, "guess": {"won"}, "hide": {"found"}}
    assert state["outcome"] in expected[options["mode"]]
    if options["mode"] != "hide":
        secret = p.check_secret_kept(final)
        assert state["yours"]["rows"][-1]["guess"] == secret or options["mode"] == "race"
    if options["mode"] in ("race", "hide"):
        # my guesses were answered truly: none of my sheet's replies contradicts your word
        for row in state["mine"]["rows"]:
            if row["guess"] != p.hidden:
                assert row["reply"] == p.rules.reply(row["guess"], p.hidden)
    # the finished game is in the record, as jotto stats reads it
    games = Stats().games()
    assert games[-1]["mode"] == options["mode"] and games[-1]["level"] == options["level"]
    # and it can be reviewed
    r = client.get(f"/api/games/{p.id}/review")
    assert r.status_code == 200, r.text
    review = r.json()["review"]
    assert [s["who"] for s in review["sides"]] == {
        "race": ["you", "me"],
        "guess": ["you"],
        "hide": ["me"],
    }[options["mode"]]


@pytest.mark.parametrize("words,length", [("enable", 5), ("sgb", 5), ("enable", 7)])
def test_the_hard_race_at_more_letters_and_the_sgb_list(client, words, length):
    p = Player(client, dict(mode="race", level="hard", rules="paper", length=length, words=words))
    final = p.play()
    assert final["state"]["over"] and final["state"]["words"]["source"] == words
    p.check_secret_kept(final)


def test_a_reload_gets_the_whole_game_back(client):
    p = Player(client, dict(mode="race", level="easy", rules="paper", length=4))
    p.start()
    word = p.candidates[0]
    after = p.move(move="guess", word=word)
    p.move(move="mark", letters="q", mark="out")
    again = client.get(f"/api/games/{p.id}").json()
    assert again["state"]["yours"]["rows"] == after["state"]["yours"]["rows"]
    assert again["state"]["yours"]["marks"] == {"q": "out"}
    assert again["state"]["asks"] == "answer"
    assert again["lines"][-len(after["lines"]) :] == after["lines"] or set(after["lines"]) <= set(
        again["lines"]
    )


def test_undo_and_fix_after_a_contradiction(client):
    p = Player(client, dict(mode="hide", level="medium", rules="paper", length=3))
    data = p.start()
    # answer 0 until an answer to my guess exists that no word fits with the ones before
    # (worked out here), and give it
    answers: list[tuple[str, int]] = []
    for _ in range(10):
        g = data["state"]["my_guess"]
        fit = [w for w in p.words if all(p.rules.reply(x, w) == r for x, r in answers)]
        r2 = next((r for r in range(3) if not any(p.rules.reply(g, w) == r for w in fit)), None)
        if r2 is not None:
            break
        answers.append((g, 0))
        data = p.move(move="answer", reply="0")
    else:
        raise AssertionError("no contradicting answer came up")
    g2 = g
    data = p.move(move="answer", reply=str(r2))
    assert data["state"]["my_candidates"] == 0
    assert any("undo" in line for line in data["lines"])
    r = client.post(f"/api/games/{p.id}/moves", json={"move": "answer", "reply": "1"})
    assert "undo" in _error(r, 422)
    undone = p.move(move="undo")
    assert [row["guess"] for row in undone["state"]["mine"]["rows"]] == [g for g, _ in answers]
    assert undone["state"]["my_candidates"] == len(fit) > 0
    p.move(move="answer", reply=str(r2))
    n = len(answers) + 1
    fixed = p.move(move="fix", n=n, reply="1")
    assert [row["reply"] for row in fixed["state"]["mine"]["rows"]][-1] == 1
    fits = [w for w in fit if p.rules.reply(g2, w) == 1]
    assert fixed["state"]["my_candidates"] == len(fits)


def test_give_up_then_your_word_is_checked(client):
    p = Player(client, dict(mode="race", level="easy", rules="paper", length=3))
    p.start()
    p.move(move="guess", word=p.candidates[0])
    mine = p.responses[-1]["state"]["my_guess"]
    wrong = str((p.rules.reply(mine, p.hidden) + 1) % 4)
    p.move(move="answer", reply=wrong)
    over = p.move(move="give_up")
    assert over["state"]["outcome"] == "gave up" and over["state"]["my_word"]
    assert over["state"]["asks"] == "word"
    checked = p.move(move="word", word=p.hidden)
    assert any(f"Your answer to {mine} was {wrong}" in line for line in checked["lines"])


def test_assist_suggests_and_takes_back(client):
    p = Player(client, dict(mode="assist", level="hard", rules="paper", length=3))
    data = p.start()
    assert data["state"]["asks"] == "entry" and data["state"]["my_guess"]
    g = data["state"]["my_guess"]
    data = p.move(move="enter", word=g, reply=str(p.rules.reply(g, p.hidden)))
    assert data["state"]["yours"]["rows"][0]["guess"] == g
    assert p.hidden in [
        w for w in p.words if p.rules.reply(g, w) == data["state"]["yours"]["rows"][0]["reply"]
    ]
    data = p.move(move="undo")
    assert data["state"]["yours"]["rows"] == []
    data = p.move(move="new")
    assert data["state"]["yours"]["rows"] == []


def _game(client, **options) -> str:
    r = client.post("/api/games", json={"mode": "race", "level": "easy", "length": 3, **options})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _error(r, status: int) -> str:
    assert r.status_code == status, r.text
    message = r.json()["error"]
    assert isinstance(message, str) and message.endswith(".") and "\n" not in message
    assert "Traceback" not in message
    return message


def test_bad_new_games(client):
    for body, fragment in [
        ({"length": 8}, "3, 4, 5, 6, 7 letters"),
        ({"words": "sgb", "length": 4}, "5 letters"),
        ({"length": "5"}, "not '5'"),
        ({"length": True}, "not True"),
        ({"mode": "chess"}, "'mode' must be one of"),
        ({"level": "god"}, "'level'"),
        ({"rules": "perl"}, "'rules'"),
        ({"words": "/etc/passwd"}, "'words'"),
        ({"hints": "yes"}, "'hints'"),
        ({"mode": ["race"]}, "must be text"),
    ]:
        assert fragment in _error(client.post("/api/games", json=body), 400)


def test_bad_moves(client):
    gid = _game(client)
    url = f"/api/games/{gid}/moves"
    for body, status, fragment in [
        ({"move": "guess", "word": "abcd"}, 422, ""),  # wrong length
        ({"move": "guess", "word": "qzx"}, 422, ""),  # not a word
        ({"move": "guess", "word": "x" * 65}, 400, "at most"),
        ({"move": "guess"}, 400, "missing"),
        ({"move": "guess", "word": 7}, 400, "must be text"),
        ({"move": "answer", "reply": "2"}, 409, "your guess"),  # not my turn to be answered
        ({"move": "fly"}, 400, "not a move"),
        ({"move": "enter", "word": "cat", "reply": "1"}, 400, "not a move of a race"),
        ({"move": "mark", "letters": "1", "mark": "in"}, 422, "letters a to z"),
        ({"move": "mark", "letters": "a", "mark": "maybe"}, 422, "in, out or clear"),
    ]:
        assert fragment in _error(client.post(url, json=body), status), body
    words = load_words("enable", length=3)
    word = words[0]
    assert client.post(url, json={"move": "guess", "word": word}).status_code == 200
    for body, status in [
        ({"move": "answer", "reply": "4"}, 422),  # out of range
        ({"move": "answer", "reply": "-1"}, 422),
        ({"move": "answer", "reply": "2/1"}, 422),  # not positional
        ({"move": "guess", "word": word}, 409),  # not your turn
        ({"move": "fix", "n": 5, "reply": "1"}, 422),
        ({"move": "fix", "n": "1", "reply": "1"}, 400),
    ]:
        _error(client.post(url, json=body), status)


def test_an_answered_guess_cannot_be_guessed_again(client):
    gid = _game(client, level="easy")
    url = f"/api/games/{gid}/moves"
    words = load_words("enable", length=3)
    assert client.post(url, json={"move": "guess", "word": words[0]}).status_code == 200
    mine = client.get(f"/api/games/{gid}").json()["state"]["my_guess"]
    client.post(url, json={"move": "answer", "reply": "0" if mine != words[1] else "yes"})
    if client.get(f"/api/games/{gid}").json()["state"]["asks"] == "guess":
        assert "already guessed" in _error(
            client.post(url, json={"move": "guess", "word": words[0]}), 422
        )


def test_malformed_oversized_unknown_and_finished(client):
    gid = _game(client)
    url = f"/api/games/{gid}/moves"
    assert "not JSON" in _error(
        client.post(url, content=b"{nope", headers={"content-type": "application/json"}), 400
    )
    assert "object" in _error(client.post(url, json=["guess"]), 400)
    big = json.dumps({"move": "guess", "word": "a" * (MAX_BODY + 10)})
    assert "larger than" in _error(client.post(url, content=big), 413)
    assert "no such game" in _error(
        client.post("/api/games/nope/moves", json={"move": "undo"}), 404
    )
    assert "no such game" in _error(client.get("/api/games/" + "x" * 200), 404)
    _error(client.get(f"/api/games/{gid}/review"), 409)
    client.post(url, json={"move": "give_up"})
    client.post(url, json={"move": "word", "word": ""})
    assert "over" in _error(client.post(url, json={"move": "guess", "word": "cat"}), 409)
    assert client.delete(f"/api/games/{gid}").status_code == 200
    _error(client.get(f"/api/games/{gid}"), 404)
    _error(client.get("/nowhere"), 404)
    _error(client.put("/api/games"), 405)


def test_a_foreign_host_is_refused_and_the_page_is_locked_down():
    with TestClient(create_app(["127.0.0.1", "localhost"]), base_url="http://127.0.0.1:8000") as c:
        page = c.get("/")
        assert page.status_code == 200 and "<title>Jotto</title>" in page.text
        csp = page.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "unsafe" not in csp and "http" not in csp
        assert page.headers["x-frame-options"] == "DENY"
        assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200
        evil = c.get("/api/options", headers={"host": "evil.example:8000"})
        assert "address it serves" in _error(evil, 400)
        assert (
            c.post("/api/games", json={}, headers={"host": "127.0.0.1.evil.example"}).status_code
            == 400
        )


def test_the_page_is_small_and_asks_nothing_of_other_origins(client):
    total = 0
    for path in ("/", "/app.js", "/style.css"):
        r = client.get(path)
        assert r.status_code == 200
        total += len(r.content)
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", r.text)
        assert (
            "http://" not in r.text.replace("http://www.w3.org/2000/svg", "")
            and "https://" not in r.text
        )
    assert total <= 150_000
    # nothing of the game's rules in the script: it has no word list, no reply counting
    js = client.get("/app.js").text
    assert "reply(" not in js and "load_words" not in js


def test_games_are_capped_and_expire():
    now = [0.0]
    games = Games(cap=3, idle=100.0, clock=lambda: now[0])
    ids = []
    for _ in range(3):
        ids.append(games.add(Game(session=None, options={})))  # type: ignore[arg-type]
        now[0] += 1
    assert games.get(ids[0]) is not None  # played: now the most recent
    ids.append(games.add(Game(session=None, options={})))  # type: ignore[arg-type]
    assert games.get(ids[1]) is None and len(games) == 3  # the one idle longest ended
    now[0] += 101
    assert games.get(ids[0]) is None and len(games) == 0


def test_the_server_caps_its_games():
    with TestClient(create_app(["testserver"], games=Games(cap=2), seed=1)) as c:
        first = _game(c)
        _game(c)
        _game(c)
        _error(c.get(f"/api/games/{first}"), 404)


def test_options_and_stats(client):
    options = client.get("/api/options").json()
    assert set(options["levels"]) == {"easy", "medium", "hard"}
    assert options["lists"]["sgb"] == [5]
    assert client.get("/api/stats").json() == {"summary": []}
