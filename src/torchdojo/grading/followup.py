"""The one follow-up question aimed at the most important gap in an answer.

Target: the first contradicted key point of the highest weight, else the first missed one of
the highest weight. Question: the entry's own follow-up whose ``probes`` name that point
with a question text; otherwise one composed
from the point, asking for the reasoning rather than the fact.
"""

from __future__ import annotations

from torchdojo.bank.loader import Entry
from torchdojo.grading.feedback import Feedback


def choose_follow_up(entry: Entry, fb: Feedback) -> tuple[str | None, str | None]:
    """(question, key point id it aims at); (None, None) when every key point was made."""
    gaps = [k for k in fb.key_points if k.status != "hit"]
    if not gaps:
        return None, None
    order = {kp.id: n for n, kp in enumerate(entry.meta.key_points)}
    target = min(gaps, key=lambda k: (k.status != "contradicted", -k.weight, order.get(k.id, 0)))
    for f in entry.meta.follow_ups:
        if target.id in f.probes and f.text:
            return f.text, target.id
    point = target.text.rstrip(".")
    if target.status == "contradicted":
        quote = f' You said: "{target.evidence.text}".' if target.evidence else ""
        return (f"Let's check one claim.{quote} How does that square with this: {point}? "
                "Which one is right, and how would you show it?"), target.id
    return (f"You did not cover this: {point}. Why does it hold, and what goes wrong in practice "
            "if you ignore it?"), target.id
