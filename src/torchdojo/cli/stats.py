"""``torchdojo stats``: study statistics in the terminal (Rich tables and bars).

A thin face over :meth:`torchdojo.core.Dojo.stats` (definitions: :mod:`torchdojo.practice.stats`).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from torchdojo.practice.stats import MAX_DAYS, Rate

console = Console(highlight=False)

BAR_WIDTH = 40


def _bar(value: int, top: int, style: str) -> Text:
    """A horizontal bar of ``value`` out of ``top`` in at most BAR_WIDTH cells (▏ for a non-zero sliver)."""
    if value <= 0 or top <= 0:
        return Text("")
    cells = value * BAR_WIDTH / top
    return Text("█" * int(cells) or "▏", style=style)


def _pct(r: Rate) -> str:
    return f"{r.percent} (n={r.n})"


def _fmt(x: float | None, spec: str) -> str:
    return "—" if x is None else format(x, spec)


def stats(days: Annotated[int, typer.Option("--days", min=1, max=MAX_DAYS,
                                            help=f"days of reviews per day to show (1–{MAX_DAYS}); the forecast is 30 days")] = 30) -> None:
    """Study statistics: reviews and time per day, the due forecast, true retention (young and
    mature), per-topic memory, the last year's activity, mock interview scores, challenges solved.
    Days are UTC days."""
    from torchdojo.core import Dojo

    st = Dojo().stats(days=days)
    act, fc, ret = st.activity, st.forecast, st.retention

    console.print(f"[bold]Study statistics[/] at {st.now:%Y-%m-%d %H:%M} UTC (days are UTC days)")
    window = f" · last {days} days {act.reviews}" if days != 7 else ""
    console.print(f"Reviews: today {act.today} · last 7 days {act.last(7)}{window} · days studied {act.days_studied}/{days}")
    console.print(f"Time: {act.minutes:.1f} min in the last {days} days"
                  + (f" ({act.untimed} review(s) without a recorded duration count 0 min)" if act.untimed else ""))

    t = Table(title=f"Reviews per day (last {days} days)", expand=False)
    t.add_column("day (UTC)", no_wrap=True)
    t.add_column("reviews", justify="right")
    t.add_column("min", justify="right")
    t.add_column("", no_wrap=True)
    for d in act.days:
        t.add_row(d.day.isoformat(), str(d.reviews), f"{d.minutes:.1f}", _bar(d.reviews, act.max_reviews, "cyan"))
    console.print(t)

    t = Table(title=f"Due forecast (next {len(fc.days)} days; today includes {fc.overdue} overdue)", expand=False)
    t.add_column("day (UTC)", no_wrap=True)
    t.add_column("due", justify="right")
    t.add_column("", no_wrap=True)
    for d in fc.days:
        label = "today" if d.offset == 0 else "tomorrow" if d.offset == 1 else d.day.isoformat()
        t.add_row(label, str(d.due), _bar(d.due, fc.max_due, "magenta"))
    console.print(t)
    console.print(f"Due: today {fc.today} · tomorrow {fc.tomorrow} · next 7 days {fc.next(7)} "
                  f"· next {len(fc.days)} days {fc.total}")

    t = Table(title="True retention (reviews of cards in Review state not rated Again)")
    t.add_column("")
    t.add_column("last 30 days", justify="right")
    t.add_column("all time", justify="right")
    for label, a, b in (("young (< 21 d)", ret.last_30.young, ret.all_time.young),
                        ("mature (≥ 21 d)", ret.last_30.mature, ret.all_time.mature),
                        ("total", ret.last_30.total, ret.all_time.total)):
        t.add_row(label, _pct(a), _pct(b))
    console.print(t)

    t = Table(title="By topic")
    t.add_column("topic")
    t.add_column("learned", justify="right")
    t.add_column("true retention", justify="right")
    t.add_column("mean stability (d)", justify="right")
    t.add_column("mean retrievability", justify="right")
    for tp in st.topics:
        t.add_row(tp.name, str(tp.learned), _pct(tp.retention), _fmt(tp.mean_stability, ".1f"),
                  "—" if tp.mean_retrievability is None else f"{100 * tp.mean_retrievability:.0f}%")
    console.print(t)

    hm = st.heat_map
    console.print(f"Last {len(hm.days)} days: {hm.reviews} reviews on {hm.days_studied} days "
                  f"(busiest day: {hm.max_reviews})")

    if st.mocks:
        t = Table(title="Mock interview scores")
        t.add_column("#", justify="right")
        t.add_column("finished (UTC)")
        t.add_column("level")
        t.add_column("score", justify="right")
        t.add_column("", no_wrap=True)
        for m in st.mocks:
            t.add_row(str(m.mock_id), f"{m.finished:%Y-%m-%d}", m.level, f"{m.score:.0f}", _bar(round(m.score), 100, "green"))
        console.print(t)
    else:
        console.print("Mock interviews: none graded yet")

    ch = st.challenges
    t = Table(title=f"Challenges: {ch.solved} solved, {ch.attempted} attempted, of {ch.total}")
    t.add_column("topic")
    t.add_column("solved", justify="right")
    t.add_column("attempted", justify="right")
    t.add_column("total", justify="right")
    for c in ch.topics:
        t.add_row(c.name, str(c.solved), str(c.attempted), str(c.total))
    console.print(t)
