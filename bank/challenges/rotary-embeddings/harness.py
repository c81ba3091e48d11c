import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    offset, base, split = inputs["offset"], inputs["base"], inputs["split"]
    x = inputs["x"].clone().requires_grad_(True)
    out = sol.apply_rope(x, offset=offset, base=base)
    (grad_x,) = vjp(out, x, seed=1)
    res = {"out": out, "grad_x": grad_x}
    with torch.no_grad():
        # decoding: rotating the tail with a larger offset
        res["tail"] = sol.apply_rope(inputs["x"][..., split:, :].clone(), offset=offset + split, base=base)
        # relative-position probe: the same q (and k) placed at every position 0..P-1
        P = inputs["probe_len"]
        q = inputs["q"].reshape(1, -1).repeat(P, 1)
        k = inputs["k"].reshape(1, -1).repeat(P, 1)
        rq = sol.apply_rope(q, offset=0, base=base)
        rk = sol.apply_rope(k, offset=0, base=base)
        res["scores"] = rq @ rk.T  # scores[m, n] = rope(q, m) . rope(k, n)
        res["rq_norms"] = rq.norm(dim=-1)
    return res
