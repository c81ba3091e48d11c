from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"stages": 3, "microbatches": 4, "t_f": 1, "t_b": 2}, public=True,
             what="3 stages, 4 micro-batches (the statement's example)"),
        Case("four-stages", {"stages": 4, "microbatches": 8, "t_f": 1, "t_b": 2}, public=True,
             what="4 stages, 8 micro-batches"),
        Case("single-stage", {"stages": 1, "microbatches": 5, "t_f": 1, "t_b": 1},
             what="one stage: no warm-up, F B F B ..."),
        Case("few-microbatches", {"stages": 5, "microbatches": 2, "t_f": 1, "t_b": 2}, shrink=("microbatches",),
             what="M < S - 1: the warm-up is cut short at M forwards"),
        Case("one-microbatch", {"stages": 3, "microbatches": 1, "t_f": 2, "t_b": 3},
             what="a single micro-batch"),
        Case("two-stages", {"stages": 2, "microbatches": 7, "t_f": 1, "t_b": 1}, shrink=("microbatches",),
             what="2 stages, odd M"),
        Case("square", {"stages": 5, "microbatches": 5, "t_f": 1, "t_b": 2},
             what="M = S"),
        Case("deep", {"stages": 8, "microbatches": 12, "t_f": 2, "t_b": 3}, shrink=("stages", "microbatches"),
             what="8 stages, 12 micro-batches, t_f = 2, t_b = 3"),
        Case("fast-backward", {"stages": 4, "microbatches": 6, "t_f": 3, "t_b": 1}, shrink=("microbatches",),
             what="backward faster than forward: the timing still follows the dependencies"),
    ]


def make_inputs(seed, stages, microbatches, t_f, t_b):
    return {"stages": stages, "microbatches": microbatches, "t_f": t_f, "t_b": t_b}


def check(inputs, got):
    S, M = inputs["stages"], inputs["microbatches"]
    sched = got.get("schedule")
    if not isinstance(sched, list) or len(sched) != S:
        return f"the schedule must be a list of {S} per-stage lists"
    want = sorted([["F", m] for m in range(M)] + [["B", m] for m in range(M)])
    for s, ops in enumerate(sched):
        if sorted(ops) != want:
            return f"stage {s} must run each of F 0..{M - 1} and B 0..{M - 1} exactly once"
    if got.get("makespan") is None:
        return ("the schedule deadlocks: a stage waits for an operation that another stage will only run later "
                "(F m needs stage s-1's F m; B m needs this stage's F m and stage s+1's B m)")
    return None


def oracle(inputs):
    """Tick-by-tick simulation of the policy instead of the closed form: a free stage runs a ready
    backward if there is one, otherwise a ready forward if fewer than S - s micro-batches are in flight."""
    S, M, tf, tb = inputs["stages"], inputs["microbatches"], inputs["t_f"], inputs["t_b"]
    ends, busy, next_f, next_b = {}, [0] * S, [0] * S, [0] * S
    order, live, peak = [[] for _ in range(S)], [0] * S, [0] * S
    t = 0
    while any(b < M for b in next_b):
        for s in range(S):
            if busy[s] > t:
                continue
            m = next_b[s]
            if m < next_f[s] and (s == S - 1 or ends.get(("B", s + 1, m), float("inf")) <= t):
                op, dur = ["B", m], tb
                next_b[s] += 1
                live[s] -= 1
            elif next_f[s] < M and live[s] < S - s and (s == 0 or ends.get(("F", s - 1, next_f[s]), float("inf")) <= t):
                op, dur = ["F", next_f[s]], tf
                next_f[s] += 1
                live[s] += 1
                peak[s] = max(peak[s], live[s])
            else:
                continue
            order[s].append(op)
            ends[(op[0], s, op[1])] = busy[s] = t + dur
        t += 1
    return {"schedule": order, "peak": peak, "gpipe_peak": [M] * S,
            "gpipe_makespan": float((M + S - 1) * (tf + tb)), "makespan": float(max(busy))}
