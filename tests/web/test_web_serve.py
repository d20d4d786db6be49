"""``jotto serve``: the one-line errors (the web extra missing, a port in use), and the real command
serving the page on a free port until Ctrl-C (exit status 130)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from jotto.cli import main

pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")


def test_without_the_web_extra_it_says_what_to_install(monkeypatch):
    for name in [m for m in sys.modules if m == "uvicorn" or m.startswith("jotto.web")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "pip install 'jotto[web]'" in result.output and "uvicorn" in result.output
    assert "Traceback" not in result.output


def test_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert f"--port {port}: cannot serve there" in result.output
    assert "Traceback" not in result.output


def test_serve_plays_until_ctrl_c():
    proc = subprocess.Popen(
        [sys.executable, "-m", "jotto", "serve", "--port", "0", "--no-save"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        for _ in range(100):
            try:
                page = httpx.get(url.group(0), timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert page.status_code == 200 and "<title>Jotto</title>" in page.text
        game = httpx.post(
            url.group(0) + "api/games", json={"length": 3, "level": "easy"}, timeout=60
        )
        assert game.status_code == 201
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "Bye." in out and "Traceback" not in err
