"""The default offline grader: sentence embeddings (all-MiniLM-L6-v2) checked against the
entry's rubric, with explicit checks for what embeddings get wrong.

Grading is two steps, so the evidence is kept and the thresholds can be calibrated:

1. :meth:`EmbeddingGrader.analyse` (the only step that runs the model): the answer is cut into
   sentences and clauses (:mod:`.text`); each unit is embedded once; for every key point the
   best-matching unit over the point's text and its ``phrasings`` gives a similarity and the
   evidence span; every misconception gets the unit most similar to its claim, and how much
   more similar that unit is to the claim than to its correction; the whole answer is compared
   with the question and short answer (relevance).
2. :func:`score` (pure arithmetic over the analysis and :class:`Params`) decides:

   - **contradicted** key points: only when signals agree — a unit near the point, nearer one
     of its written ``contradictions`` by ``rev_margin``, and a word-level sign (an opposite
     word the contradiction uses, the contradiction's own words, its negation); or a near copy
     of the point's clause with the other negation parity that a contradiction also matches; or
     a stated misconception whose correction is this point. A stray "never" is not enough.
   - **misconceptions** stated: a unit close to the claim, clearly closer to the claim than to
     the correction, and not negating it ("it is *not* true that backward replaces .grad").
   - **keyword stuffing**: few function words (a list of terms is not a claim), or the same
     rubric terms repeated; capped at a low score.
   - **off-topic**: low relevance to the question and no key point near; score 0.
   - **vague**: a long answer with no unit that makes any key point precisely; capped.
   - the score: weighted key-point credit (a linear ramp of similarity between ``lo`` and
     ``hi``, 0 when contradicted), minus penalties for misconceptions and contradictions; an
     answer that states a misconception or contradicts an essential point cannot reach
     "excellent".
   - **confidence**: low when the score sits near a band boundary, when weighty key points sit
     near their hit threshold (each such point is ``uncertain`` too), or when signals disagree;
     below ``uncertain_below`` the faces print "uncertain" instead of a number.

The thresholds in :data:`DEFAULT` were calibrated on the *dev* half of the labelled set in
``bench/grader_eval`` and are reported on the held-out half by ``bench/grader.py``
(see ``docs/grading.md``). Behavioral answers also get STAR checks and system-design answers
rubric coverage checks (:mod:`.structure`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace

import numpy as np

from torchdojo.bank.loader import Entry
from torchdojo.grading import structure
from torchdojo.grading.feedback import Feedback, KeyPointResult, MisconceptionResult, Span, band_of
from torchdojo.grading.followup import choose_follow_up
from torchdojo.grading.model import Encoder
from torchdojo.grading.opposites import reversed_terms
from torchdojo.grading.text import STOP_WORDS, Unit, clauses, negation_count, stop_ratio, units, words


@dataclass(frozen=True)
class Params:
    """Calibrated thresholds (cosine similarities in [-1, 1]; scores 0–100)."""

    lo: float = 0.30  # similarity with no credit (shifted per point by its calibration, see ``cal``)
    hi: float = 0.80  # similarity with full credit
    hit: float = 0.60  # similarity to call a key point "hit" (the middle of the credit ramp)
    cal: float = 1.0  # how far each point's ramp follows its own calibration (0: one ramp for all)
    rev_close: float = 0.50  # a reversal: a unit this close to the point…
    rev_margin: float = 0.06  # …this much closer to one of its written contradictions…
    # …and a word-level sign (opposite word, the contradiction's own words, its negation)
    neg_sim: float = 0.70  # a clause this close to the point's clause, with the other negation parity,
    # and no farther from a written contradiction than from the point (less 0.05), negates it
    mc_sim: float = 0.85  # a unit this close to a misconception's claim…
    mc_sim_rel: float = 0.65  # …or this close and clearly closer to the claim than to any key point
    mc_over_kp: float = 0.10
    mc_margin: float = 0.00  # …and this much closer to the claim than to its correction states it
    mc_penalty: float = 25.0
    contra_penalty: float = 4.0  # per weight unit of a contradicted key point
    flawed_cap: int = 45  # best score when a misconception or enough contradictions are stated
    cap_contradictions: int = 2  # contradicted points (any weight) that trigger flawed_cap
    stuffing_stop: float = 0.18  # share of function words below which an answer is a term list…
    stuffing_list: float = 0.5  # …or share of comma-separated pieces of at most 3 words…
    stuffing_rubric: float = 0.3  # …when this share of its content words are the rubric's terms
    stuffing_cap: int = 10
    offtopic_rel: float = 0.50  # relevance (answer vs question + short answer) below this…
    offtopic_para: float = 0.0  # …and this far below what the points' plain phrasings reach…
    offtopic_kp: float = 0.60  # …with no key point above this is off-topic
    vague_kp: float = 0.55  # long answers whose best key point stays below this…
    vague_specific: float = 0.12  # …and with few specific words (numbers, code, rubric terms) are vague
    vague_words: int = 30
    vague_cap: int = 15
    kp_doubt: float = 0.05  # a key point this close to its hit threshold is uncertain
    band_doubt: float = 6.0  # a score this close to a band boundary…
    uncertain_below: float = 0.5


DEFAULT = Params()


@dataclass
class KPMatch:
    id: str
    text: str
    weight: int
    sim: float
    unit: Unit | None
    ref_text: str  # the clause of the point's texts closest to the answer's best leaf unit
    ref_neg: int
    clause_sim: float = 0.0  # similarity of that clause pair
    clause: Unit | None = None  # the answer's leaf unit (clause or unsplit sentence) of the pair
    own: float = 0.6  # similarity the point's own phrasings reach to its other texts (median, leave-one-out)
    other: float = 0.4  # highest similarity another point's text of the entry reaches to this point's texts
    reversals: list[Reversal] = field(default_factory=list)  # units closer to a written contradiction


@dataclass
class Reversal:
    """A unit of the answer that may state one of the point's written ``contradictions``."""

    unit: Unit
    point_sim: float  # best similarity of the unit to the point's text and phrasings
    contra_sim: float  # best similarity of the unit to one of the point's contradictions
    signal: str  # the word-level sign that agrees ("" when none): negation / opposite word / the contradiction's words
    contradiction: str = ""  # the written contradiction it is closest to


@dataclass
class MCMatch:
    claim: str
    correction: str
    sim: float
    margin: float  # sim(unit, claim) - sim(unit, correction)
    unit: Unit | None
    claim_neg: int
    corr_to_kp: list[float]  # similarity of the correction to each key point
    clause: Unit | None = None  # the best-matching leaf unit, where polarity is read
    over_kp: float = 0.0  # sim(unit, claim) - the unit's best similarity to any key point
    claim_words: frozenset[str] = frozenset()  # words of the claim that neither its correction nor the rubric uses


@dataclass
class Analysis:
    """What the model saw in one answer (everything :func:`score` needs)."""

    entry_id: str
    answer: str
    units: list[Unit]
    kps: list[KPMatch]
    mcs: list[MCMatch]
    relevance: float
    n_words: int
    stop_ratio: float
    repeat_ratio: float
    para_relevance: float = 0.35  # lower quartile of the relevance of the points' plain-language phrasings
    rubric_share: float = 0.0  # share of the answer's content words that are the rubric's words
    list_ratio: float = 0.0  # share of comma-separated pieces of at most 3 words (a list of terms)
    specific_ratio: float = 0.0  # share of words that are specific: numbers, code, the rubric's terms
    checks: list = field(default_factory=list)
    structure_score: float | None = None


class EmbeddingGrader:
    """Grades free-text answers offline on CPU (see the module docstring).

    ``grade(entry, answer)`` → :class:`Feedback`. The model loads on first use (or
    :meth:`warm_up`); raises :class:`torchdojo.grading.model.ModelUnavailable` if it cannot.
    """

    name = "embedding:all-MiniLM-L6-v2"

    def __init__(self, params: Params = DEFAULT, encoder: Encoder | None = None) -> None:
        self.params = params
        self.encoder = encoder or Encoder()
        self._rubrics: dict[str, dict] = {}
        self._lock = threading.Lock()

    def forget(self, entry_id: str) -> None:
        """Drop the cached rubric of ``entry_id`` (an own card the learner may have edited)."""
        with self._lock:
            self._rubrics.pop(entry_id, None)

    def warm_up(self) -> None:
        """Load the model and run it once (the first call is slower)."""
        self.encoder.encode(["warm up the sentence encoder"])

    # -- step 1: the model ---------------------------------------------------------------
    def _rubric(self, entry: Entry) -> dict:
        r = self._rubrics.get(entry.id)
        if r is not None:
            return r
        m = entry.meta
        kp_texts = [[k.text, *k.phrasings] for k in m.key_points]
        # clauses of each point, for negation polarity ("…, otherwise no graph is recorded"): the
        # point's own wording only, since phrasings say it loosely, often with a "not" in them
        kp_clause_texts = [list(dict.fromkeys(u.text for u in clauses(ts[0]))) for ts in kp_texts]
        flat = [t for ts in kp_texts for t in ts]
        mc_texts = [t for mc in m.misconceptions for t in (mc.claim, mc.correction)]
        ctx = [m.title, m.short_answer]
        flat_clauses = [c for cl in kp_clause_texts for c in cl]
        contra = [list(k.contradictions) for k in m.key_points]
        flat_contra = [c for cs in contra for c in cs]
        emb = self.encoder.encode_cached(flat + mc_texts + ctx + flat_clauses + flat_contra)  # one pass
        kp_emb, i = [], 0
        for ts in kp_texts:
            kp_emb.append(emb[i:i + len(ts)])
            i += len(ts)
        mc_emb = emb[i:i + len(mc_texts)]
        i += len(mc_texts)
        ctx_emb = emb[i:i + len(ctx)]
        i += len(ctx)
        kp_clauses = []
        for cl in kp_clause_texts:
            kp_clauses.append((cl, emb[i:i + len(cl)], [negation_count(c) for c in cl]))
            i += len(cl)
        kp_contra = []
        # words the entry uses to say what is right: a reversal's own words are the others
        entry_words = set(words(m.short_answer)) | set(words(m.title)) | STOP_WORDS
        for k in m.key_points:
            entry_words |= {w for t in (k.text, *k.phrasings) for w in words(t)}
        for k, cs in zip(m.key_points, contra, strict=True):
            point_words = {w for t in (k.text, *k.phrasings) for w in words(t)}
            said_wrong = {w for c in cs for w in words(c)}
            kp_contra.append((cs, emb[i:i + len(cs)], [negation_count(c) for c in cs],
                              [frozenset(set(words(c)) - entry_words) for c in cs],
                              frozenset(point_words - said_wrong - STOP_WORDS)))
            i += len(cs)
        own, other = _calibration(kp_emb)
        # how near the question a single plain-language phrasing of a point is (its lower quartile)
        phr = [e[1:] for e in kp_emb if len(e) > 1]
        phr_rel = np.max(np.concatenate(phr) @ ctx_emb.T, 1) if phr else np.array([0.35])
        para_rel = float(np.percentile(phr_rel, 25))
        kp_main = np.stack([e[0] for e in kp_emb])
        corr = mc_emb[1::2]
        rubric_words = set(STOP_WORDS) | set(words(m.title))
        for k in m.key_points:
            rubric_words |= set(words(k.text))
        r = {"rubric_words": frozenset(rubric_words), "kp_texts": kp_texts, "kp_emb": kp_emb, "mc_emb": mc_emb,
             "ctx_emb": ctx_emb, "kp_clauses": kp_clauses, "kp_contra": kp_contra, "own": own, "other": other,
             "para_rel": para_rel,
             "corr_to_kp": corr @ kp_main.T if len(corr) else np.zeros((0, len(kp_texts)))}
        with self._lock:
            self._rubrics[entry.id] = r
        return r

    def analyse(self, entry: Entry, answer: str) -> Analysis:
        rub = self._rubric(entry)
        m = entry.meta
        us = units(answer)
        ws = words(answer)
        U = self._embed_units(us)
        # the answer as a whole: mean of its unit embeddings (encoding the whole text again
        # would pad every unit of the batch to the answer's length)
        whole = U.mean(0) / (np.linalg.norm(U.mean(0)) or 1.0) if us else None
        leaf = [n for n, u in enumerate(us) if u.leaf]
        kps: list[KPMatch] = []
        # per unit: its best similarity to any key point text (to tell "states a misconception"
        # from "talks about the same thing as a point")
        sims = [U @ E.T for E in rub["kp_emb"]]  # per key point: (units, its texts)
        unit_kp = np.max(np.stack([S.max(1) for S in sims]), 0) if us else np.zeros(0)
        for n, (k, S, (cl, CE, cneg)) in enumerate(zip(m.key_points, sims, rub["kp_clauses"], strict=True)):
            own, other = float(rub["own"][n]), float(rub["other"][n])
            if not us:
                kps.append(KPMatch(k.id, k.text, k.weight, 0.0, None, k.text, negation_count(k.text),
                                   own=own, other=other))
                continue
            i, j = np.unravel_index(int(S.argmax()), S.shape)
            # polarity is read clause against clause: the answer's leaf unit and the point's
            # clause that match best ("it does not compute gradients" vs "step() does not …")
            C = U[leaf] @ CE.T
            li, lj = np.unravel_index(int(C.argmax()), C.shape)
            lu = us[leaf[li]]
            kps.append(KPMatch(k.id, k.text, k.weight, float(S[i, j]), us[i], cl[lj], cneg[lj], float(C[li, lj]), lu,
                               own, other, _reversals(k, us, U, S.max(1), rub["kp_contra"][n])))
        mcs = []
        for n, mc in enumerate(m.misconceptions):
            if not us:
                mcs.append(MCMatch(mc.claim, mc.correction, 0.0, 0.0, None, 0, []))
                continue
            sc = U @ rub["mc_emb"][2 * n]
            sr = U @ rub["mc_emb"][2 * n + 1]
            i = int(sc.argmax())
            li = leaf[int(sc[leaf].argmax())]  # polarity from the best leaf unit
            mcs.append(MCMatch(mc.claim, mc.correction, float(sc[i]), float(sc[i] - sr[i]), us[i],
                               negation_count(mc.claim), [float(x) for x in rub["corr_to_kp"][n]], us[li],
                               float(sc[i] - unit_kp[i]),
                               frozenset(set(words(mc.claim)) - set(words(mc.correction)) - rub["rubric_words"])))
        relevance = float(max(whole @ rub["ctx_emb"][0], whole @ rub["ctx_emb"][1])) if whole is not None else 0.0
        content = [w for w in ws if w not in STOP_WORDS]
        repeat = 1 - len(set(content)) / len(content) if content else 0.0
        terms = rub["rubric_words"] - STOP_WORDS
        rubric_share = sum(w in terms for w in content) / len(content) if content else 0.0
        pieces = [x for x in re.split(r"[,;.\n]+\s", answer) if x.strip()]
        list_ratio = sum(len(words(x)) <= 3 for x in pieces) / len(pieces) if pieces else 0.0
        specific = sum(w in terms or any(c.isdigit() or c in "_.()" for c in w) for w in content)
        specific_ratio = specific / len(ws) if ws else 0.0
        a = Analysis(entry.id, answer, us, kps, mcs, relevance, len(ws), stop_ratio(answer), repeat,
                     para_relevance=rub["para_rel"], rubric_share=rubric_share, list_ratio=list_ratio,
                     specific_ratio=specific_ratio)
        if m.type == "behavioral" and m.behavioral_rubric is not None:
            a.checks, a.structure_score = structure.star(answer, us, U, m.behavioral_rubric, self.encoder)
        elif m.type == "system-design" and m.design_rubric is not None:
            a.checks, a.structure_score = structure.design(answer, us, U, m.design_rubric, self.encoder)
        return a

    def _embed_units(self, us: list[Unit]) -> np.ndarray:
        """Embeddings of the units, shape (len(us), 384). Only the leaves go through the model;
        a sentence that splits into clauses gets the word-weighted mean of its clauses'
        embeddings, renormalised (MiniLM mean-pools its tokens, so this is close to encoding the
        sentence, at about two thirds of the cost — the latency budget is 30 ms an answer)."""
        out = np.zeros((len(us), 384), np.float32)
        leaves = [n for n, u in enumerate(us) if u.leaf]
        if not leaves:
            return out
        out[leaves] = self.encoder.encode([us[n].text for n in leaves])
        for n, u in enumerate(us):
            if u.leaf:
                continue
            parts = [m for m in leaves if us[m].sentence == u.sentence]
            w = np.array([max(1, len(words(us[m].text))) for m in parts], np.float32)
            v = (out[parts] * w[:, None]).sum(0)
            out[n] = v / (np.linalg.norm(v) or 1.0)
        return out

    def grade(self, entry: Entry, answer: str) -> Feedback:
        return score(entry, self.analyse(entry, answer), self.params, self.name)

    def with_params(self, params: Params) -> EmbeddingGrader:
        g = EmbeddingGrader(params, self.encoder)
        g._rubrics = self._rubrics
        return g


def _calibration(kp_emb: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per key point, from the bank's own texts: ``own``, the median over its phrasings of each
    phrasing's best similarity to the point's *other* texts (what a correct plain-language
    sentence reaches), and ``other``, the best similarity any text of another point of the
    entry reaches to this point's texts (what a sentence about something else reaches)."""
    own, other = [], []
    for n, E in enumerate(kp_emb):
        if len(E) < 2:  # a point with no phrasings (an own card's): nothing to calibrate on
            own.append(0.6)
        else:
            G = E @ E.T
            np.fill_diagonal(G, -1.0)
            loo = G.max(1)[1:] if len(E) > 2 else G.max(1)
            own.append(float(np.median(loo)))
        rest = [F for m, F in enumerate(kp_emb) if m != n]
        other.append(float((np.concatenate(rest) @ E.T).max()) if rest else 0.4)
    return np.array(own), np.array(other)


def _reversals(k, us: list[Unit], U: np.ndarray, point_sim: np.ndarray, contra) -> list[Reversal]:
    """Units whose best match among the point's written contradictions is at least as close as
    the point itself (less 0.05), with the word-level sign that agrees, if any. A sign needs a
    word the reversal uses: an opposite of a word of the point that the contradiction itself
    uses (:mod:`.opposites`); a word of the contradiction that the entry never uses to say what
    is right; or a negation cue with the contradiction's parity where the point has the other
    one. None counts when the unit also uses a word only the point (not its reversals) uses."""
    texts, CE, cneg, cwords, point_only = contra
    if not texts:
        return []
    C = U @ CE.T
    out = []
    pneg = negation_count(k.text) % 2
    pwords = words(k.text)
    for n, u in enumerate(us):
        j = int(C[n].argmax())
        if C[n, j] < point_sim[n] - 0.05:
            continue
        uw = set(words(u.text))
        neg = negation_count(u.text)
        signal = ""
        if not uw & point_only:
            t = reversed_terms(pwords, list(uw))
            if t is not None and t[1] in set(words(texts[j])):
                signal = f"it says '{t[1]}' where the point says '{t[0]}'"
            elif hit := cwords[j] & uw:
                signal = "it says '" + "', '".join(sorted(hit)) + "' as the reversed statement does"
            elif neg and neg % 2 == cneg[j] % 2 != pneg:
                signal = "it negates the point as the reversed statement does"
        out.append(Reversal(u, float(point_sim[n]), float(C[n, j]), signal, texts[j]))
    return out


# -- step 2: the decision ------------------------------------------------------------------
def _span(u: Unit | None) -> Span | None:
    return Span(start=u.start, end=u.end, text=u.text) if u is not None else None


def score(entry: Entry, a: Analysis, p: Params = DEFAULT, grader: str = EmbeddingGrader.name) -> Feedback:
    """Turn an :class:`Analysis` into :class:`Feedback` with the thresholds ``p``."""
    flags: list[str] = []
    if not a.answer.strip():
        kpr = [KeyPointResult(id=k.id, text=k.text, weight=k.weight, status="missed", similarity=0.0) for k in a.kps]
        fb = Feedback(entry_id=entry.id, grader=grader, score=0, band=0, confidence=1.0, uncertain=False,
                      key_points=kpr, flags=["empty"], summary="No answer.")
        return _with_follow_up(entry, fb)

    # misconceptions stated (a unit that negates the claim is stating the correction instead)
    stated: list[MCMatch] = []
    for mc in a.mcs:
        if mc.unit is None or mc.margin < p.mc_margin:
            continue
        # very close to the claim; or close, closer to the claim than to anything the rubric
        # wants said, and using a word of the claim that its correction does not use
        if mc.sim < p.mc_sim and not (mc.sim >= p.mc_sim_rel and mc.over_kp >= p.mc_over_kp
                                      and mc.claim_words & set(words(mc.unit.text))):
            continue
        if (negation_count((mc.clause or mc.unit).text) - mc.claim_neg) % 2:
            continue  # "it is not true that …" states the correction
        stated.append(mc)

    kpr: list[KeyPointResult] = []
    credit = total = contra_w = doubt_w = 0.0
    n_contra = 0
    for n, k in enumerate(a.kps):
        total += k.weight
        lo, hi = p.lo + p.cal * (k.other - 0.60), p.hi + p.cal * (k.own - 0.62)
        hi = max(hi, lo + 0.1)
        hit_at = lo + (p.hit - p.lo) / (p.hi - p.lo) * (hi - lo)
        status, why = "missed", ""
        rev = [r for r in k.reversals if r.signal and r.point_sim >= p.rev_close]
        sure = [r for r in rev if r.contra_sim - r.point_sim >= p.rev_margin]
        by_mc = any(mc.unit is not None and (mc.unit.start, mc.unit.end) == (k.unit.start, k.unit.end)
                    and mc.corr_to_kp and mc.corr_to_kp[n] >= 0.5 for mc in stated) if k.unit else False
        unit = k.unit
        negated = k.clause is not None and k.clause_sim >= p.neg_sim and \
            (negation_count(k.clause.text) - k.ref_neg) % 2 == 1 and \
            any((r.unit.start, r.unit.end) == (k.clause.start, k.clause.end) for r in k.reversals)
        if negated and not sure:
            sure = [Reversal(k.clause, k.clause_sim, k.clause_sim, "it negates the point")]
        if sure or by_mc:
            status = "contradicted"
            if sure:
                r = max(sure, key=lambda r: r.contra_sim - r.point_sim)
                unit = r.unit
                why = f"this sentence is closer to a reversal of the point than to the point, and {r.signal}"
            else:
                why = "the sentence that matches this point states a misconception it corrects"
            contra_w += k.weight
            n_contra += 1
            # doubtful when the reversal is barely closer, or the point is also made elsewhere
            kp_unc = bool(sure) and (max(r.contra_sim - r.point_sim for r in sure) < p.rev_margin + 0.05
                                     or k.sim >= hi)
        else:
            credit += k.weight * float(min(1.0, max(0.0, (k.sim - lo) / (hi - lo))))
            if k.sim >= hit_at:
                status, why = "hit", f"similarity {k.sim:.2f} (hit from {hit_at:.2f})"
            else:
                why = f"closest sentence similarity {k.sim:.2f} (hit from {hit_at:.2f})"
            # doubtful near the threshold, or made while a reversal of it is nearly as close
            kp_unc = abs(k.sim - hit_at) < p.kp_doubt or (status == "hit" and bool(rev) and any(
                r.contra_sim - r.point_sim > p.rev_margin - 0.05 for r in rev))
        doubt_w += k.weight * kp_unc
        evidence = _span(unit) if status != "missed" else None
        kpr.append(KeyPointResult(id=k.id, text=k.text, weight=k.weight, status=status,
                                  similarity=round(k.sim, 3), evidence=evidence, why=why, uncertain=kp_unc))
    coverage = credit / total if total else 0.0
    raw = 100.0 * coverage
    if a.structure_score is not None:
        raw = 0.6 * raw + 40.0 * a.structure_score
    raw -= p.mc_penalty * len(stated) + p.contra_penalty * contra_w
    best_kp = max((k.sim for k in a.kps), default=0.0)

    # answer-level problems
    behavioral_ok = a.structure_score is not None and a.structure_score >= 0.6
    if a.n_words >= 5 and a.rubric_share >= p.stuffing_rubric and (
            a.stop_ratio < p.stuffing_stop or a.list_ratio >= p.stuffing_list):
        flags.append("keyword-stuffing")
        raw = min(raw, p.stuffing_cap)
    if a.relevance < min(p.offtopic_rel, a.para_relevance - p.offtopic_para) and best_kp < p.offtopic_kp:
        flags.append("off-topic")
        raw = 0.0
    elif (a.n_words >= p.vague_words and best_kp < p.vague_kp and a.specific_ratio < p.vague_specific
          and not behavioral_ok):
        flags.append("vague")
        raw = min(raw, p.vague_cap)
    if a.n_words < 8 and "keyword-stuffing" not in flags:
        flags.append("too-short")
    if stated or n_contra >= p.cap_contradictions:
        raw = min(raw, p.flawed_cap)
    s = int(round(min(100.0, max(0.0, raw))))

    # confidence: the score near a band boundary, doubtful key points carrying weight, signals
    # that disagree (a reversal or misconception in an answer that otherwise covers the rubric)
    amb = doubt_w / total if total else 0.0
    edge = min(abs(raw - b) for b in (25, 50, 75)) if 0 < s < 100 else 50.0
    conflict = (n_contra > 0 or bool(stated)) and coverage >= 0.6
    conf = 0.5 + 0.5 * min(1.0, edge / (2 * p.band_doubt)) - 0.5 * amb - 0.3 * conflict
    if flags and flags != ["too-short"]:
        conf = max(conf, 0.8)
    conf = float(min(1.0, max(0.0, conf)))

    mres = [MisconceptionResult(claim=mc.claim, correction=mc.correction, evidence=_span(mc.unit),
                                similarity=round(mc.sim, 3)) for mc in stated]
    hit = sum(k.status == "hit" for k in kpr)
    summary = f"{hit} of {len(kpr)} key points made"
    if contra_w:
        summary += f", {sum(k.status == 'contradicted' for k in kpr)} contradicted"
    if stated:
        summary += f", {len(stated)} misconception(s) stated"
    if flags:
        summary += "; " + ", ".join(flags)
    fb = Feedback(entry_id=entry.id, grader=grader, score=s, band=band_of(s), confidence=round(conf, 2),
                  uncertain=conf < p.uncertain_below, key_points=kpr, misconceptions=mres, flags=flags,
                  checks=a.checks, summary=summary + ".")
    return _with_follow_up(entry, fb)


def _with_follow_up(entry: Entry, fb: Feedback) -> Feedback:
    text, target = choose_follow_up(entry, fb)
    return fb.model_copy(update={"follow_up": text, "follow_up_targets": target})


__all__ = ["DEFAULT", "Analysis", "EmbeddingGrader", "Params", "replace", "score"]
