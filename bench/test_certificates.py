"""Certificates of lower bounds (issue 32): what writing one costs the search, how large it is
and how long the checker takes, on TWL06 (read from ../shared).

Targets (2-core machine):
- 2 letters: certificates for the exact uniform best response and for the game value's lower
  end (the double oracle's), each checked in <= 10 s;
- 3 letters, uniform hider: a certificate of a lower bound >= 6.40 written with <= 25% overhead
  on the search's time, <= 1 GiB on disk, checked in <= 10 minutes.

Overhead is measured on a fixed proof (one pass proving the bound GOAL from an empty memo: the
same states with or without a certificate on one thread), with and without a certificate
alternating over ROUNDS rounds; wall and CPU time ratios.  Timing targets are asserted only if
the machine was idle (load average below 0.5) when the benchmark began.

The checks are timed in CPU seconds as well as wall seconds (the machine may be shared); the
2-letter ones with the compiled checker and with the pure-Python reference, alternating; each
certificate is also trimmed to the records its proof uses (``trim_certificate``: records, bytes
and time before and after).

Run: ``pytest bench/test_certificates.py --benchmark-only -s``.  JOTTO_BENCH_CERT_GOAL (6.30),
JOTTO_BENCH_CERT_ROUNDS (3), JOTTO_BENCH_CERT_BIG (6.40: the bound of the large certificate)
and JOTTO_BENCH_CERT_WORKERS (1: the checker's processes for it) change them.
"""

from __future__ import annotations

import os
import time

import jotto
from jotto.engine import runtime

GOAL = float(os.environ.get("JOTTO_BENCH_CERT_GOAL", "6.30"))
ROUNDS = int(os.environ.get("JOTTO_BENCH_CERT_ROUNDS", "3"))
BIG = float(os.environ.get("JOTTO_BENCH_CERT_BIG", "6.40"))
WORKERS = int(os.environ.get("JOTTO_BENCH_CERT_WORKERS", "1"))


def idle(load: float) -> bool:
    return load < 0.5


def timed(f):
    start, cpu = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - start, time.process_time() - cpu


def trimmed(path, info, name):
    """Trim the certificate at path; its records, bytes and time before and after in info."""
    out = path.with_name(f"trimmed-{path.name}")
    got, info[f"{name}_trim_s"], info[f"{name}_trim_cpu_s"] = timed(
        lambda: jotto.trim_certificate(path, out)
    )
    check, info[f"{name}_trimmed_check_s"], info[f"{name}_trimmed_check_cpu_s"] = timed(
        lambda: jotto.check_certificate(out)
    )
    assert got.check.ok and check.ok and check.bound == got.check.bound
    info[f"{name}_trimmed_records"], info[f"{name}_trimmed_bytes"] = got.kept, out.stat().st_size
    return (
        f"trimmed to {got.kept} records, {out.stat().st_size} bytes in "
        f"{info[f'{name}_trim_cpu_s']:.1f} s CPU, checked in "
        f"{info[f'{name}_trimmed_check_cpu_s']:.1f} s CPU"
    )


def reference_ratio(path, info, name, rounds=2):
    """CPU seconds of the compiled checker and of the reference on one file, alternating."""
    cpu = {False: [], True: []}
    for k in range(rounds):
        for reference in (False, True) if k % 2 == 0 else (True, False):
            check, _, c = timed(lambda: jotto.check_certificate(path, reference=reference))  # noqa: B023
            assert check.ok
            cpu[reference].append(c)
    info[f"{name}_compiled_cpu_s"], info[f"{name}_reference_cpu_s"] = cpu[False], cpu[True]
    return sum(cpu[True]) / sum(cpu[False])


def test_two_letter_certificates(benchmark, twl06, tmp_path):
    words = twl06[2]
    load = os.getloadavg()[0]
    benchmark.group = "certificates"
    info = {}

    def run():
        br_path, do_path = tmp_path / "br.cert", tmp_path / "do.cert"
        br, info["br_search_s"], _ = timed(lambda: jotto.best_response(words, certificate=br_path))
        check, info["br_check_s"], info["br_check_cpu_s"] = timed(
            lambda: jotto.check_certificate(br_path)
        )
        assert check.ok and check.lower == br.lower and br.exact
        info["br_records"], info["br_bytes"] = check.records, br_path.stat().st_size
        sol, info["do_solve_s"], _ = timed(
            lambda: jotto.solve(words, method="double-oracle", progress=False)
        )
        lower, info["do_certificate_s"], _ = timed(lambda: sol.write_certificate(do_path))
        check, info["do_check_s"], info["do_check_cpu_s"] = timed(
            lambda: jotto.check_certificate(do_path)
        )
        assert check.ok and check.lower == lower >= sol.value_bounds[0]
        info["do_records"], info["do_bytes"] = check.records, do_path.stat().st_size
        info["value"] = str(sol.value_bounds[0])
        info["br_ratio"] = reference_ratio(br_path, info, "br")
        info["do_ratio"] = reference_ratio(do_path, info, "do")
        info["br_trim"] = trimmed(br_path, info, "br")
        info["do_trim"] = trimmed(do_path, info, "do")

    benchmark.pedantic(run, rounds=1, iterations=1)
    info.update(
        {"load_before": load, "load_after": os.getloadavg()[0], "kernel": runtime.kernel_variant()}
    )
    benchmark.extra_info.update(info)
    print(
        f"\nTWL06 2 letters: best response {info['br_records']} records, "
        f"{info['br_bytes']} bytes, searched in {info['br_search_s']:.2f} s, checked in "
        f"{info['br_check_s']:.1f} s ({info['br_check_cpu_s']:.1f} s CPU); game value "
        f"{info['value']}: double oracle "
        f"{info['do_solve_s']:.1f} s, certificate (proved again) {info['do_certificate_s']:.1f} "
        f"s, {info['do_records']} records, {info['do_bytes']} bytes, checked in "
        f"{info['do_check_s']:.1f} s ({info['do_check_cpu_s']:.1f} s CPU); the reference "
        f"checker takes {info['br_ratio']:.1f}x and {info['do_ratio']:.1f}x the CPU time; "
        f"best response {info['br_trim']}; game value {info['do_trim']}; load average "
        f"{load:.2f} before, {info['load_after']:.2f} after, kernel {info['kernel']}"
    )
    if idle(load):
        assert info["br_check_s"] <= 10 and info["do_check_s"] <= 10


def test_three_letter_overhead(benchmark, twl06, tmp_path):
    words = twl06[3]
    load = os.getloadavg()[0]
    benchmark.group = "certificates"
    wall = {False: [], True: []}
    cpu = {False: [], True: []}
    sizes = []

    def rounds():
        for k in range(ROUNDS):
            for cert in (False, True):
                path = tmp_path / f"r{k}.cert"
                target = path if cert else None
                br, w, c = timed(
                    lambda target=target: jotto.best_response(
                        words, upper_bound=GOAL, threads=1, certificate=target
                    )
                )
                assert br.lower >= GOAL
                wall[cert].append(w)
                cpu[cert].append(c)
                if cert:
                    sizes.append(path.stat().st_size)
                    path.unlink()

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    ratio = sum(wall[True]) / sum(wall[False])
    cpu_ratio = sum(cpu[True]) / sum(cpu[False])
    benchmark.extra_info.update(
        {
            "goal": GOAL,
            "rounds": ROUNDS,
            "wall_without": wall[False],
            "wall_with": wall[True],
            "cpu_without": cpu[False],
            "cpu_with": cpu[True],
            "wall_ratio": ratio,
            "cpu_ratio": cpu_ratio,
            "bytes": sizes,
            "load_before": load,
            "load_after": os.getloadavg()[0],
            "kernel": runtime.kernel_variant(),
        }
    )
    print(
        f"\n3-letter proof of {GOAL} (one thread), {ROUNDS} rounds alternating: without a "
        f"certificate {sum(wall[False]):.1f} s wall / {sum(cpu[False]):.1f} s CPU, with "
        f"{sum(wall[True]):.1f} s / {sum(cpu[True]):.1f} s: wall {ratio:.3f}x, CPU "
        f"{cpu_ratio:.3f}x; certificate {sizes[0]} bytes; load average {load:.2f} before, "
        f"{os.getloadavg()[0]:.2f} after, kernel {runtime.kernel_variant()}"
    )
    if idle(load):
        assert ratio <= 1.25


def test_three_letter_certificate_of_640(benchmark, twl06, tmp_path):
    words = twl06[3]
    load = os.getloadavg()[0]
    benchmark.group = "certificates"
    path = tmp_path / "big.cert"
    info = {}

    def run():
        br, info["search_s"], info["search_cpu_s"] = timed(
            lambda: jotto.best_response(words, upper_bound=BIG, threads=2, certificate=path)
        )
        assert br.lower >= BIG
        info["lower"], info["lower_float"], info["nodes"] = str(br.lower), float(br.lower), br.nodes
        info["bytes"] = path.stat().st_size
        check, info["check_s"], info["check_cpu_s"] = timed(
            lambda: jotto.check_certificate(path, workers=WORKERS)
        )
        assert check.ok and check.lower == br.lower
        info["records"] = check.records
        info["trim"] = trimmed(path, info, "big")

    benchmark.pedantic(run, rounds=1, iterations=1)
    info.update(
        {"load_before": load, "load_after": os.getloadavg()[0], "kernel": runtime.kernel_variant()}
    )
    benchmark.extra_info.update(info)
    print(
        f"\n3 letters: a certificate of {info['lower']} = {info['lower_float']:.4f} "
        f"({info['nodes']} states, {info['search_s']:.0f} s on 2 threads): "
        f"{info['records']} records, {info['bytes'] / 2**20:.1f} MiB, checked in "
        f"{info['check_s']:.0f} s ({info['check_cpu_s']:.0f} s CPU in this process) on "
        f"{WORKERS} processes; {info['trim']}; load average {load:.2f} before, "
        f"{info['load_after']:.2f} after, kernel {info['kernel']}"
    )
    assert info["bytes"] <= 2**30
    if idle(load):
        assert info["check_s"] <= 600
