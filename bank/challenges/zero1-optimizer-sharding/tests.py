import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("even", {"shapes": [[2, 3], [2]], "world": 4, "steps": 2}, seed=1, public=True,
             what="N = 8 over 4 ranks: no padding"),
        Case("padded", {"shapes": [[3], [2, 2]], "world": 3, "steps": 3}, seed=2, public=True,
             what="N = 7 over 3 ranks: one padding element"),
        Case("shard-spans-params", {"shapes": [[5], [3, 3], [4]], "world": 4, "steps": 4}, seed=3,
             shrink=("steps",), what="shards cut across parameter boundaries, 2 padding elements"),
        Case("single-rank", {"shapes": [[4, 2], [3]], "world": 1, "steps": 3}, seed=4,
             what="world size 1: plain Adam"),
        Case("more-ranks-than-elements", {"shapes": [[2], [1]], "world": 5, "steps": 2}, seed=5,
             what="N = 3 < W = 5: shards of one element, two ranks own only padding"),
        Case("ranks-disagree", {"shapes": [[6, 5]], "world": 6, "steps": 5, "spread": 5.0,
                                "hp": {"lr": 0.05}}, seed=6, shrink=("steps",),
             what="very different per-rank gradients: the update uses their average"),
        Case("eps-matters", {"shapes": [[7], [2, 5]], "world": 2, "steps": 4, "gscale": 1e-3,
                             "hp": {"lr": 0.1, "eps": 1e-3, "betas": [0.8, 0.95]}}, seed=7, shrink=("steps",),
             what="tiny gradients, large eps, custom betas: eps goes outside the square root"),
        Case("many-steps", {"shapes": [[4, 4], [4], [3]], "world": 3, "steps": 12, "hp": {"lr": 0.01}},
             seed=8, shrink=("steps",), what="12 steps: bias correction at every step"),
        Case("float32", {"shapes": [[5, 3], [5]], "world": 4, "steps": 3, "dtype": "float32",
                         "hp": {"lr": 0.01}}, seed=9, what="float32 parameters: state in float32"),
    ]


def make_inputs(seed, shapes, world, steps, spread=1.0, gscale=1.0, hp=None, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    out = {"shapes": shapes, "world": world, "steps": steps, "hp": dict(hp or {})}
    if "betas" in out["hp"]:
        out["hp"]["betas"] = tuple(out["hp"]["betas"])
    for i, shape in enumerate(shapes):
        out[f"p{i}"] = torch.randn(shape, generator=g, dtype=torch.float64).to(dt)
        common = torch.randn(steps, 1, *shape, generator=g, dtype=torch.float64)
        per_rank = torch.randn(steps, world, *shape, generator=g, dtype=torch.float64) * spread
        out[f"g{i}"] = ((common + per_rank) * gscale).to(dt)
    return out


def oracle(inputs):
    """torch.optim.Adam on the full tensors with the rank-averaged gradients; its state, flattened and
    zero-padded, cut into W equal shards."""
    n, w, steps = len(inputs["shapes"]), inputs["world"], inputs["steps"]
    params = [inputs[f"p{i}"].clone().requires_grad_(True) for i in range(n)]
    opt = torch.optim.Adam(params, **inputs["hp"], foreach=False)
    history = []
    for s in range(steps):
        for i, p in enumerate(params):
            p.grad = inputs[f"g{i}"][s].mean(0)
        opt.step()
        history.append(torch.cat([p.detach().reshape(-1) for p in params]).clone())
    numel = history[0].numel()
    shard = math.ceil(numel / w)

    def sharded(key):
        flat = torch.cat([opt.state[p][key].reshape(-1) for p in params])
        return torch.cat([flat, flat.new_zeros(shard * w - numel)])

    return {"params": torch.stack(history), "shard_sizes": [shard] * w, "exp_avg": sharded("exp_avg"), "exp_avg_sq": sharded("exp_avg_sq"),
            "step": [steps] * w}
