import torch


def _epoch(sampler, bs, global_seed):
    torch.manual_seed(global_seed)  # a solution that draws from the global RNG will not reproduce
    rows = [[int(i) for i in b] for b in sampler]
    width = max([bs] + [len(b) for b in rows])  # an oversized batch is reported by the checks, not a crash
    t = torch.full((len(rows), width), -1, dtype=torch.long)
    for r, b in enumerate(rows):
        t[r, : len(b)] = torch.tensor(b, dtype=torch.long)
    return t


def run(sol, inputs):
    lengths, bs, seed, factor = inputs["lengths"], inputs["batch_size"], inputs["seed"], inputs["bucket_factor"]
    s = sol.LengthBucketSampler(lengths, bs, seed=seed, bucket_factor=factor)
    out = {"len": len(s)}
    s.set_epoch(0)
    out["epoch0"] = _epoch(s, bs, 1)
    out["epoch0_again"] = _epoch(s, bs, 2)
    s.set_epoch(1)
    out["epoch1"] = _epoch(s, bs, 3)
    fresh = sol.LengthBucketSampler(lengths, bs, seed=seed, bucket_factor=factor)
    fresh.set_epoch(0)
    out["fresh_epoch0"] = _epoch(fresh, bs, 4)
    other = sol.LengthBucketSampler(lengths, bs, seed=seed + 1, bucket_factor=factor)
    other.set_epoch(0)
    out["other_seed_epoch0"] = _epoch(other, bs, 5)
    return out
