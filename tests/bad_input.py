"""What the bad-input tests share: running ``jotto`` in this process, and the one-line error
every bad input must end in (exit code 2, no traceback)."""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path

from click.testing import CliRunner

from jotto.cli import main

JOTTO = [sys.executable, "-m", "jotto"]


def cli(*args, env=None, input=None):
    """``jotto ARGS`` in this process (stdin from ``input``)."""
    return CliRunner().invoke(main, [str(a) for a in args], env=env, input=input)


def one_line_error(result, *fragments):
    """Exit code 2 and one error line holding every fragment (click's own option errors put
    the usage above it, as click always does)."""
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert lines and lines[-1].startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr
    assert len(lines[-1]) < 400, "the error echoes too much"
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]
    return lines[-1]


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` and its bytes."""
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def gzip_of_zeros(n: int) -> bytes:
    """A small gzip file that expands to ``n`` zero bytes (a decompression bomb)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1 << 20)
    parts = [c.compress(block) for _ in range(n >> 20)]
    return b"".join(parts) + c.compress(bytes(n % (1 << 20))) + c.flush()


ONE_MB = {"JOTTO_MAX_INPUT_MB": "1"}


def jotto_run(args, **kw):
    """``jotto ARGS`` as its own process (the installed module), its output captured."""
    return subprocess.run(
        JOTTO + [str(a) for a in args], capture_output=True, text=True, timeout=300, **kw
    )
