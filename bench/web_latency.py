"""How fast the web game answers: the computer's move at 5 letters on the hard level (the race
guesser) with many races played at once against one server process (issue 41, item 6: median
<= 50 ms, 95th percentile <= 250 ms, 20 games at once, 2 cores).

The server is ``jotto serve --port 0 --no-save`` in its own process, as a person runs it.  This
process plays ``--games`` races at once over HTTP (asyncio and httpx, one client per game): each
person guesses a word that fits the replies so far (worked out here), and answers the computer's
guesses truly for a word hidden at random.  A guess's round trip is the latency measured: the
server takes the guess, replies, and makes the computer's guess of that round (the race
guesser's work, in a worker thread).  Meanwhile a probe asks ``GET /api/options`` every 50 ms:
its latency shows whether the event loop stays free while the engine works.  The clients run on
the same 2 cores as the server, so the numbers include their load.

Run::

    python bench/web_latency.py --games 20 --rounds 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time

import httpx

from jotto.game.words import load_words


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


async def play(
    client: httpx.AsyncClient,
    words,
    rng: random.Random,
    rounds: int,
    guess_ms: list[float],
    answer_ms: list[float],
) -> None:
    """One person's race: up to ``rounds`` guesses (or to the end)."""
    hidden = words[rng.randrange(len(words))]
    r = await client.post("/api/games", json={"mode": "race", "level": "hard", "length": 5})
    r.raise_for_status()
    data = r.json()
    gid = data["id"]
    candidates = list(words)
    for _ in range(rounds * 2 + 2):
        state = data["state"]
        if state["asks"] == "guess":
            rows = state["yours"]["rows"]
            for row in rows[-1:]:
                candidates = [
                    w for w in candidates if words.rules.reply(row["guess"], w) == row["reply"]
                ]
            guessed = {row["guess"] for row in rows}
            if len(rows) >= rounds:
                break
            word = next(w for w in candidates if w not in guessed)
            t0 = time.perf_counter()
            r = await client.post(f"/api/games/{gid}/moves", json={"move": "guess", "word": word})
            guess_ms.append(1000 * (time.perf_counter() - t0))
        elif state["asks"] == "answer":
            g = state["my_guess"]
            reply = "yes" if g == hidden else str(words.rules.reply(g, hidden))
            t0 = time.perf_counter()
            r = await client.post(
                f"/api/games/{gid}/moves", json={"move": "answer", "reply": reply}
            )
            answer_ms.append(1000 * (time.perf_counter() - t0))
        else:
            break
        r.raise_for_status()
        data = r.json()
    await client.delete(f"/api/games/{gid}")


async def probe(client: httpx.AsyncClient, stop: asyncio.Event, ms: list[float]) -> None:
    while not stop.is_set():
        t0 = time.perf_counter()
        (await client.get("/api/options")).raise_for_status()
        ms.append(1000 * (time.perf_counter() - t0))
        await asyncio.sleep(0.05)


async def phase(client, words, games: int, rounds: int, rng: random.Random) -> dict:
    """``games`` races at once; the latencies of guesses, answers and the probe."""
    guess_ms: list[float] = []
    answer_ms: list[float] = []
    probe_ms: list[float] = []
    stop = asyncio.Event()
    prober = asyncio.create_task(probe(client, stop, probe_ms))
    t0 = time.perf_counter()
    await asyncio.gather(
        *(
            play(client, words, random.Random(rng.random()), rounds, guess_ms, answer_ms)
            for _ in range(games)
        )
    )
    wall = time.perf_counter() - t0
    stop.set()
    await prober

    def summary(xs: list[float]) -> dict:
        return {
            "n": len(xs),
            "median_ms": round(statistics.median(xs), 1),
            "p95_ms": round(percentile(xs, 0.95), 1),
            "max_ms": round(max(xs), 1),
        }

    return {
        "wall_s": round(wall, 2),
        "guess": summary(guess_ms),
        "answer": summary(answer_ms),
        "probe": summary(probe_ms),
    }


async def run(url: str, games: int, rounds: int, seed: int, passes: int) -> dict:
    words = load_words("enable", length=5)
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=games + 2)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
        # one game alone first: the word list, hiding set and strategy load once per server
        await play(client, words, random.Random(-1), 1, [], [])
        # then the passes: the first meets the race guesser's caches cold, the later ones
        # find the decisions of the earlier games' states (shared by all games of a server)
        return {
            "games": games,
            "rounds": rounds,
            "passes": [await phase(client, words, games, rounds, rng) for _ in range(passes)],
        }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="races played at once")
    ap.add_argument("--rounds", type=int, default=4, help="guesses per person (at most)")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument(
        "--passes", type=int, default=3, help="rounds of --games races at once, one after the other"
    )
    args = ap.parse_args()
    load = os.getloadavg()
    server = subprocess.Popen(
        [sys.executable, "-m", "jotto", "serve", "--port", "0", "--no-save"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        match = re.search(r"http://\S+/", line)
        if not match:
            sys.exit(f"the server did not start: {line!r}")
        result = asyncio.run(run(match.group(0), args.games, args.rounds, args.seed, args.passes))
    finally:
        server.terminate()
        server.wait(10)
    result["load_before"] = [round(x, 2) for x in load]
    result["load_after"] = [round(x, 2) for x in os.getloadavg()]
    result["cpus"] = os.cpu_count()
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
