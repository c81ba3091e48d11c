def schedule_1f1b(num_stages, num_microbatches):
    S, M = num_stages, num_microbatches
    out = []
    for s in range(S):
        warmup = min(S - 1 - s, M)  # later stages need fewer forwards in flight before the first backward
        ops = [("F", m) for m in range(warmup)]
        for i in range(M - warmup):  # steady state: one forward, one backward
            ops += [("F", warmup + i), ("B", i)]
        ops += [("B", m) for m in range(M - warmup, M)]  # cool-down: drain the backwards
        out.append(ops)
    return out


def peak_activations(schedule):
    peaks = []
    for ops in schedule:
        live = peak = 0
        for op, _ in ops:
            live += 1 if op == "F" else -1  # a forward stores activations until its backward frees them
            peak = max(peak, live)
        peaks.append(peak)
    return peaks


def makespan(schedule, t_f, t_b):
    S = len(schedule)
    done = {}  # (op, stage, mb) -> end time
    free = [0] * S  # when each stage's previous op ends
    ptr = [0] * S
    remaining = sum(len(ops) for ops in schedule)
    while remaining:
        progressed = False
        for s in range(S):
            while ptr[s] < len(schedule[s]):
                op, m = schedule[s][ptr[s]]
                if op == "F":
                    deps = [("F", s - 1, m)] if s > 0 else []  # needs the previous stage's output
                else:
                    deps = [("F", s, m)] + ([("B", s + 1, m)] if s < S - 1 else [])  # and the next stage's grad
                if any(d not in done for d in deps):
                    break
                start = max([free[s]] + [done[d] for d in deps])
                free[s] = done[(op, s, m)] = start + (t_f if op == "F" else t_b)
                ptr[s] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            raise ValueError("the schedule deadlocks")
    return max(free)
