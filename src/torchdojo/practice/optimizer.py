"""FSRS parameter optimisation from the learner's own review log (``fsrs.Optimizer``).

``fsrs.Optimizer(review_logs).compute_optimal_parameters()`` fits the 21 FSRS weights by
gradient descent on the binary log loss of predicted retrievability against recall (a rating
other than Again), over each card's first 64 reviews, counting only reviews a day or more after
the card's previous one. It imports torch, so :func:`optimize` runs it in a child process
(``python -m torchdojo.practice.optimizer``): the web app never imports torch.

**Minimum: 512 such reviews** (:data:`MIN_REVIEWS`). fsrs 6 returns its default parameters
unchanged below one mini-batch (512 reviews that count), so fewer cannot be optimised; Anki asks
for at least 400 reviews for the same reason. :func:`training_reviews` counts them the way fsrs does.

The log loss reported before and after is computed here in plain Python, by the same rule as the
optimiser's own batch loss (``Optimizer._compute_batch_loss``, private, so not called): mean binary
cross-entropy over the reviews that count, each log term clamped at -100 as torch's ``BCELoss``
does. A test checks the two agree. A lower log loss means the parameters predict this learner's
recall better.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from fsrs import Card, Rating, Scheduler

from torchdojo.store.models import ReviewLogRow

#: Reviews that count for training (a day or more after the card's previous review) needed to optimise.
MIN_REVIEWS = 512
#: fsrs trains on at most this many first reviews of each card.
MAX_SEQ_LEN = 64
#: Seconds the child process may take.
TIMEOUT_S = 600


class OptimizerError(RuntimeError):
    """The optimiser could not run (or returned nothing usable); the message says why."""


class NotEnoughReviewsError(OptimizerError):
    """Too few reviews count for training (see :data:`MIN_REVIEWS`)."""


@dataclass(frozen=True)
class Optimization:
    """The result of :func:`optimize`. ``loss_before``: log loss of the log under the
    parameters in use; ``loss_after``: under ``parameters``; ``improved``: after < before."""

    reviews: int
    training_reviews: int
    old_parameters: tuple[float, ...]
    parameters: tuple[float, ...]
    loss_before: float
    loss_after: float

    @property
    def improved(self) -> bool:
        return self.loss_after < self.loss_before


#: One review as the optimiser sees it: (int card id, rating 1–4, UTC time, duration ms or None).
Review = tuple[int, int, datetime, int | None]


def as_reviews(rows: Iterable[ReviewLogRow]) -> list[Review]:
    """Review-log rows → :data:`Review` tuples; card ids (strings) mapped to ints 0, 1, … in
    order of first appearance (fsrs needs int card ids)."""
    ids: dict[str, int] = {}
    return [(ids.setdefault(r.question_id, len(ids)), r.rating, r.reviewed_at, r.duration_ms) for r in rows]


def _histories(reviews: Iterable[Review]) -> list[list[Review]]:
    """Per card (by id), its first :data:`MAX_SEQ_LEN` reviews in time order (as fsrs sorts them)."""
    by_card: dict[int, list[Review]] = {}
    for r in reviews:
        by_card.setdefault(r[0], []).append(r)
    return [sorted(h, key=lambda r: r[2])[:MAX_SEQ_LEN] for _, h in sorted(by_card.items())]


def _walk(reviews: Iterable[Review], scheduler: Scheduler):
    """Yield (predicted retrievability, recalled) for each review that counts for training."""
    for history in _histories(reviews):
        card = Card(card_id=0, due=history[0][2])
        for _, rating, when, _ in history:
            if card.last_review is not None and (when - card.last_review).days > 0:
                yield scheduler.get_card_retrievability(card, when), rating != Rating.Again
            card, _ = scheduler.review_card(card, Rating(rating), when)


def training_reviews(reviews: Iterable[Review]) -> int:
    """How many reviews count for training: those a day or more after the card's previous
    review, among each card's first 64 (fsrs's rule; the parameters do not change the count)."""
    return sum(1 for _ in _walk(reviews, Scheduler(enable_fuzzing=False)))


def log_loss(reviews: Iterable[Review], parameters: Sequence[float] | None = None) -> float:
    """Mean binary log loss of predicted retrievability vs recall over the reviews that count
    (``parameters``: None = fsrs defaults). Raises :class:`NotEnoughReviewsError` when none count."""
    sched = Scheduler(enable_fuzzing=False) if parameters is None else Scheduler(parameters=parameters,
                                                                                  enable_fuzzing=False)
    total, n = 0.0, 0
    for p, recalled in _walk(reviews, sched):
        q = p if recalled else 1.0 - p
        total -= max(math.log(q), -100.0) if q > 0 else -100.0
        n += 1
    if n == 0:
        raise NotEnoughReviewsError("no review came a day or more after an earlier review of its card")
    return total / n


def fit(reviews: Sequence[Review]) -> list[float]:
    """``fsrs.Optimizer(...).compute_optimal_parameters()`` in this process (imports torch)."""
    from fsrs import ReviewLog
    from fsrs.optimizer import Optimizer

    logs = [ReviewLog(card_id=c, rating=Rating(r), review_datetime=t, review_duration=d) for c, r, t, d in reviews]
    return [float(x) for x in Optimizer(logs).compute_optimal_parameters()]


def fit_in_child(reviews: Sequence[Review], timeout: float = TIMEOUT_S) -> list[float]:
    """:func:`fit` in a child Python process (so torch stays out of this one)."""
    payload = json.dumps([[c, r, t.isoformat(), d] for c, r, t, d in reviews])
    try:
        proc = subprocess.run([sys.executable, "-m", "torchdojo.practice.optimizer"], input=payload,
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise OptimizerError(f"the FSRS optimiser took more than {timeout:.0f} s and was stopped") from None
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise OptimizerError(f"the FSRS optimiser failed: {tail}")
    try:
        params = [float(x) for x in json.loads(proc.stdout)]
    except (ValueError, TypeError):
        raise OptimizerError("the FSRS optimiser returned no parameters") from None
    return params


def require_enough(reviews: Sequence[Review]) -> int:
    """How many of ``reviews`` count for training (:func:`training_reviews`); raises
    :class:`NotEnoughReviewsError` below :data:`MIN_REVIEWS` (a cheap check: no torch)."""
    counted = training_reviews(reviews)
    if counted < MIN_REVIEWS:
        raise NotEnoughReviewsError(
            f"optimising needs at least {MIN_REVIEWS} reviews that came a day or more after the card's "
            f"previous review; your log has {counted} (of {len(reviews)} reviews). Keep reviewing and try again later.")
    return counted


def optimize(rows: Sequence[ReviewLogRow], current: Sequence[float] | None) -> Optimization:
    """Fit FSRS parameters to ``rows`` (a learner's review log) and compare them with
    ``current`` (None: fsrs defaults) by log loss. Raises :class:`NotEnoughReviewsError` below
    :data:`MIN_REVIEWS` reviews that count, :class:`OptimizerError` when the optimiser fails."""
    reviews = as_reviews(rows)
    counted = require_enough(reviews)
    old = tuple(current) if current is not None else tuple(Scheduler().parameters)
    new = tuple(fit_in_child(reviews))
    return Optimization(reviews=len(reviews), training_reviews=counted, old_parameters=old, parameters=new,
                        loss_before=log_loss(reviews, old), loss_after=log_loss(reviews, new))


def _main() -> None:
    data = json.load(sys.stdin)
    reviews = [(int(c), int(r), datetime.fromisoformat(t), d) for c, r, t, d in data]
    json.dump(fit(reviews), sys.stdout)


if __name__ == "__main__":
    _main()
