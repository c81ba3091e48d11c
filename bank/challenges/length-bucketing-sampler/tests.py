import torch

from torchdojo.judge.testing import Case

# Different correct samplers shuffle differently: the batches are compared for shape and dtype only
# (so the number of batches must match); check() verifies every invariant exactly.
CHECK_ONLY = ("epoch0", "epoch0_again", "epoch1", "fresh_epoch0", "other_seed_epoch0")


def cases():
    return [
        Case("small", {"n": 50, "batch_size": 4, "bucket_factor": 4, "min_efficiency": 0.75}, public=True, seed=1,
             what="50 sequences, batches of 4 (the last one has 2)"),
        Case("exact-multiple", {"n": 64, "batch_size": 8, "bucket_factor": 4, "min_efficiency": 0.7},
             public=True, seed=2, what="64 sequences: 8 full batches, no partial one"),
        Case("long-tail", {"n": 203, "batch_size": 16, "bucket_factor": 4, "min_efficiency": 0.35,
                           "heavy_tail": True}, seed=3,
             what="heavy-tailed lengths: bucketing must keep the padding low"),
        Case("odd-sizes", {"n": 97, "batch_size": 7, "bucket_factor": 3, "min_efficiency": 0.65}, seed=4,
             what="97 sequences in batches of 7: one partial batch of 6, kept"),
        Case("fewer-than-batch", {"n": 5, "batch_size": 8, "bucket_factor": 8, "min_efficiency": 0.0}, seed=5,
             what="fewer sequences than batch_size: a single partial batch"),
        Case("one-sequence", {"n": 1, "batch_size": 4, "bucket_factor": 2, "min_efficiency": 0.0}, seed=6,
             what="a dataset of one"),
        Case("equal-lengths", {"n": 40, "batch_size": 5, "bucket_factor": 2, "min_efficiency": 0.99,
                               "constant": True}, seed=7,
             what="all lengths equal: ties everywhere, still a shuffled cover of every index"),
        Case("big-pool", {"n": 150, "batch_size": 6, "bucket_factor": 25, "min_efficiency": 0.9}, seed=8,
             what="one pool of 150: almost a global sort, batch order still shuffled"),
    ]


def make_inputs(seed, n, batch_size, bucket_factor, min_efficiency, heavy_tail=False, constant=False):
    g = torch.Generator().manual_seed(seed)
    if constant:
        lengths = [17] * n
    elif heavy_tail:
        lengths = (torch.randn(n, generator=g).exp() * 30).long().clamp(min=1).tolist()  # log-normal
    else:
        lengths = torch.randint(1, 200, (n,), generator=g).tolist()
    return {"lengths": lengths, "batch_size": batch_size, "bucket_factor": bucket_factor, "seed": 1000 + seed,
            "min_efficiency": min_efficiency}


def _rows(t):
    return [[int(i) for i in row if i >= 0] for row in t]


def check(inputs, got):
    n, bs, lengths = len(inputs["lengths"]), inputs["batch_size"], inputs["lengths"]
    epoch0 = _rows(got["epoch0"])
    for name in ("epoch0", "epoch1", "other_seed_epoch0"):
        rows = _rows(got[name])
        flat = [i for r in rows for i in r]
        if len(flat) != len(set(flat)):
            dup = next(i for i in flat if flat.count(i) > 1)
            return f"{name}: index {dup} appears more than once in one epoch"
        missing = sorted(set(range(n)) - set(flat))
        if missing or len(flat) != n:
            return f"{name}: {len(missing)} indices never appear in the epoch (e.g. {missing[:3]}); all {n} must"
        sizes = sorted(len(r) for r in rows)
        want = sorted([bs] * (n // bs) + ([n % bs] if n % bs else []))
        if sizes != want:
            return f"{name}: batch sizes {sizes}, expected {want} (full batches, one partial batch of n % batch_size)"
    if _rows(got["epoch0_again"]) != epoch0 or _rows(got["fresh_epoch0"]) != epoch0:
        return "epoch 0 came out in a different order on a second pass: derive the order only from seed + epoch"
    if n >= 20:
        if _rows(got["epoch1"]) == epoch0:
            return "epoch 1 has the same batches in the same order as epoch 0: reshuffle per epoch (set_epoch)"
        if _rows(got["other_seed_epoch0"]) == epoch0:
            return "a different seed gave the same order: the seed must drive the shuffle"
        maxes = [max(lengths[i] for i in r) for r in epoch0]
        if len(set(maxes)) > 2 and (maxes == sorted(maxes) or maxes == sorted(maxes, reverse=True)):
            return "batches come out sorted by length: shuffle the order of the batches too"
    real = sum(lengths)
    padded = sum(len(r) * max(lengths[i] for i in r) for r in epoch0)
    eff = real / padded
    if eff < inputs["min_efficiency"]:
        return (f"padding efficiency {eff:.3f} (real tokens / padded tokens) is below {inputs['min_efficiency']}: "
                "group sequences of similar length")
    return None
