def _feasible(schedule, S, M):
    """Can the stages run their lists in order without waiting on each other forever?"""
    want = sorted([("F", m) for m in range(M)] + [("B", m) for m in range(M)])
    if len(schedule) != S or any(sorted(ops) != want for ops in schedule):
        return False
    done, ptr = set(), [0] * S
    while True:
        progressed = False
        for s in range(S):
            while ptr[s] < len(schedule[s]):
                op, m = schedule[s][ptr[s]]
                deps = ([("F", s - 1, m)] if s > 0 else []) if op == "F" else (
                    [("F", s, m)] + ([("B", s + 1, m)] if s < S - 1 else []))
                if any(d not in done for d in deps):
                    break
                done.add((op, s, m))
                ptr[s] += 1
                progressed = True
        if not progressed:
            return all(ptr[s] == len(schedule[s]) for s in range(S))


def run(sol, inputs):
    S, M, t_f, t_b = inputs["stages"], inputs["microbatches"], inputs["t_f"], inputs["t_b"]
    schedule = [[(str(op), int(m)) for op, m in ops] for ops in sol.schedule_1f1b(S, M)]
    gpipe = [[("F", m) for m in range(M)] + [("B", m) for m in range(M)] for _ in range(S)]
    out = {
        "schedule": [[[op, m] for op, m in ops] for ops in schedule],
        "peak": [int(p) for p in sol.peak_activations(schedule)],
        "gpipe_peak": [int(p) for p in sol.peak_activations(gpipe)],
        "gpipe_makespan": float(sol.makespan(gpipe, t_f, t_b)),
        # only a schedule that can run to completion is timed (a deadlocked one has no makespan)
        "makespan": float(sol.makespan(schedule, t_f, t_b)) if _feasible(schedule, S, M) else None,
    }
    return out
