"""The candidate's answer as HTML with the grader's evidence marked (mock report, question page)."""

from __future__ import annotations

from markupsafe import Markup, escape

from torchdojo.grading.feedback import Feedback


def highlight(answer: str, fb: Feedback) -> Markup:
    """The answer as HTML with the evidence spans marked: ``<mark class="hit">`` for key points
    the answer makes, ``<mark class="wrong">`` for contradicted points and stated misconceptions.
    Spans are character offsets into ``answer``; overlapping spans are split into pieces, every
    piece of text is escaped."""
    spans: list[tuple[int, int, str, str]] = []
    for k in fb.key_points:
        if k.evidence is not None and k.status in ("hit", "contradicted"):
            spans.append(
                (
                    k.evidence.start,
                    k.evidence.end,
                    "hit" if k.status == "hit" else "wrong",
                    f"{'Key point' if k.status == 'hit' else 'Contradicts'}: {k.text}",
                )
            )
    for mc in fb.misconceptions:
        if mc.evidence is not None:
            spans.append((mc.evidence.start, mc.evidence.end, "wrong", f"Misconception: {mc.claim}"))
    n = len(answer)
    spans = [(max(0, a), min(n, b), c, t) for a, b, c, t in spans if min(n, b) > max(0, a)]
    cuts = sorted({0, n, *(a for a, *_ in spans), *(b for _, b, *_ in spans)})
    pieces: list[tuple[int, int, tuple]] = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        cover = tuple(s for s in spans if s[0] <= a and b <= s[1])
        if pieces and pieces[-1][2] == cover:
            pieces[-1] = (pieces[-1][0], b, cover)
        else:
            pieces.append((a, b, cover))
    out = []
    for a, b, cover in pieces:
        text = escape(answer[a:b])
        if not cover:
            out.append(str(text))
            continue
        cls = "wrong" if any(c == "wrong" for _, _, c, _ in cover) else "hit"
        title = escape(" · ".join(dict.fromkeys(t for *_, t in cover)))
        out.append(f'<mark class="{cls}" title="{title}">{text}</mark>')
    return Markup("".join(out))
