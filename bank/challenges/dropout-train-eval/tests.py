import math

import torch

from torchdojo.judge.testing import Case

# Correct solutions draw different masks: these are compared for shape/dtype only; check() verifies them.
CHECK_ONLY = ("train_y", "train_x_grad", "train_y_same_seed", "train_y_other_seed")


def cases():
    return [
        Case("half", {"rows": 8, "cols": 8, "p": 0.5}, public=True, seed=1, what="p = 0.5"),
        Case("small-p", {"rows": 6, "cols": 10, "p": 0.2}, public=True, seed=2, what="p = 0.2"),
        Case("large-p", {"rows": 48, "cols": 64, "p": 0.9}, seed=3, shrink=("rows",),
             what="p = 0.9 on a few thousand elements"),
        Case("p-zero", {"rows": 5, "cols": 7, "p": 0.0}, seed=4, shrink=("rows", "cols"),
             what="p = 0 keeps everything unchanged"),
        Case("p-one", {"rows": 5, "cols": 7, "p": 1.0}, seed=5, shrink=("rows", "cols"),
             what="p = 1 drops everything: zeros, no NaN"),
        Case("3d", {"rows": 4, "cols": 16, "depth": 8, "p": 0.3}, seed=6, shrink=("rows",),
             what="a 3-D input, p = 0.3"),
        Case("float32", {"rows": 32, "cols": 32, "p": 0.5, "dtype": "float32"}, seed=7, shrink=("rows",),
             what="float32 input keeps its dtype"),
        Case("tiny", {"rows": 1, "cols": 3, "p": 0.5}, seed=8, what="three elements"),
    ]


def make_inputs(seed, rows, cols, p, depth=None, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    shape = (rows, cols) if depth is None else (rows, cols, depth)
    x = torch.randn(shape, generator=g, dtype=torch.float64)
    x = torch.where(x.abs() < 1e-3, torch.full_like(x, 0.5), x)  # no zeros: a zero output means dropped
    return {"x": x.to(getattr(torch, dtype)), "p": p, "rng_seed": 1000 + seed}


def _upstream(t, seed):  # the vector vjp(..., seed) used
    g = torch.Generator().manual_seed(seed)
    return torch.randn(t.shape, generator=g, dtype=torch.float64).to(t.dtype)


def check(inputs, got):
    x, p = inputs["x"], inputs["p"]
    tol = {"rtol": 1e-5, "atol": 1e-6} if x.dtype == torch.float32 else {"rtol": 1e-12, "atol": 1e-12}
    y, g = got["train_y"], got["train_x_grad"]
    if not torch.equal(got["train_y_same_seed"], y):
        return "two calls after the same torch.manual_seed gave different masks: draw from torch's RNG"
    if 0 < p < 1 and x.numel() >= 64 and torch.equal(got["train_y_other_seed"] != 0, y != 0):
        # P(same mask by chance) <= (p^2 + (1-p)^2)^64 < 1e-9 for the p used here
        return ("two calls after different torch.manual_seed values gave the same mask: draw a fresh mask from "
                "torch's global RNG on every call, not from a private, fixed-seed generator")
    kept = y != 0
    if p == 1.0:
        if kept.any() or g.abs().sum() != 0:
            return "with p = 1 every element (and its gradient) must be zero"
    else:
        problem = _check_train(x, p, y, g, kept, tol)
        if problem:
            return problem
    if not torch.equal(got["eval_y"], x):
        return "in eval mode dropout must return the input unchanged"
    if not torch.allclose(got["eval_x_grad"], _upstream(x, 2), **tol):
        return "in eval mode the gradient must pass through unchanged"
    return None


def _check_train(x, p, y, g, kept, tol):
    scale = 1.0 / (1.0 - p)
    if not torch.allclose(y[kept], x[kept] * scale, **tol):
        return "kept elements must be scaled by 1/(1-p) in training mode"
    if not torch.allclose(g, _upstream(x, 1) * kept.to(g.dtype) * scale, **tol):
        return "the gradient must be the upstream gradient times the mask times 1/(1-p)"
    n = x.numel()
    frac = kept.double().mean().item()
    if abs(frac - (1 - p)) > 5 * math.sqrt(p * (1 - p) / n) + 1.0 / n:
        return f"kept {frac:.3f} of the elements; expected about {1 - p:.3f}"
    if x.dim() >= 2 and x.shape[0] > 1 and 0 < p < 1 and (kept == kept[:1]).all():
        return "every row has the same mask: draw one random number per element"
    return None
