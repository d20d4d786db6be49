"""The plots as pictures: rendered with matplotlib's Agg renderer, every text's bounding box must
stay inside the figure and clear of every other text and of the curves; drawing a plot must not
touch pyplot or the user's backend."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import jotto
from jotto.players import make_guesser
from jotto.players.evaluation import evaluate

matplotlib = pytest.importorskip("matplotlib")
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402


def _drawn_tick_labels(fig):
    """Tick labels matplotlib draws: those of ticks inside the view (others are kept, unseen)."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            span = (high - low) * 1e-9
            for ticks in (axis.get_major_ticks(), axis.get_minor_ticks()):
                for tick in ticks:
                    if low - span <= tick.get_loc() <= high + span:
                        yield tick.label1


def _texts(fig, renderer):
    tick_labels = {
        id(t)
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for t in axis.get_ticklabels(which="both")
    }
    shown = [t for t in fig.findobj(Text) if id(t) not in tick_labels]
    shown += list(_drawn_tick_labels(fig))
    return [
        (t.get_text(), t.get_window_extent(renderer))
        for t in shown
        if t.get_visible() and t.get_text().strip()
    ]


def _curve_points(fig):
    """Display coordinates of every plotted line's points lying inside its axes."""
    pts = []
    for ax in fig.axes:
        for line in ax.findobj(Line2D):
            x, y = line.get_xdata(orig=False), line.get_ydata(orig=False)
            xy = np.column_stack([np.asarray(x, float), np.asarray(y, float)])
            if len(xy) == 0 or line.get_transform() != ax.transData:
                continue  # axis lines and ticks are not curves
            xy = xy[np.isfinite(xy).all(axis=1)]
            d = ax.transData.transform(xy)
            box = ax.bbox
            inside = (
                (d[:, 0] >= box.x0)
                & (d[:, 0] <= box.x1)
                & (d[:, 1] >= box.y0)
                & (d[:, 1] <= box.y1)
            )
            pts.append(d[inside])
    return np.concatenate(pts) if pts else np.zeros((0, 2))


def assert_clean(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = _texts(fig, renderer)
    assert len(texts) >= 5  # title, axis labels, ticks, legend: something was checked
    frame = fig.bbox
    for text, box in texts:
        assert (
            frame.x0 - 1 <= box.x0
            and box.x1 <= frame.x1 + 1
            and frame.y0 - 1 <= box.y0
            and box.y1 <= frame.y1 + 1
        ), f"{text!r} is cut off"
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        assert not box_a.overlaps(box_b), f"{a!r} overlaps {b!r}"
    points = _curve_points(fig)
    bars = [p.get_window_extent(renderer) for ax in fig.axes for p in ax.patches]
    assert len(points) + len(bars) > 0
    for text, box in texts:
        hit = (
            (points[:, 0] > box.x0)
            & (points[:, 0] < box.x1)
            & (points[:, 1] > box.y0)
            & (points[:, 1] < box.y1)
        )
        assert not hit.any(), f"{text!r} lies on a curve"
        assert not any(box.overlaps(bar) for bar in bars), f"{text!r} lies on a bar"


@pytest.fixture(scope="module", params=[2, 3])
def solution(request):
    return jotto.solve(request.param, iterations=300 if request.param == 2 else 60, progress=False)


def test_convergence_plot_is_clean(solution, tmp_path):
    before = matplotlib.get_backend()
    import matplotlib.pyplot as plt

    open_before = plt.get_fignums()
    fig = solution.plot(tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 0
    assert matplotlib.get_backend() == before and plt.get_fignums() == open_before
    assert_clean(fig)
    ax = fig.axes[0]
    low, high = ax.get_ylim()
    eps = solution.history.epsilon
    # the axis spans epsilon (within a factor of 2), not the component curves' dips
    assert eps.min() / 2 <= low * 1.0000001 and low >= eps[eps > 0].min() / 2.0000001
    assert high >= eps.max()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert f"t* = {solution.t_star}, epsilon = {solution.epsilon:.4f}" in labels


def test_bundled_convergence_plot_is_clean(tmp_path):
    from jotto.play.sessions import bundled_solution

    assert_clean(bundled_solution(jotto.load_words()).plot(tmp_path / "b.svg"))


@pytest.mark.parametrize("spec", ["norvig:max", "random:seed=1"])
def test_histogram_plot_is_clean(spec, tmp_path):
    words = jotto.load_words("sgb", anagrams="norvig")
    ev = evaluate(words, make_guesser(spec, words))
    fig = ev.plot_histogram(tmp_path / "h.png")
    assert (tmp_path / "h.png").stat().st_size > 0
    assert_clean(fig)


def test_log_axis_has_decimal_tick_labels_and_epsilon_on_top(solution):
    fig = solution.plot()
    ax = fig.axes[0]
    FigureCanvasAgg(fig).draw()
    labels = [t.get_text() for t in _drawn_tick_labels(fig) if t.get_text()]
    y_labels = [t.get_text() for t in ax.yaxis.get_ticklabels(which="both") if t.get_text()]
    assert y_labels and all("10^" not in x and "$" not in x and "e" not in x for x in y_labels)
    for x in y_labels:
        float(x)  # plain decimals
    assert labels
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert lines["epsilon"].get_zorder() > max(
        line.get_zorder() for name, line in lines.items() if name != "epsilon"
    )
    assert solution.words.describe() in ax.get_title()


def test_double_oracle_plot_is_the_value_interval(tmp_path):
    words = jotto.load_words(length=2)
    sol = jotto.solve(words, method="double-oracle", iterations=40)
    fig = sol.plot(tmp_path / "d.png")
    assert (tmp_path / "d.png").stat().st_size > 0
    assert_clean(fig)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    upper = lines["upper bound (guesser's worst case)"]
    lower = lines["lower bound (proved)"]
    assert list(upper.get_xdata()) == list(range(1, sol.rounds + 1))
    assert list(upper.get_ydata()) == sol.history["upper"].tolist()
    assert list(lower.get_ydata()) == sol.history["lower"].tolist()
    assert float(sol.value_bounds[1]) == upper.get_ydata()[-1]
    assert words.describe() in ax.get_title() and ax.get_xlabel() == "round"


def test_histogram_title_is_the_spec_and_the_list():
    words = jotto.load_words("sgb", anagrams="norvig")
    fig = jotto.evaluate(words, "norvig:max").plot_histogram()
    title = fig.axes[0].get_title()
    assert title.startswith(f"norvig:max:consistent on {words.describe()}\n")
