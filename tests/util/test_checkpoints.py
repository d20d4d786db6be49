"""Checkpoint spacing: every so many seconds, but saving never more than a tenth of the time
(on a clock the test moves)."""

from __future__ import annotations

import jotto.util.checkpoints as checkpoints_module
from jotto.util.checkpoints import SAVE_SHARE, Checkpoints


def test_a_slow_save_spaces_the_next_ones_so_saving_takes_a_tenth(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(checkpoints_module.time, "monotonic", lambda: clock[0])
    saves = []

    def save():  # each save takes 2 s of the clock
        saves.append(clock[0])
        clock[0] += 2.0

    cp = Checkpoints(save, seconds=1.0)
    for _ in range(80):  # the run ticks every 0.5 s for 40 s (plus its saves)
        clock[0] += 0.5
        cp.tick()
    assert saves[0] == 101.0  # the first after the given 1 s
    gaps = [b - a for a, b in zip(saves, saves[1:])]
    # after a 2-s save the next comes 18 s after it ended: 2 s of every 20
    assert saves == [101.0, 121.0, 141.0]
    assert 2.0 / min(gaps) <= SAVE_SHARE + 1e-9


def test_a_fast_save_keeps_the_given_spacing(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(checkpoints_module.time, "monotonic", lambda: clock[0])
    saves = []
    cp = Checkpoints(lambda: saves.append(clock[0]), seconds=5.0)
    for _ in range(40):
        clock[0] += 0.5
        cp.tick()
    assert saves == [5.0, 10.0, 15.0, 20.0]
