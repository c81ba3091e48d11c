"""What one learner store costs on PostgreSQL and SQLite, and what a coach's cohort view costs.

Starts a private PostgreSQL (tests/pg.py) and, side by side in one run, creates N learner stores
(schema + migrations) on it and N SQLite store files; prints per store: the seconds to create and
migrate it, the bytes it adds empty (``pg_database_size`` delta; file size), the catalog relations
it adds, and the seconds of ``Cohort.progress`` + ``heat_map`` over a cohort of N learners with
20 reviews each — as ratios of the two databases. Not a test: figures for docs/deploy.md.

    python bench/learner_stores.py --stores 40
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))


def measure(url: str, n: int, label: str) -> dict:
    from sqlalchemy import text

    from torchdojo.core import Dojo
    from torchdojo.settings import Settings
    from torchdojo.team.accounts import Accounts
    from torchdojo.team.cohort import Cohort

    base = Dojo(Settings(bank_dir=ROOT / "bank", database_url=url, judge_prestart=False, search_dense=False))
    from torchdojo.store.learners import LearnerStores

    stores = LearnerStores(url, engine=base.sessions.engine if not url.startswith("sqlite") else None)
    acc = Accounts(base.sessions)
    coach = acc.create_user("coach@bench.local", "a long password", "coach", cohort="b")

    def size() -> int:
        if url.startswith("sqlite"):
            folder = Path(url.removeprefix("sqlite:///")).parent
            return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        with base.sessions() as s:
            return int(s.execute(text("SELECT pg_database_size(current_database())")).scalar())

    def relations() -> int | None:
        if url.startswith("sqlite"):
            return None
        with base.sessions() as s:
            return int(s.execute(text("SELECT count(*) FROM pg_class")).scalar())

    users = [acc.create_user(f"l{i}@bench.local", "a long password", "learner", cohort="b") for i in range(n)]
    s0, r0 = size(), relations()
    t0 = time.perf_counter()
    views = {}
    for u in users:
        views[u.id] = base.for_store(stores.sessions(u.store), u.store)
    create = (time.perf_counter() - t0) / n
    s1, r1 = size(), relations()
    entries = [e.id for e in base.bank][:20]
    for v in views.values():
        for e in entries:
            v.flashcards.review(e, "good")
    cohort = Cohort(acc, lambda u: views[u.id])
    t0 = time.perf_counter()
    cohort.progress(coach, "b")
    cohort.heat_map(coach, "b")
    view = time.perf_counter() - t0
    return {"label": label, "create_s": create, "bytes": (s1 - s0) / n,
            "relations": None if r0 is None else (r1 - r0) / n, "cohort_view_s": view}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stores", type=int, default=40)
    args = ap.parse_args()
    from pg import PostgresServer

    pg = PostgresServer().start()
    try:
        tmp = Path(tempfile.mkdtemp(prefix="torchdojo-stores-"))
        out = [measure(pg.create_database(), args.stores, "PostgreSQL schema"),
               measure(f"sqlite:///{tmp / 'srv.db'}", args.stores, "SQLite file")]
    finally:
        pg.stop()
    print(f"{args.stores} learner stores each, then a cohort view over all of them (20 reviews each)")
    for r in out:
        rel = f", {r['relations']:.0f} catalog relations" if r["relations"] is not None else ""
        print(f"  {r['label']:18s} create+migrate {r['create_s'] * 1000:7.0f} ms/store, {r['bytes'] / 1024:7.0f} KiB/store"
              f"{rel}; cohort view {r['cohort_view_s']:.2f} s ({r['cohort_view_s'] / args.stores * 1000:.0f} ms/learner)")
    a, b = out
    print(f"  ratio PostgreSQL/SQLite: create {a['create_s'] / b['create_s']:.2f}x, "
          f"cohort view {a['cohort_view_s'] / b['cohort_view_s']:.2f}x")


if __name__ == "__main__":
    main()
