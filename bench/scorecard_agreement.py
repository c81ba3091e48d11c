"""Agreement of the machine's proposed marks with people's, through the scorecard path.

    python bench/scorecard_agreement.py [--set bench/grader_frozen/answers.yaml]

Every answer of a labelled set (with per-key-point ``marks``) gets a scorecard with the offline
grader's proposals, exactly as after "Get feedback"; then the set's labels act as the person:
each key point is marked covered / missed / wrong (the label "reversed"), and the scorecard is
finalised. Prints what ``/scorecards/agreement`` would show (per key point: agreement and the
confusion matrix, proposals the machine was unsure of apart; per answer: band of the machine's
estimate vs the band of the confirmed card, QWK) next to a trivial baseline that proposes the
set's most common mark for every point. Reads the set; tunes nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from torchdojo.core import Dojo  # noqa: E402
from torchdojo.practice.scorecards import MARKS  # noqa: E402
from torchdojo.settings import Settings  # noqa: E402

LABEL = {"covered": "covered", "missed": "missed", "reversed": "wrong"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default=str(ROOT / "bench/grader_frozen/answers.yaml"))
    args = ap.parse_args()
    rows = [r for r in yaml.safe_load(Path(args.set).read_text()) if r.get("marks")]
    with tempfile.TemporaryDirectory() as tmp:
        d = Dojo(Settings(database_url=f"sqlite:///{tmp}/agreement.db", bank_dir=ROOT / "bank"))
        grader = d.grader
        counts: dict[str, int] = {}
        for r in rows:
            entry = d.bank.get(r["entry"])
            sid = d.scorecards.create(entry.id, r["answer"], grader.grade(entry, r["answer"]))
            for ln in d.scorecards.get(sid).lines:
                if ln.kind == "key-point":
                    d.scorecards.set_mark(sid, ln.position, LABEL[r["marks"][ln.ref]], by="peer")
                    counts[LABEL[r["marks"][ln.ref]]] = counts.get(LABEL[r["marks"][ln.ref]], 0) + 1
            d.scorecards.finalize(sid, skipped=True)  # other lines: the machine's trusted proposals
        ag = d.scorecards.agreement()
    kp = ag["per_kind"]["key-point"]
    n_all = kp["n"] + ag["uncertain"]["n"]
    print(f"{len(rows)} answers from {args.set}")
    common = max(counts, key=counts.get)
    print(f"key-point lines with a trusted proposal: {kp['n']}; agreement {kp['accuracy']:.3f} "
          f"(baseline 'always {common}' on all {n_all} lines: {counts[common] / n_all:.3f})")
    print(f"unsure proposals: {ag['uncertain']['n']}, agreement {ag['uncertain']['accuracy']:.3f}")
    print("confusion (rows: person, columns: machine): " + " / ".join(MARKS["key-point"]))
    for a in MARKS["key-point"]:
        print(f"  {a:8s} " + " ".join(f"{kp['confusion'].get((a, b), 0):5d}" for b in MARKS["key-point"]))
    b = ag["bands"]
    print(f"per answer: {b['n']} with an estimate, band exact {b['accuracy']:.3f}, QWK {b['qwk']:.3f}; "
          f"{b['no_estimate']} left out (the machine trusted none of its proposals)")


if __name__ == "__main__":
    main()
