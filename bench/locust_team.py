"""Team-mode load with Locust: simulated learners against ONE web process and 1, then 2 judge
workers, side by side in one run (issue 15, "Load, faults and figures"). Not a test.

    python bench/locust_team.py [--users 300] [--spawn-rate 10] [--phase 60] [--rounds 2]
                                [--code-weight 2] [--practise-weight 0]

Starts everything itself under a tmp folder and stops it after (even on failure): a private
``redis-server`` (free port, append-only), ``torchdojo serve`` in team mode
(``TORCHDOJO_BROKER_URL``, a SQLite *file* shared with the workers), and two
``torchdojo worker --concurrency 1`` processes (so 1 → 2 is about workers, not pool size). Both
workers are warmed (each judges a few jobs: sandbox fork server up, expected outputs cached);
then worker 2 stops consuming (Celery remote control ``cancel_consumer``; it stays warm) and
Locust (headless, a subprocess running this same file as its locustfile) ramps the users up.
After the ramp the run alternates phases of ``--phase`` seconds: 1 worker consuming, 2 workers
consuming (``add_consumer``), ``--rounds`` times, so load from elsewhere on the shared machine
falls on both.

With accounts (the default; ``--no-accounts`` for the single-user pages), every simulated learner
signs in at start as an account of its own (``learner<n>@bench.local``, made before the run with a
learner store each) and sends its session's CSRF token with every POST; its submissions are
stored in its own store, and the judge figures are read from all of them.

A simulated learner (:class:`Learner`) thinks 5–15 s between actions and does, by weight:
browse (home, ``/questions``, a question page, a search), review (``/review``, reveal, rate the
card: a POST with the same-origin headers ``web/security.py`` checks), run and submit code for a
challenge (HTMX POST answered ``202``, then the verdict read from the server-sent events at
``GET /submissions/{id}/events``; the round trip from POST to verdict is recorded as its own
request type ``JUDGE``), and — only with ``--practise-weight`` > 0 — a prose answer (this loads
the answer grader's model in the web's grader process; heavy on 2 cores, so off by default).

Measured and printed, and written as JSON under ``bench/team_runs/``:
- requests/s, p50/p99 latency of *pages* (every HTTP request but the event streams and the graded
  answers), of the judge round trips and of the graded answers, separately; failures (any non-2xx but the expected 202, any wrong verdict);
- judge jobs/s per phase from the database (``submissions.finished_at``, the first
  ``SETTLE`` s of a phase skipped), per worker, and the 1 → 2 workers ratio (median of rounds);
  a phase counts as *saturated* only when the queue never ran empty in it (otherwise jobs/s is
  the arrival rate, not the workers' capacity);
- queue depth over time (Redis ``LLEN`` of the judge queue's lists, every second) and the load
  average.
"""

from __future__ import annotations

import os
import sys

if __name__ != "__main__":  # imported by Locust as the locustfile: the simulated learner
    import json
    import random
    import re
    import time
    from pathlib import Path

    from locust import HttpUser, between, events
    from locust.stats import StatsEntry
    from requests.adapters import HTTPAdapter
    from urllib3.util.retry import Retry

    #: GETs re-sent once after the server closed an idle keep-alive connection as it was reused.
    RESENT = {"count": 0}

    class StaleConnectionRetry(Retry):
        """Re-send a GET once when a *reused* keep-alive connection was reset: uvicorn closes idle
        connections after 5 s, and with 5–15 s of think time a request can race that close. Browsers
        do the same (Chromium retries a request that fails on a reused socket); counted in the JSON."""

        def increment(self, *a, **kw):
            RESENT["count"] += 1
            return super().increment(*a, **kw)

    _BANK = Path(__file__).resolve().parents[1] / "bank"
    QUESTIONS = sorted(p.stem for p in (_BANK / "questions").rglob("*.md"))
    CHALLENGES = ["cosine-similarity-matrix", "stable-softmax", "box-iou-nms"]
    CODE = {c: (_BANK / "challenges" / c / "reference.py").read_text() for c in CHALLENGES}
    SEARCHES = ["gradient accumulation", "attention mask", "mixed precision", "batch norm", "autograd",
                "data loader workers", "learning rate warmup", "distributed"]
    REVEAL = re.compile(r'href="/review/([^"/]+)/answer\?shown_at=(\d+)')
    SEEN = re.compile(r'name="seen" value="([^"]*)"')
    EVENTS = re.compile(r'data-events="(/submissions/(\d+)/events)"')
    VERDICT = re.compile(r'data-verdict="([^"]+)"')
    #: Longest a learner waits for a verdict (s) before counting it as lost.
    VERDICT_PATIENCE = 900
    #: Team mode with accounts (the default): learner<n>@bench.local, one per simulated learner.
    import itertools

    ACCOUNTS = os.environ.get("TORCHDOJO_ACCOUNTS", "1") == "1"
    ACCOUNT_IDS = itertools.count(1)
    PASSWORD = "bench learner password"
    CSRF = re.compile(r'name="csrf-token" content="([^"]+)"')

    class Learner(HttpUser):
        """A learner on exam day: browse, review cards, run and submit code, think 5–15 s between."""

        wait_time = between(5, 15)

        csrf: str | None = None

        def on_start(self) -> None:
            retry = StaleConnectionRetry(total=1, connect=1, read=1, status=0, other=0, redirect=0,
                                         allowed_methods=frozenset({"GET"}), raise_on_status=False)
            self.client.mount("http://", HTTPAdapter(max_retries=retry))
            if ACCOUNTS:  # each simulated learner signs in as an account of its own (created by main())
                n = next(ACCOUNT_IDS)
                with self.client.post("/login", data={"email": f"learner{n}@bench.local", "password": PASSWORD},
                                      headers={"Origin": self.host.rstrip("/"), "Sec-Fetch-Site": "same-origin"},
                                      name="/login", allow_redirects=False, catch_response=True) as r:
                    if r.status_code != 303:
                        r.failure(f"log-in: HTTP {r.status_code}")
                    else:
                        r.success()
                m = CSRF.search(self.client.get("/", name="/").text)
                self.csrf = m.group(1) if m else None

        def _post(self, url: str, data: dict, name: str, ok: tuple[int, ...] = (200,)):
            headers = {"Origin": self.host.rstrip("/"), "Sec-Fetch-Site": "same-origin", "HX-Request": "true"}
            if self.csrf:
                headers["X-CSRF-Token"] = self.csrf
            with self.client.post(url, data=data, headers=headers, name=name, catch_response=True) as r:
                if r.status_code not in ok:
                    r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
                else:
                    r.success()
                return r

        def home(self) -> None:
            self.client.get("/", name="/")

        def question_list(self) -> None:
            self.client.get("/questions", name="/questions")

        def question(self) -> None:
            self.client.get(f"/questions/{random.choice(QUESTIONS)}", name="/questions/[id]")

        def search(self) -> None:
            self.client.get("/questions", params={"q": random.choice(SEARCHES)}, name="/questions?q=[search]")

        def review(self) -> None:
            page = self.client.get("/review", name="/review")
            m = REVEAL.search(page.text)
            if not m:  # nothing due
                return
            card, shown_at = m.groups()
            time.sleep(random.uniform(3, 8))  # recalling the answer
            back = self.client.get(f"/review/{card}/answer", params={"shown_at": shown_at},
                                   headers={"HX-Request": "true"}, name="/review/[card]/answer")
            seen = SEEN.search(back.text)
            time.sleep(random.uniform(1, 4))
            data = {"rating": random.choice(["again", "hard", "good", "good", "easy"]), "shown_at": shown_at}
            if seen:
                data["seen"] = seen.group(1)
            self._post(f"/review/{card}", data, "/review/[card]")

        def code(self) -> None:
            ch = random.choice(CHALLENGES)
            self.client.get(f"/challenges/{ch}", name="/challenges/[id]")
            time.sleep(random.uniform(5, 15))  # writing the code
            for mode in ("run", "submit"):
                self._judge(ch, mode)
                time.sleep(random.uniform(2, 5))

        def practise(self) -> None:
            entry = random.choice(QUESTIONS)
            self.client.get(f"/questions/{entry}", name="/questions/[id]")
            time.sleep(random.uniform(10, 20))
            answer = ("The gradient is accumulated over micro-batches and the optimizer steps once; "
                      "scale the loss by the number of steps and zero the gradients after stepping.")
            self._post(f"/questions/{entry}/answer", {"answer": answer}, "/questions/[id]/answer")

        def _judge(self, ch: str, mode: str) -> None:
            t0 = time.perf_counter()
            r = self._post(f"/challenges/{ch}/judge", {"code": CODE[ch], "mode": mode},
                           f"/challenges/[id]/judge ({mode})", ok=(202,))
            m = EVENTS.search(r.text or "")
            if r.status_code != 202 or not m:
                return
            verdict, error = None, None
            deadline = time.monotonic() + VERDICT_PATIENCE
            while verdict is None and error is None and time.monotonic() < deadline:
                try:  # the stream ends after the verdict (or after 300 s: then read it again)
                    with self.client.get(m.group(1), stream=True, name="/submissions/[id]/events",
                                         catch_response=True) as s:
                        if s.status_code != 200:
                            error = f"events: HTTP {s.status_code}"
                            s.failure(error)
                            break
                        s.success()
                        in_verdict = False
                        for line in s.iter_lines(decode_unicode=True):
                            if line == "event: verdict":
                                in_verdict = True
                            elif in_verdict and (v := VERDICT.search(line or "")):
                                verdict = v.group(1)
                                break
                            elif in_verdict and "could not judge" in (line or ""):
                                error = "the judge could not judge it"
                                break
                except Exception as e:  # noqa: BLE001 - a dropped stream is a failure of the round trip
                    error = f"events: {type(e).__name__}: {e}"
            if verdict is None and error is None:
                error = f"no verdict in {VERDICT_PATIENCE} s"
            if verdict is not None and verdict != "Accepted":
                error = f"verdict {verdict}, expected Accepted"
            events.request.fire(request_type="JUDGE", name=f"{mode} round trip", response_length=0,
                                response_time=(time.perf_counter() - t0) * 1000, exception=error and Exception(error),
                                context={})

        # Weights: 15 of browsing and reviewing; code (run + submit) and a graded answer from the options.
        tasks = {home: 3, question_list: 2, question: 3, search: 2, review: 3,
                 code: int(os.environ.get("TORCHDOJO_LOCUST_CODE_WEIGHT", "2"))}
        if int(os.environ.get("TORCHDOJO_LOCUST_PRACTISE_WEIGHT", "0")) > 0:
            tasks[practise] = int(os.environ["TORCHDOJO_LOCUST_PRACTISE_WEIGHT"])

    def _summary(entry) -> dict:
        return {"requests": entry.num_requests, "failures": entry.num_failures,
                "rps": round(entry.total_rps, 2),
                "p50_ms": entry.get_response_time_percentile(0.5) if entry.num_requests else None,
                "p99_ms": entry.get_response_time_percentile(0.99) if entry.num_requests else None,
                "max_ms": round(entry.max_response_time or 0, 1)}

    @events.quitting.add_listener
    def _write(environment, **_kw) -> None:
        out = os.environ.get("TORCHDOJO_LOCUST_OUT")
        if not out:
            return
        stats = environment.stats
        pages = StatsEntry(stats, "pages", "", use_response_times_cache=False)
        judge = StatsEntry(stats, "judge round trips", "", use_response_times_cache=False)
        grading = StatsEntry(stats, "graded answers", "", use_response_times_cache=False)
        per: dict[str, dict] = {}
        for (name, method), e in stats.entries.items():
            per[f"{method} {name}"] = _summary(e)
            if method == "JUDGE":
                judge.extend(e)
            elif name == "/questions/[id]/answer":  # the grader's model runs in the request: not a page
                grading.extend(e)
            elif name != "/submissions/[id]/events":
                pages.extend(e)
        for agg in (pages, judge, grading):
            agg.start_time, agg.last_request_timestamp = stats.total.start_time, stats.total.last_request_timestamp
        errors = [{"name": e.name, "method": e.method, "error": str(e.error), "count": e.occurrences}
                  for e in stats.errors.values()]
        Path(out).write_text(json.dumps({"pages": _summary(pages), "judge": _summary(judge), "grading": _summary(grading),
                                         "total": _summary(stats.total), "per_request": per, "errors": errors,
                                         "gets_resent_on_stale_keepalive": RESENT["count"]},
                                        indent=1))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Seconds at the start of a phase not counted (the switch settles: a job in flight finishes).
SETTLE = 5


def main() -> None:  # noqa: C901 - one script, read top to bottom
    import argparse
    import datetime as dt
    import json
    import shutil
    import signal
    import socket
    import statistics
    import subprocess
    import tempfile
    import threading
    import time
    from pathlib import Path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--users", type=int, default=300)
    ap.add_argument("--spawn-rate", type=float, default=10.0, help="users started per second")
    ap.add_argument("--phase", type=int, default=60, help="seconds per (1 worker | 2 workers) phase")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of (1 worker, 2 workers)")
    ap.add_argument("--code-weight", type=int, default=2, help="weight of run+submit among 15 others")
    ap.add_argument("--practise-weight", type=int, default=0, help="weight of a graded prose answer (loads the model)")
    ap.add_argument("--no-accounts", action="store_true",
                    help="the single-user pages with workers (no log-in); default: accounts, one per learner")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        raise SystemExit("needs redis-server (scripts/setup.sh installs it)")
    sys.path.insert(0, os.path.join(ROOT, "src"))

    import httpx
    import redis
    from sqlalchemy import select

    from torchdojo.jobs.celery_app import QUEUE, JudgeQueue, make_app, queue_keys
    from torchdojo.judge.challenge import load_challenges
    from torchdojo.settings import Settings
    from torchdojo.store.db import open_database
    from torchdojo.store.models import SubmissionRow

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    def wait(what: str, check, timeout: float = 600.0):
        deadline = time.monotonic() + timeout
        while not (got := check()):
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out waiting for {what}")
            time.sleep(0.2)
        return got

    bank = Path(ROOT) / "bank"
    tmp = Path(tempfile.mkdtemp(prefix="torchdojo-locust-"))
    rport, wport = free_port(), free_port()
    procs: list[subprocess.Popen] = []

    def spawn(cmd: list[str], log: str, env: dict | None = None) -> subprocess.Popen:
        p = subprocess.Popen(cmd, env=env, stdout=open(tmp / log, "ab"), stderr=subprocess.STDOUT,
                             start_new_session=True)
        procs.append(p)
        return p

    try:
        spawn(["redis-server", "--port", str(rport), "--bind", "127.0.0.1", "--dir", str(tmp), "--save", "",
               "--appendonly", "yes", "--appendfsync", "always"], "redis.log")
        r = redis.Redis(port=rport, socket_connect_timeout=1)

        def ping() -> bool:
            try:
                return bool(r.ping())
            except redis.RedisError:
                return False

        wait("redis", ping, 60)
        settings = Settings(bank_dir=bank, database_url=f"sqlite:///{tmp / 'team.db'}",
                            broker_url=f"redis://127.0.0.1:{rport}/0", cache_dir=tmp / "cache")
        sessions = open_database(settings.database_url)
        # Accounts: one per simulated learner; their submissions live in their own stores.
        stores = [sessions]
        if not args.no_accounts:
            from torchdojo.store.learners import LearnerStores
            from torchdojo.team.accounts import Accounts

            acc, ls = Accounts(sessions), LearnerStores(settings.database_url)
            for i in range(1, args.users + 1):
                u = acc.create_user(f"learner{i}@bench.local", "bench learner password", "learner", cohort="bench")
                stores.append(ls.sessions(u.store))
            print(f"{args.users} accounts and learner stores made", flush=True)
        env = {**os.environ, "PYTHONPATH": os.path.join(ROOT, "src"), "TORCHDOJO_BANK_DIR": str(bank),
               "TORCHDOJO_DATABASE_URL": settings.database_url, "TORCHDOJO_BROKER_URL": settings.broker_url,
               "TORCHDOJO_ACCOUNTS": "0" if args.no_accounts else "1",
               "TORCHDOJO_CACHE_DIR": str(settings.cache_dir), "PYTHONUNBUFFERED": "1"}
        cli = [sys.executable, "-m", "torchdojo.cli.main"]
        names = ["bench1@local", "bench2@local"]
        workers = [spawn(cli + ["worker", "--concurrency", "1", "--name", n], f"{n}.log", env) for n in names]
        web = spawn(cli + ["serve", "--port", str(wport)], "web.log", env)
        base = f"http://127.0.0.1:{wport}"

        probe = httpx.Client(base_url=base, timeout=5)  # signed in as learner 1 (accounts) to read the grader's status

        def web_ready() -> bool:
            assert web.poll() is None, (tmp / "web.log").read_text()
            try:
                if not args.no_accounts and "torchdojo_session" not in probe.cookies:
                    probe.post("/login", data={"email": "learner1@bench.local", "password": "bench learner password"})
                return probe.get("/mock/grader-status").json()["status"] in ("ready", "failed")
            except (httpx.TransportError, ValueError, KeyError):
                return False

        wait("the web (and its grader) to start", web_ready, 300)
        for n, w in zip(names, workers, strict=True):
            wait(f"worker {n}", lambda n=n, w=w: w.poll() is None and "ready." in (tmp / f"{n}.log").read_text(), 300)

        queue = JudgeQueue(settings, sessions, load_challenges(bank / "challenges")[0])
        chs = ["cosine-similarity-matrix", "stable-softmax", "box-iou-nms"]
        refs = {c: (bank / "challenges" / c / "reference.py").read_text() for c in chs}

        def judged(ids: list[int]) -> list[SubmissionRow] | None:
            with sessions() as s:
                rows = list(s.scalars(select(SubmissionRow).where(SubmissionRow.id.in_(ids))))
            return rows if all(x.status in ("done", "failed") for x in rows) else None

        warm = [queue.submit(chs[i % 3], refs[chs[i % 3]], "submit") for i in range(8)]
        rows = wait("the warm-up jobs", lambda: judged(warm), 600)
        print(f"warm-up: {len(rows)} jobs judged by {len({x.worker for x in rows})} worker processes", flush=True)

        control = make_app(settings).control

        def consume(name: str, on: bool) -> None:
            fn = control.add_consumer if on else control.cancel_consumer
            got = fn(QUEUE, destination=[name], reply=True, timeout=10)
            if not got:
                raise SystemExit(f"worker {name} did not answer {fn.__name__}")

        consume(names[1], False)

        # Queue depth and load average every second, in the background.
        samples: list[dict] = []
        stop = threading.Event()
        t_start = time.time()

        def sample() -> None:
            rc = redis.Redis(port=rport, socket_timeout=5)
            while not stop.is_set():
                try:
                    depth = sum(rc.llen(k) for k in queue_keys())
                except redis.RedisError:
                    depth = None
                samples.append({"t": round(time.time() - t_start, 1), "depth": depth,
                                "load1": os.getloadavg()[0]})
                stop.wait(1.0)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()

        ramp = args.users / args.spawn_rate
        total = int(ramp + 2 * args.rounds * args.phase + 5)
        out_json = tmp / "locust.json"
        lenv = {**env, "TORCHDOJO_LOCUST_OUT": str(out_json),
                "TORCHDOJO_LOCUST_CODE_WEIGHT": str(args.code_weight),
                "TORCHDOJO_LOCUST_PRACTISE_WEIGHT": str(args.practise_weight)}
        locust_bin = str(Path(sys.executable).parent / "locust")
        loc = spawn([locust_bin, "-f", os.path.abspath(__file__), "--headless", "-u", str(args.users),
                     "-r", str(args.spawn_rate), "-t", f"{total}s", "--host", base, "--csv", str(tmp / "locust"),
                     "--only-summary", "--stop-timeout", "30", "--loglevel", "WARNING"], "locust.log", lenv)
        print(f"locust: {args.users} users, ramp {ramp:.0f} s, then {args.rounds} x (1 worker, 2 workers) x "
              f"{args.phase} s", flush=True)
        time.sleep(ramp)
        phases: list[dict] = []
        for rnd in range(args.rounds):
            for n in (1, 2):
                consume(names[1], n == 2)
                t0 = time.time()
                time.sleep(args.phase)
                phases.append({"round": rnd + 1, "workers": n, "from": t0, "to": time.time()})
        consume(names[1], True)  # both drain what is left
        loc.wait(timeout=total + 600)
        stop.set()
        sampler.join()

        def drained() -> bool:
            for st in stores:
                with st() as s:
                    if s.scalar(select(SubmissionRow.id).where(
                            SubmissionRow.status.in_(("pending", "judging"))).limit(1)) is not None:
                        return False
            return True

        t_drain = time.time()
        try:  # every submission the web acknowledged (202) must get its verdict
            wait("the queue to drain", drained, 900)
        except SystemExit:
            pass
        drain_s = round(time.time() - t_drain, 1)

        # Judge throughput per phase, from the verdicts' finish times in the database.
        done, pending = [], 0
        for k, st in enumerate(stores):  # the server's store (warm-up jobs) and each learner's
            with st() as s:
                q = select(SubmissionRow.finished_at, SubmissionRow.worker, SubmissionRow.status, SubmissionRow.verdict)
                done += s.execute(q.where(SubmissionRow.id.not_in(warm)) if k == 0 else q).all()
                pending += len(s.scalars(select(SubmissionRow.id).where(
                    SubmissionRow.status.in_(("pending", "judging")))).all())
        for ph in phases:
            a, b = ph["from"] + SETTLE, ph["to"]
            got = [(w, st, v) for f, w, st, v in done
                   if f is not None and a <= f.replace(tzinfo=dt.UTC).timestamp() < b]
            depths = [x["depth"] for x in samples if a - t_start <= x["t"] < b - t_start and x["depth"] is not None]
            per_worker: dict[str, int] = {}
            for w, _, _ in got:
                per_worker[w] = per_worker.get(w, 0) + 1
            ph.update(jobs=len(got), seconds=round(b - a, 1), jobs_per_s=round(len(got) / (b - a), 3),
                      per_worker=per_worker, queue_min=min(depths, default=None),
                      queue_max=max(depths, default=None), saturated=bool(depths) and min(depths) > 0,
                      load1=round(statistics.mean(x["load1"] for x in samples
                                                  if a - t_start <= x["t"] < b - t_start), 2))
            ph["from"], ph["to"] = round(ph["from"] - t_start, 1), round(ph["to"] - t_start, 1)
        one = statistics.median(p["jobs_per_s"] for p in phases if p["workers"] == 1)
        two = statistics.median(p["jobs_per_s"] for p in phases if p["workers"] == 2)
        if not out_json.exists():
            raise SystemExit(f"locust wrote no results:\n{(tmp / 'locust.log').read_text()[-3000:]}")
        loc_stats = json.loads(out_json.read_text())
        wrong = sum(1 for _, _, st, v in done if st == "failed" or (st == "done" and v != "Accepted"))
        result = {
            "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), "cpus": os.cpu_count(),
            "args": vars(args), "accounts": not args.no_accounts, "settle_s": SETTLE, "locust": loc_stats,
            "judge": {"phases": phases, "median_jobs_per_s_1_worker": round(one, 3),
                      "median_jobs_per_s_2_workers": round(two, 3),
                      "jobs_per_s_per_worker": {"1": round(one, 3), "2": round(two / 2, 3)},
                      "ratio_2_over_1": round(two / one, 2) if one else None,
                      "all_saturated": all(p["saturated"] for p in phases),
                      "submissions": len(done), "not_accepted_or_failed": wrong,
                      "still_pending_after_drain": pending, "drain_s": drain_s},
            "queue_depth": samples,
            "load1": {"mean": round(statistics.mean(x["load1"] for x in samples), 2),
                      "max": round(max(x["load1"] for x in samples), 2)},
        }
        runs = Path(ROOT) / "bench" / "team_runs"
        runs.mkdir(exist_ok=True)
        path = runs / f"locust-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}-u{args.users}.json"
        path.write_text(json.dumps(result, indent=1))
        _print(result)
        print(f"written: {path.relative_to(ROOT)}")
        queue.close()
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
                except ProcessLookupError:
                    pass
        if os.environ.get("TORCHDOJO_BENCH_KEEP"):
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _print(res: dict) -> None:
    loc, j = res["locust"], res["judge"]
    a = res["args"]
    print(f"\n{a['users']} users, think 5-15 s, {res['cpus']} CPUs, load average mean {res['load1']['mean']} "
          f"(max {res['load1']['max']})")
    for k in ("pages", "judge", "grading", "total"):
        s = loc.get(k)
        if not s or not s["requests"]:
            continue
        print(f"{k:8s} {s['requests']:7d} req  {s['rps']:7.2f} req/s  p50 {s['p50_ms']} ms  p99 {s['p99_ms']} ms  "
              f"max {s['max_ms']} ms  failures {s['failures']}")
    print("per request:")
    for name, s in sorted(loc["per_request"].items()):
        print(f"  {name:45s} {s['requests']:6d}  p50 {s['p50_ms']}  p99 {s['p99_ms']}  failures {s['failures']}")
    for e in loc["errors"][:10]:
        print(f"  error x{e['count']}: {e['method']} {e['name']}: {e['error'][:160]}")
    for p in j["phases"]:
        print(f"round {p['round']}, {p['workers']} worker(s): {p['jobs']} jobs in {p['seconds']} s = "
              f"{p['jobs_per_s']} jobs/s {p['per_worker']}; queue {p['queue_min']}-{p['queue_max']} "
              f"({'saturated' if p['saturated'] else 'NOT saturated: arrival-limited'}); load {p['load1']}")
    print(f"judge: 1 worker {j['median_jobs_per_s_1_worker']} jobs/s, 2 workers {j['median_jobs_per_s_2_workers']} "
          f"jobs/s, ratio {j['ratio_2_over_1']}x (target >= 1.7); submissions {j['submissions']}, "
          f"wrong/failed {j['not_accepted_or_failed']}, without a verdict after draining "
          f"{j['drain_s']} s: {j['still_pending_after_drain']}; GETs re-sent on a stale keep-alive connection: "
          f"{loc['gets_resent_on_stale_keepalive']}")


if __name__ == "__main__":
    main()
