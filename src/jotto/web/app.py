"""The web game: a Starlette app serving one page (``static/``) and a JSON API over the sessions
of :mod:`jotto.play.sessions`, the same game logic as ``jotto play``.

The API (every body JSON, every error ``{"error": "one sentence"}`` with a 4xx status):

- ``GET /api/options``: the modes, levels (with a line on each), word lists, lengths, rule sets.
- ``POST /api/games`` ``{mode, level, words, length, rules, hints}``: a new game; its ``id``,
  its ``state`` (:meth:`jotto.play.sessions.GameState.as_dict`) and the ``lines`` said.
- ``GET /api/games/{id}``: the game as it is (a page reloaded mid-game), with all its lines.
- ``POST /api/games/{id}/moves`` ``{move, ...}``: one move: ``guess`` (``word``), ``answer``
  (``reply``: a number, ``3/1`` or ``yes``), ``undo``, ``fix`` (``n``, ``reply``), ``give_up``,
  ``word`` (``word``: yours, after the end, to check your answers), ``mark`` (``letters``,
  ``mark``: in, out or clear), and for assist ``enter`` (``word``, ``reply``) and ``new``.
  A move the game refuses (a non-word, a reply out of range, not your turn) is a 422 or 409 with
  the session's own sentence; it changes nothing.
- ``GET /api/games/{id}/review``: the finished game's review (:mod:`jotto.play.review`).
- ``DELETE /api/games/{id}``: end a game.
- ``GET /api/stats``: your record (:func:`jotto.play.history.summarise`).

The computer's word is in no response before its game is over: the state carries it only then
(:class:`~jotto.play.sessions.GameState`), and the lines said before say replies only.  The
engine's work (the computer's guesses, reviews) runs in worker threads, off the event loop; one
game's moves run one at a time.  Requests whose ``Host`` is not the address served are refused
(DNS rebinding), every response forbids framing and sniffing, and the page's Content-Security-Policy
allows only its own origin.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..game.rules import RulesError
from ..game.words import WordList, WordListError, load_words
from ..play.commonness import HidingSet, hiding_set
from ..play.history import GameLog, Stats, summarise
from ..play.review import game_record, review_game
from ..play.sessions import (
    HIDE_FROM,
    LEVELS,
    MODES,
    Session,
    hider_for,
    new_session,
    strategy_for,
)
from ..play.sessions.base import Reply
from ..solvers.solution import Solution
from .games import Game, Games

__all__ = ["CSP", "LISTS", "MAX_BODY", "RULE_SETS", "create_app"]

#: The word lists a game is played on, and the lengths of each.
LISTS = {"enable": (3, 4, 5, 6, 7), "sgb": (5,)}
#: The rule sets offered (:data:`jotto.game.rules.PRESETS`), each with a line on it.
RULE_SETS = {
    "paper": "words of different letters; words with an anagram dropped (Ganzfried's paper)",
    "norvig": "words of different letters; one word of each set of anagrams kept (Norvig)",
    "eckler": "words of different letters; all anagrams kept (Eckler): say 'yes' when found",
    "hard": "the paper's words; every guess must fit all replies so far",
    "positional": "all anagrams kept; replies also say how many letters are in place (3/1)",
}
#: The questions of the game (:data:`jotto.play.sessions.ASKS`) at which each move may be made.
WHEN = {
    "guess": ("guess",),
    "answer": ("answer",),
    "undo": ("guess", "answer", "entry"),
    "fix": ("guess", "answer"),
    "give_up": ("guess", "answer"),
    "word": ("word",),
    "mark": ("guess", "answer", "word", "entry"),
    "enter": ("entry",),
    "new": ("entry",),
}
#: The largest request body taken (bytes): a move is a few dozen.
MAX_BODY = 4096
#: The longest text field taken (characters); longer is refused before any game sees it.
MAX_FIELD = 64
#: The page's Content-Security-Policy: its own scripts, styles and requests only.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
#: The moves of each mode that make the computer think (its next guess, a suggestion): they run
#: in the engine's worker threads, the others beside them.
ENGINE = {
    "race": {"guess", "undo", "fix"},
    "hide": {"answer", "undo", "fix"},
    "guess": set(),
    "assist": {"enter", "undo", "new"},
}
#: What each question of the game asks for, in an error.
ASKED = {
    "guess": "your guess",
    "answer": "your answer to my guess",
    "word": "your word",
    "entry": "a guess and its reply",
}
STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}


class Refused(Exception):
    """A request refused: its status and one sentence."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers=SECURITY_HEADERS)


def _ok(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status, headers=SECURITY_HEADERS)


def _api(handler: Callable[..., Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """A route whose :class:`Refused` becomes its JSON error."""

    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return _error(exc.status, str(exc))

    return route


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most :data:`MAX_BODY` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(413, f"The request body is larger than {MAX_BODY} bytes.")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise Refused(413, f"The request body is larger than {MAX_BODY} bytes.")
    try:
        body = json.loads(data or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "The request body is not JSON.") from None
    if not isinstance(body, dict):
        raise Refused(400, "The request body is not a JSON object.")
    return body


def _text(body: dict[str, Any], key: str, default: str | None = None) -> str:
    """The text field ``key`` of ``body`` (lower case, trimmed), checked to be short text."""
    value = body.get(key, default)
    if value is None:
        raise Refused(400, f"The field '{key}' is missing.")
    if not isinstance(value, str) or len(value) > MAX_FIELD:
        raise Refused(400, f"The field '{key}' must be text of at most {MAX_FIELD} characters.")
    return value.strip().lower()


def _choice(body: dict[str, Any], key: str, choices, default: str) -> str:
    value = _text(body, key, default)
    if value not in choices:
        raise Refused(400, f"The field '{key}' must be one of: {', '.join(choices)}.")
    return value


class _Library:
    """Word lists, hiding sets and strategies, loaded once each (they are read-only)."""

    @functools.lru_cache(maxsize=64)  # noqa: B019 (one library per server, kept for its life)
    def words(self, source: str, length: int, rules: str) -> WordList:
        return load_words(source, length=length, rules=rules)

    @functools.lru_cache(maxsize=64)  # noqa: B019 (one library per server, kept for its life)
    def hiding(self, source: str, length: int, rules: str, level: str) -> HidingSet:
        return hiding_set(self.words(source, length, rules), HIDE_FROM[level])

    @functools.lru_cache(maxsize=64)  # noqa: B019 (one library per server, kept for its life)
    def solution(self, source: str, length: int, rules: str) -> Solution | None:
        return strategy_for(self.words(source, length, rules), None)

    @functools.lru_cache(maxsize=64)  # noqa: B019 (one library per server, kept for its life)
    def hider(self, source: str, length: int, rules: str) -> Solution | None:
        return hider_for(self.words(source, length, rules), self.solution(source, length, rules))


def _allowed(host_header: str, hosts: frozenset[str] | None) -> bool:
    """Whether a Host header names one of ``hosts`` (any port; None: any host)."""
    if hosts is None:
        return True
    name = host_header.strip().lower()
    if name.startswith("["):  # [::1]:8000
        name = name[1 : name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.rsplit(":", 1)[0]
    return name in hosts


def create_app(
    hosts: Sequence[str] | None = ("127.0.0.1", "localhost", "::1"),
    save: bool = True,
    games: Games | None = None,
    warn: Callable[[str], None] = lambda message: None,
    seed: int | None = None,
) -> ASGIApp:
    """The web game's app.  ``hosts``: the names the Host header may carry (None: any, for a
    server bound to all addresses); ``save``: record finished games in the statistics (the file
    of ``jotto stats``); ``games``: the store (its cap and idle time); ``warn``: where problems
    with the statistics file are said; ``seed``: the games' seeds drawn from it, for tests
    (None: fresh ones)."""
    allowed = None if hosts is None else frozenset(h.lower() for h in hosts)
    store = games if games is not None else Games()
    library = _Library()
    # the engine's work in as many worker threads as there are cores: more would only share
    # them, and leave the event loop (pages, other games' answers) less of them
    limiter = anyio.CapacityLimiter(os.cpu_count() or 2)

    async def run_in_threadpool(fn: Callable[[], Any], engine: bool = True) -> Any:
        """``fn`` in a worker thread: the engine's limited ones, or (a light move: a reply
        to count, a mark) anyio's own, so that it does not wait behind other games' searches."""
        return await anyio.to_thread.run_sync(fn, limiter=limiter if engine else None)

    seeds = random.Random(seed) if seed is not None else random.SystemRandom()
    pages = {
        path: (resources.files("jotto.web").joinpath("static", name).read_bytes(), kind)
        for path, (name, kind) in STATIC.items()
    }

    async def page(request: Request) -> Response:
        body, kind = pages[request.url.path]
        return Response(body, headers={**SECURITY_HEADERS, "Content-Type": kind})

    async def options(request: Request) -> Response:
        return _ok(
            {
                "modes": list(MODES),
                "levels": LEVELS,
                "lists": LISTS,
                "rules": RULE_SETS,
                "defaults": {
                    "mode": "race",
                    "level": "hard",
                    "words": "enable",
                    "length": 5,
                    "rules": "paper",
                    "hints": False,
                },
            }
        )

    def _game(request: Request) -> tuple[str, Game]:
        gid = request.path_params["gid"]
        game = store.get(gid) if len(gid) <= MAX_FIELD else None
        if game is None:
            raise Refused(404, "There is no such game (it ended, expired, or never was).")
        return gid, game

    def _shown(gid: str, game: Game, reply: Reply | None = None) -> dict[str, Any]:
        return {
            "id": gid,
            "state": game.session.view().as_dict(),
            "options": game.options,
            "lines": reply.lines if reply is not None else game.lines,
        }

    def _record(game: Game) -> None:
        """A finished game into the statistics and the game log, once."""
        result = game.session.result()
        if result is None or game.recorded or not save:
            return
        game.recorded = True
        words = game.session.words
        about = {
            "level": game.options["level"],
            "words": {"source": words.source, "size": len(words), "length": words.length},
        }
        if Stats(warn=warn).record({**result, **about}):
            moves = game.session.game_moves()  # type: ignore[attr-defined]
            GameLog(warn=warn).record(
                game_record(
                    words,
                    result["mode"],
                    result["outcome"],
                    moves["yours"],
                    moves["mine"],
                    game.options["level"],
                    moves["my_word"],
                )
            )

    @_api
    async def create(request: Request) -> Response:
        body = await _body(request)
        mode = _choice(body, "mode", MODES, "race")
        level = _choice(body, "level", tuple(LEVELS), "hard")
        source = _choice(body, "words", tuple(LISTS), "enable")
        rules = _choice(body, "rules", RULE_SETS, "paper")
        length = body.get("length", 5)
        if not isinstance(length, int) or isinstance(length, bool) or length not in LISTS[source]:
            raise Refused(
                400,
                f"The list {source} has words of "
                f"{', '.join(map(str, LISTS[source]))} letters, not {length!r}.",
            )
        hints = body.get("hints", False)
        if not isinstance(hints, bool):
            raise Refused(400, "The field 'hints' must be true or false.")
        again = body.get("again", False) is True

        def make() -> tuple[Session, list[str]]:
            try:
                words = library.words(source, length, rules)
            except (WordListError, RulesError) as exc:
                raise Refused(400, f"{exc}.") from None
            session = new_session(
                mode,
                words,
                level,
                library.hiding(source, length, rules, level),
                library.solution(source, length, rules),
                None,
                seeds.getrandbits(32),
                hints,
                sheet=False,
                hider=library.hider(source, length, rules) if level == "hard" else None,
            )
            session.opening = not again
            return session, session.start().lines

        session, lines = await run_in_threadpool(make)
        game = Game(
            session,
            {
                "mode": mode,
                "level": level,
                "words": source,
                "length": length,
                "rules": rules,
                "hints": hints,
            },
        )
        game.said(lines)
        gid = store.add(game)
        return _ok(_shown(gid, game, Reply(lines)), 201)

    @_api
    async def show(request: Request) -> Response:
        gid, game = _game(request)
        return _ok(_shown(gid, game))

    @_api
    async def drop(request: Request) -> Response:
        gid, _ = _game(request)
        store.drop(gid)
        return _ok({"id": gid, "ended": True})

    @_api
    async def move(request: Request) -> Response:
        body = await _body(request)
        gid, game = _game(request)
        session = game.session
        kind = _text(body, "move")
        moves: dict[str, Callable[[], Reply]] = {
            "guess": lambda: session.guess(_text(body, "word")),  # type: ignore[attr-defined]
            "answer": lambda: session.answer(_text(body, "reply")),  # type: ignore[attr-defined]
            "undo": lambda: session.undo(),  # type: ignore[attr-defined]
            "fix": lambda: session.fix(_number(body), _text(body, "reply")),  # type: ignore[attr-defined]
            "give_up": lambda: session.give_up(),  # type: ignore[attr-defined]
            "word": lambda: session.tell_word(_text(body, "word", "")),  # type: ignore[attr-defined]
            "mark": lambda: session.set_mark(_text(body, "letters"), _text(body, "mark")),
            "enter": lambda: session.enter(_text(body, "word"), _text(body, "reply")),  # type: ignore[attr-defined]
            "new": lambda: session.new(),  # type: ignore[attr-defined]
        }
        if kind not in moves or not hasattr(
            session, {"mark": "set_mark", "word": "tell_word"}.get(kind, kind)
        ):
            raise Refused(400, f"That is not a move of a {session.mode} game.")
        asks = session.asks()
        if asks == "none":
            raise Refused(409, "This game is over.")
        if asks not in WHEN[kind]:
            raise Refused(409, f"That move is not taken now: the game asks for {ASKED[asks]}.")

        def play() -> Reply:
            reply = moves[kind]()
            _record(game)
            return reply

        async with game.lock:
            reply = await run_in_threadpool(play, engine=kind in ENGINE[session.mode])
        if reply.refused:  # the session's one line, ended as a sentence
            line = reply.lines[0]
            raise Refused(422, line if line.endswith((".", "?", "!")) else line + ".")
        game.said(reply.lines)
        return _ok(_shown(gid, game, reply))

    @_api
    async def review(request: Request) -> Response:
        _, game = _game(request)
        if game.session.result() is None:
            raise Refused(409, "A game is reviewed once it is over.")
        if game.review is None:
            session = game.session
            result = session.result() or {}
            moves = session.game_moves()  # type: ignore[attr-defined]
            if not moves["yours"] and not moves["mine"]:
                raise Refused(409, "No guess was made in this game.")

            def make() -> dict[str, Any]:
                r = review_game(
                    session.words, result["mode"], result["outcome"], moves["yours"], moves["mine"]
                )
                return {
                    **r.as_dict(),
                    "lines": r.lines(),
                    "shown": {
                        side.who: [
                            session.vocab.show(g.reply) if not g.found else "found"
                            for g in side.guesses
                        ]
                        for side in r.sides
                    },
                }

            async with game.lock:
                game.review = await run_in_threadpool(make)
        return _ok({"review": game.review})

    @_api
    async def stats(request: Request) -> Response:
        games = await run_in_threadpool(lambda: Stats(warn=warn).games())
        return _ok({"summary": summarise(games)})

    routes = [Route(path, page) for path in STATIC] + [
        Route("/api/options", options),
        Route("/api/stats", stats),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{gid}", show, methods=["GET"]),
        Route("/api/games/{gid}", drop, methods=["DELETE"]),
        Route("/api/games/{gid}/moves", move, methods=["POST"]),
        Route("/api/games/{gid}/review", review),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            404: lambda r, e: _error(404, "There is no such page."),
            405: lambda r, e: _error(405, "That method is not allowed here."),
        },
    )

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        """Requests to another host name than the one served are refused: a page elsewhere
        whose name resolves here (DNS rebinding) must not drive this server."""
        if scope["type"] == "http":
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            if not _allowed(host, allowed):
                refused = _error(400, "This server answers only requests to the address it serves.")
                return await refused(scope, receive, send)
        await app(scope, receive, send)

    return guarded


def _number(body: dict[str, Any]) -> int:
    n = body.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 1000:
        raise Refused(400, "The field 'n' must be a guess's number.")
    return n
