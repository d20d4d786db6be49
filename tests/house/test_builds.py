"""Builds other projects rely on: a downstream Cython extension that cimports the C-level kernels,
and the serial build a compiler without OpenMP gets.  Both compile, so they are slow."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import jotto
from jotto import _core
from tests.house.core_builds import ROOT, install_core

DOWNSTREAM = textwrap.dedent("""
    # cython: language_level=3
    from libc.stdint cimport int32_t, uint32_t
    from jotto._core cimport reply, comp_num_guesses, guesser_gbr

    def replies(const uint32_t[::1] masks, int i):
        return [reply(masks[i], masks[k]) for k in range(masks.shape[0])]

    def guesses(const uint32_t[::1] masks, int L, const double[::1] h, int rule, int threads):
        import numpy
        res = numpy.zeros(masks.shape[0], dtype=numpy.int32)
        cdef int32_t[::1] out = res
        cdef int status
        with nogil:
            status = comp_num_guesses(&masks[0], <int32_t>masks.shape[0], L,
                                      &h[0] if h is not None else NULL, rule, threads, &out[0])
        return status, res

    def decide(const uint32_t[::1] masks, int L, int rule, const int32_t[::1] S):
        cdef int32_t g
        with nogil:
            g = guesser_gbr(&masks[0], <int32_t>masks.shape[0], L, NULL, rule, &S[0],
                            <int32_t>S.shape[0])
        return g
""")

SETUP = textwrap.dedent("""
    from setuptools import Extension, setup
    from Cython.Build import cythonize
    setup(name="downstream", script_args=["build_ext", "--inplace"],
          ext_modules=cythonize([Extension("downstream", ["downstream.pyx"])], quiet=True))
""")


@pytest.mark.slow
def test_downstream_extension_cimports_the_kernels(tmp_path):
    (tmp_path / "downstream.pyx").write_text(DOWNSTREAM)
    (tmp_path / "setup.py").write_text(SETUP)
    build = subprocess.run(
        [sys.executable, "setup.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert build.returncode == 0, build.stderr[-3000:]
    sys.path.insert(0, str(tmp_path))
    try:
        import downstream  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    words = jotto.load_words("enable", length=3)
    masks = np.ascontiguousarray(words.masks)
    assert downstream.replies(masks, 0) == [jotto.reply(words[0], w) for w in words]
    rng = np.random.default_rng(5)
    h = rng.random(len(words))
    for code, rule in ((0, "paper"), (1, "exact")):
        status, got = downstream.guesses(masks, 3, h, code, 2)
        assert status == 0
        assert (got == jotto.comp_num_guesses(words, h, rule=rule)).all()
        status, got = downstream.guesses(masks, 3, None, code, 1)
        assert (got == jotto.comp_num_guesses(words, rule=rule)).all()
        S = np.arange(10, 60, dtype=np.int32)
        assert downstream.decide(masks, 3, code, S) == jotto.guesser_gbr(words, None, S, rule=rule)
    status, _ = downstream.guesses(masks, 4, None, 1, 1)  # wrong length: the core refuses
    assert status == -2


@pytest.mark.compiles(seconds=60)
@pytest.mark.xdist_group("builds")
@pytest.mark.slow
def test_serial_build_installs_warns_and_agrees(tmp_path):
    """Without OpenMP (and with the scalar kernel only, its sweeps specialised for 4 letters
    alone, to build fast) the core installs, warns once, runs one thread and counts what the
    main build counts, at 4 letters and at 5 (whose sweeps are then the generic ones); a
    best-response pass asked for three threads runs on one and finds the main build's optimum
    and tree."""
    target, build = install_core(
        tmp_path, "JOTTO_OPENMP=OFF", "JOTTO_KERNELS=base", "JOTTO_KERNEL_LENGTHS=4"
    )
    assert build.returncode == 0, build.stderr[-3000:]
    probe = textwrap.dedent("""
        import json, sys, warnings
        # an editable install of the main build would shadow the serial one: drop its finder
        sys.meta_path = [f for f in sys.meta_path if "editable" not in type(f).__module__]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import jotto, jotto.engine.runtime
            jotto.openmp_enabled()  # the first use loads the core (``import jotto`` does not)
        words = jotto.load_words("enable", length=4)
        from jotto import _core
        import numpy as np
        first = jotto.WordList.from_words(words.words[:40], rules=words.rules)
        search = _core.BestResponseSearch(first.core, np.ones(40, dtype=np.int64), 2**24)
        value = search.run(0, _core.BS_INF, 0.0, 0, False, None, 0, 3, 1)
        print(json.dumps({
            "search": [value[0], value[1], search.tree(0, -1)[1].tolist()],
            "file": jotto.__file__,
            "openmp": jotto.openmp_enabled(),
            "warned": [str(w.message) for w in caught],
            "threads": jotto.resolve_threads(8),
            "variants": jotto.engine.runtime.available_kernel_variants(),
            "counts": jotto.comp_num_guesses(words, rule="exact", threads=8).tolist(),
            "counts5": jotto.comp_num_guesses(jotto.load_words("enable", length=5),
                                              rule="exact").tolist()}))
    """)
    env = dict(os.environ, PYTHONPATH=str(target))
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert run.returncode == 0, run.stderr[-3000:]
    import json

    got = json.loads(run.stdout)
    assert got["file"].startswith(str(target))
    assert got["openmp"] is False and got["threads"] == 1
    assert got["variants"] == ["base"]  # JOTTO_KERNELS=base compiled the scalar kernel alone
    assert any("without OpenMP" in w for w in got["warned"])
    words = jotto.load_words("enable", length=4)
    assert got["counts"] == jotto.comp_num_guesses(words, rule="exact").tolist()
    words5 = jotto.load_words("enable", length=5)
    assert got["counts5"] == jotto.comp_num_guesses(words5, rule="exact").tolist()
    first = jotto.WordList.from_words(words.words[:40], rules=words.rules)
    search = _core.BestResponseSearch(first.core, np.ones(40, dtype=np.int64), 2**24)
    value = search.run(0, _core.BS_INF, 0.0, 0)
    assert got["search"] == [value[0], True, search.tree(0, -1)[1].tolist()]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("JOTTO_KERNELS=v9", "JOTTO_KERNELS: no kernel level 'v9'"),
        ("JOTTO_KERNEL_LENGTHS=3;9", "JOTTO_KERNEL_LENGTHS: no specialised length '9'"),
    ],
)
def test_an_unknown_kernel_level_or_length_is_refused_by_name(tmp_path, option, message):
    """JOTTO_KERNELS naming a level this architecture lacks, or JOTTO_KERNEL_LENGTHS a length
    kernels.h does not specialise, stops the build at configure time with a message naming
    it, before anything compiles."""
    _, build = install_core(tmp_path, option, quiet=False)
    assert build.returncode != 0
    assert message in build.stdout + build.stderr


def test_the_build_group_holds_the_build_requirements():
    """pyproject.toml's ``build`` dependency group, which the tests' own builds of the core use
    without isolation, names every requirement of ``[build-system]`` with the same bounds."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    group = set(config["dependency-groups"]["build"])
    missing = [r for r in config["build-system"]["requires"] if r not in group]
    assert not missing, f"[build-system] requires {missing}, which the build group lacks"
