import torch

from torchdojo.judge.testing import vjp


def _gradcheck(fn, x):
    try:
        return bool(torch.autograd.gradcheck(fn, (x,), eps=1e-6, atol=1e-5, raise_exception=False))
    except Exception:  # noqa: BLE001 - a crash in the probe is a failed probe
        return False


def run(sol, inputs):
    lo, hi = inputs["lo"], inputs["hi"]
    out = {"is_function": [isinstance(c, type) and issubclass(c, torch.autograd.Function)
                           for c in (sol.RoundSTE, sol.Clamp, sol.SiLU)]}
    x = inputs["x"].clone().requires_grad_(True)
    r = sol.RoundSTE.apply(x * inputs["scale"]) / inputs["scale"]  # fake quantisation to a grid
    c = sol.Clamp.apply(x, lo, hi)
    s = sol.SiLU.apply(x)
    z = sol.SiLU.apply(sol.Clamp.apply(sol.RoundSTE.apply(x * 3.0) / 3.0, lo, hi))  # all three chained
    out.update({"round": r, "clamp": c, "silu": s, "chain": z})
    for i, (name, y) in enumerate((("round", r), ("clamp", c), ("silu", s), ("chain", z))):
        (out[f"{name}_vjp"],) = vjp(y, x, seed=i + 1)
    if x.dtype == torch.float64:
        xg = inputs["probe"].clone().requires_grad_(True)
        out["gradcheck_silu"] = _gradcheck(sol.SiLU.apply, xg)
        out["gradcheck_clamp"] = _gradcheck(lambda t: sol.Clamp.apply(t, lo, hi), xg)
    return out
