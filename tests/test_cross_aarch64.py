"""The aarch64 kernels (NEON and the scalar base) proven without an ARM machine: the standalone C
test of the engine (tests/c/check_kernels.c: class sizes and weighted values against direct
counts, the exact rule against a naive GuesserGBR, every rule's trees identical across variants)
cross-compiled with gcc-aarch64-linux-gnu and run under qemu-user.  `.ci/run` installs both
Debian packages where it can; without them the test skips and says so."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "src" / "jotto" / "_engine"
CHECK = ROOT / "tests" / "c" / "check_kernels.c"
CC = "aarch64-linux-gnu-gcc"
QEMU = "qemu-aarch64"
# as CMakeLists.txt builds them: the scalar base and NEON, the paper rule's no-contraction flag
FLAGS = ["-O2", "-std=c11", "-D_GNU_SOURCE", "-ffp-contract=off", "-fno-fast-math",
         "-Wall", "-Wno-unknown-pragmas", "-Werror", f"-I{ENGINE}"]
LEVELS = {"base": ["-DJT_SCALAR=1"], "neon": ["-march=armv8-a"]}


def build(tmp_path: Path) -> Path:
    # the levels compile side by side (each is most of a minute), then link with the engine
    objects, jobs = [], []
    for level, extra in LEVELS.items():
        obj = tmp_path / f"kernels_{level}.o"
        cmd = [CC, *FLAGS, *extra, f"-DJT_KERNEL_SUFFIX={level}", "-c",
               str(ENGINE / "kernels.c"), "-o", str(obj)]
        jobs.append((cmd, subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True)))
        objects.append(str(obj))
    for cmd, job in jobs:
        out, err = job.communicate()
        if job.returncode:
            raise subprocess.CalledProcessError(job.returncode, cmd, out, err)
    exe = tmp_path / "check_kernels"
    # the engine without the per-level kernels (built above) and the best-response search
    engine = sorted(p for p in ENGINE.glob("*.c")
                    if p.name != "kernels.c" and not p.name.startswith("search"))
    sources = [str(p) for p in engine] + [str(CHECK)]
    subprocess.run([CC, *FLAGS, "-DJT_HAVE_neon=1", *sources, *objects, "-lm", "-static",
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    return exe


@pytest.mark.slow
@pytest.mark.compiles(seconds=80)
@pytest.mark.xdist_group("builds")
def test_neon_kernels_under_qemu(tmp_path):
    missing = [tool for tool in (CC, QEMU) if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (Debian packages "
                    "gcc-aarch64-linux-gnu and qemu-user)")
    try:
        exe = build(tmp_path)
    except subprocess.CalledProcessError as e:
        pytest.fail(f"cross build failed: {e.stderr[-3000:]}")
    run = subprocess.run([QEMU, str(exe), "60"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert run.stdout.split() == ["base:", "ok", "neon:", "ok"]
