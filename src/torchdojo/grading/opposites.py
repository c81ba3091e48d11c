"""Opposite words that reverse a claim without a "not" ("accumulates" → "overwrites").

The grader reads negation polarity from "not/never/no/…n't" (:mod:`.text`); many reversed
answers use an opposite word instead. :func:`reversed_terms` finds a word of the rubric's
point whose opposite the candidate used. Word lists, not a parser.
"""

from __future__ import annotations

#: Opposites that reverse a claim about PyTorch without a "not": each group's words are
#: interchangeable, and the two groups of a pair are opposites.
ANTONYMS: list[tuple[frozenset[str], frozenset[str]]] = [
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in [
        ("reverse reverse-mode", "forward-mode"),
        ("accumulate accumulates accumulated accumulating adds added summed", "overwrite overwrites overwritten "
         "overwriting replace replaces replaced replacing resets"),
        ("view views alias aliases", "copy copies copied copying"),
        ("share shares shared sharing", "copy copies copied allocates"),
        ("always", "never sometimes"),
        ("before", "after"),
        ("increase increases increasing increased rises rising grows growing", "decrease decreases decreasing "
         "decreased falls falling drops dropping shrinks shrinking"),
        ("more", "less fewer"),
        ("larger bigger higher greater", "smaller lower less"),
        ("faster quicker", "slower"),
        ("true", "false"),
        ("enable enables enabled", "disable disables disabled"),
        ("leaf leaves", "non-leaf intermediate"),
        ("contiguous", "non-contiguous"),
        ("deterministic reproducible", "nondeterministic non-deterministic random"),
        ("synchronous synchronously blocking", "asynchronous asynchronously non-blocking async"),
        ("largest biggest highest", "smallest lowest"),
        ("fastest quickest", "slowest"),
        ("per-tensor per-parameter local", "global"),
        ("first", "last"),
        ("left leftmost leading", "right rightmost trailing"),
        ("exact exactly", "approximate approximately approximation"),
        ("keeps kept keep retains retained", "frees freed discards discarded releases released drops"),
        ("dense", "sparse"),
        ("static", "dynamic"),
        ("same identical", "different"),
        ("independent", "shared"),
        ("required mandatory", "optional"),
        ("includes include included", "excludes exclude excluded skips skipped ignores ignored"),
        ("ascending", "descending"),
        ("biased", "unbiased"),
        ("stable", "unstable"),
        ("cheap cheaper", "expensive costly"),
        ("safe", "unsafe"),
        ("minimum min", "maximum max"),
        ("inside within", "outside"),
        ("new fresh", "existing"),
        ("train training", "eval evaluation inference"),
        ("on", "off"),
        ("one once single", "twice multiple every each"),
        ("rows row", "columns column"),
        ("sum", "mean average"),
    ]
]


def reversed_terms(point: list[str], said: list[str]) -> tuple[str, str] | None:
    """A word of ``point`` whose opposite is in ``said`` (and not the word itself), if any:
    ("accumulates", "overwrites") for "grad accumulates" vs "backward overwrites .grad"."""
    p, s = set(point), set(said)
    for a, b in ANTONYMS:
        for x, y in ((a, b), (b, a)):
            hit_p = x & p
            hit_s = y & s
            if hit_p and hit_s and not (x & s) and not (y & p):
                return next(iter(hit_p)), next(iter(hit_s))
    return None
