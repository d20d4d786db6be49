"""The aarch64 kernels (NEON and the scalar base) proven without an ARM machine: the standalone C
test of the engine (tests/c/check_kernels.c: class sizes and weighted values against direct
counts, the exact rule against a naive GuesserGBR, every rule's trees identical across variants)
cross-compiled with gcc-aarch64-linux-gnu and run under qemu-user.  `.ci/run` installs both
Debian packages where it can; without them the test skips and says so."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "jotto" / "_engine"
CHECK = ROOT / "tests" / "c" / "check_kernels.c"
CC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"
# as CMakeLists.txt builds them: the scalar base and NEON, the paper rule's no-contraction flag
FLAGS = [
    "-O2",
    "-std=c11",
    "-D_GNU_SOURCE",
    "-ffp-contract=off",
    "-fno-fast-math",
    "-Wall",
    "-Wno-unknown-pragmas",
    "-Werror",
    f"-I{ENGINE}",
]
LEVELS = {"base": ["-DJT_SCALAR=1"], "neon": ["-march=armv8-a"]}


def kernel_lengths() -> list[int]:
    """The word lengths compiled with the length a constant (JT_KERNEL_LENGTHS in kernels.h, as
    CMakeLists.txt reads it)."""
    line = re.search(
        r"^#define JT_KERNEL_LENGTHS\(X\)(.*)$",
        (ENGINE / "common" / "kernels.h").read_text(),
        re.MULTILINE,
    )
    assert line, "no JT_KERNEL_LENGTHS in kernels.h"
    return [int(n) for n in re.findall(r"X\((\d+)\)", line.group(1))]


# The lengths whose sweeps this build specialises, as CMake's JOTTO_KERNEL_LENGTHS="3;5" would: a
# length's sweeps are one source with the length a constant, so the game's length and the
# proofs' and the sweeps for any length (which check_kernels.c's other lengths take) cover the
# code, in 3 units a level instead of 6.
SWEEP_LENGTHS = (3, 5)


def length_defines() -> list[str]:
    """The defines CMakeLists.txt passes for SWEEP_LENGTHS (kernels.c's table then calls the
    sweeps for any length at the other lengths)."""
    return ["-DJT_LENGTHS_CHOSEN=1"] + [
        f"-DJT_LEN_BUILT_{n}={int(n in SWEEP_LENGTHS)}" for n in kernel_lengths()
    ]


def build(tmp_path: Path) -> Path:
    # as CMakeLists.txt lays the kernels out (kernels.h): kernels_common.c once; per level its
    # table (kernels.c) and its sweeps once per word length of SWEEP_LENGTHS and once for any
    # other (kernels_length.c); the units compile side by side, one per CPU, then link with the
    # engine
    units = [("common", [], ENGINE / "common" / "kernels_common.c")]
    for level, extra in LEVELS.items():
        flags = [*extra, f"-DJT_KERNEL_SUFFIX={level}"]
        units.append((f"{level}", [*flags, *length_defines()], ENGINE / "common" / "kernels.c"))
        units += [
            (f"{level}_len{n}", [*flags, f"-DJT_LEN={n}"], ENGINE / "common" / "kernels_length.c")
            for n in (*SWEEP_LENGTHS, 0)
        ]

    def compile_unit(unit: tuple[str, list[str], Path]) -> str:
        name, flags, source = unit
        obj = tmp_path / f"kernels_{name}.o"
        subprocess.run(
            [CC, *FLAGS, *flags, "-c", str(source), "-o", str(obj)],
            check=True,
            capture_output=True,
            text=True,
        )
        return str(obj)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        objects = list(pool.map(compile_unit, units))
    exe = tmp_path / "check_kernels"
    # the engine's common part without the kernels (built above), and the tree builder
    engine = sorted(
        p
        for p in [*ENGINE.glob("common/*.c"), *ENGINE.glob("tree/*.c")]
        if not p.name.startswith("kernels")
    )
    sources = [str(p) for p in engine] + [str(CHECK)]
    subprocess.run(
        [CC, *FLAGS, "-DJT_HAVE_neon=1", *sources, *objects, "-lm", "-static", "-o", str(exe)],
        check=True,
        capture_output=True,
        text=True,
    )
    return exe


@pytest.mark.slow
@pytest.mark.compiles(seconds=80)
@pytest.mark.xdist_group("builds")
def test_neon_kernels_under_qemu(tmp_path):
    missing = [tool for tool in (CC, QEMU) if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed (Debian packages "
            "gcc-aarch64-linux-gnu and qemu-user)"
        )
    try:
        exe = build(tmp_path)
    except subprocess.CalledProcessError as e:
        pytest.fail(f"cross build failed: {e.stderr[-3000:]}")
    run = subprocess.run([QEMU, str(exe), "60"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert run.stdout.split() == ["base:", "ok", "neon:", "ok"]
