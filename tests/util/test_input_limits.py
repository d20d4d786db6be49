"""Bad input that chooses the resources: word lists, strategy, tree, weights and .npy files
and huge tokens stop at their limits, checked before anything is allocated, and are never echoed
whole."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from jotto.util.files import quote
from tests.bad_input import ONE_MB, cli, gzip_of_zeros, one_line_error

# ---- 1. resources chosen by the input -------------------------------------------------------


def test_gzip_word_list_stops_at_the_limit(tmp_path):
    bomb = tmp_path / "words.txt.gz"
    bomb.write_bytes(gzip_of_zeros(3 << 20))
    assert bomb.stat().st_size < 10_000
    one_line_error(
        cli("tree", "-w", bomb, env=ONE_MB),
        "words.txt.gz: decompresses to more than 1 MiB",
        "JOTTO_MAX_INPUT_MB",
    )


def test_plain_word_list_stops_at_the_limit(tmp_path):
    big = tmp_path / "words.txt"
    big.write_bytes(b"abcde\n" * 400_000)
    one_line_error(cli("tree", "-w", big, env=ONE_MB), "words.txt: holds more than 1 MiB")


def test_endless_word_list_stops_at_the_limit():
    one_line_error(cli("tree", "-w", "/dev/zero", env=ONE_MB), "/dev/zero: holds more than")


def test_strategy_file_bomb_stops_at_the_limit(tmp_path):
    bomb = tmp_path / "bomb.jotto"
    bomb.write_bytes(gzip_of_zeros(3 << 20))
    one_line_error(
        cli("evaluate", "-g", f"equilibrium:{bomb}", env=ONE_MB),
        "bomb.jotto: decompresses to more than 1 MiB",
    )


def test_tree_file_stops_at_the_limit(tmp_path):
    big = tmp_path / "t.json"
    big.write_bytes(b" " * (2 << 20))
    one_line_error(cli("evaluate", "-g", f"tree:{big}", env=ONE_MB), "t.json: holds more than")


def test_weights_file_stops_at_the_limit(tmp_path):
    big = tmp_path / "w.txt"
    big.write_bytes(b"1\n" * (1 << 20))
    one_line_error(
        cli("evaluate", "-w", "sgb", "-H", f"weights:{big}", env=ONE_MB), "w.txt: holds more than"
    )


def test_limit_setting_itself_is_checked():
    one_line_error(
        cli("tree", "-n", 3, env={"JOTTO_MAX_INPUT_MB": "lots"}),
        "JOTTO_MAX_INPUT_MB must be a positive whole number",
    )


def _npy(path: Path, header: dict, data: bytes = b"") -> Path:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    path.write_bytes(buf.getvalue() + data)
    return path


@pytest.mark.parametrize(
    "header, data, fragment",
    [
        (
            {"descr": "<f8", "fortran_order": False, "shape": (10**12,)},
            b"\0" * 64,
            "holds float64 of shape (1000000000000,)",
        ),
        ({"descr": "|O", "fortran_order": False, "shape": (2177,)}, b"", "holds object"),
        (
            {"descr": "<f8", "fortran_order": False, "shape": (2177,)},
            b"\0" * 80,
            "80 bytes of data where its header promises 17416",
        ),
        ({"descr": "<c16", "fortran_order": False, "shape": (2177,)}, b"", "holds complex128"),
    ],
    ids=["huge-shape", "object", "truncated", "complex"],
)
def test_npy_headers_are_checked_before_allocating(tmp_path, header, data, fragment):
    path = _npy(tmp_path / "w.npy", header, data)
    one_line_error(cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"), "w.npy: " + fragment)


def test_npy_that_is_not_npy(tmp_path):
    path = tmp_path / "w.npy"
    path.write_bytes(os.urandom(300))
    one_line_error(
        cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"), "w.npy: not a NumPy .npy file"
    )


def test_a_huge_bad_token_is_not_echoed_whole(tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes(b"about\n" + b"x1" * 3_000_000 + b"\n")
    line = one_line_error(
        cli("tree", "-w", path), "words.txt, line 2:", "(6000000 characters) is not a word"
    )
    assert len(line) < 200


def test_a_huge_weights_line_is_not_echoed_whole(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("about " + "9" * 500_000 + "z\n")
    line = one_line_error(
        cli("evaluate", "-w", "sgb", "-H", f"weights:{path}"), "w.txt, line 1:", "is not a number"
    )
    assert len(line) < 200


def test_a_huge_spec_is_not_echoed_whole():
    line = one_line_error(cli("evaluate", "-g", "q" * 100_000), "unknown guesser")
    assert len(line) < 400


@pytest.mark.parametrize("option", ["--mode", "-i", "--time-budget", "-n"])
def test_a_huge_option_value_is_not_echoed_whole(option):
    line = one_line_error(cli("solve", option, "x" * 100_000), "(100000 characters)")
    assert len(line) < 300


def test_a_huge_input_line_is_not_echoed_whole():
    result = cli("assist", "-n", 3, "-g", "norvig:max", input="a" * 1_000_000 + " 1\nquit\n")
    assert result.exit_code == 0 and "(1000000 characters) has 1000000 letters" in result.output
    assert max(map(len, result.output.splitlines())) < 300


def test_quote_cuts_and_says_how_long():
    assert quote("abc") == "'abc'"
    assert quote("x" * 1000) == f"{'x' * 40!r}… (1000 characters)"
    assert len(quote(list(range(10**5)))) <= 41
