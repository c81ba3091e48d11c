import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"p": [[0.0, 0.0]], "q": [[0.0, math.log(3.0)]]}, public=True, what="the worked example"),
        Case("batch", {"shape": [4, 5]}, public=True, seed=1, what="a batch of 4 rows over 5 classes"),
        Case("asymmetric", {"shape": [6, 7], "p_scale": 4.0, "q_scale": 0.5}, seed=2, shrink=("B",),
             what="a peaked p against a flat q: the direction matters"),
        Case("identical", {"shape": [5, 9], "same": True}, seed=3, what="p = q gives 0"),
        Case("sequence", {"shape": [3, 4, 6]}, seed=4, what="(B, T, C) input: batchmean divides by B only"),
        Case("large-logits", {"shape": [5, 8], "p_scale": 1000.0, "q_scale": 1000.0}, seed=5,
             what="logits of magnitude 1000 (probabilities underflow to 0)"),
        Case("one-class", {"shape": [4, 1]}, seed=6, what="a single class: KL is 0"),
        Case("float32", {"shape": [8, 10], "dtype": "float32"}, seed=7, what="float32 logits give a float32 result"),
    ]


def make_inputs(seed, p=None, q=None, shape=(1, 1), p_scale=2.0, q_scale=2.0, same=False, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if p is not None:
        return {"p_logits": torch.tensor(p, dtype=dt), "q_logits": torch.tensor(q, dtype=dt)}
    pl = torch.randn(*shape, generator=g, dtype=torch.float64) * p_scale
    ql = pl.clone() if same else torch.randn(*shape, generator=g, dtype=torch.float64) * q_scale
    return {"p_logits": pl.to(dt), "q_logits": ql.to(dt)}


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    p = inputs["p_logits"].clone().requires_grad_(True)
    q = inputs["q_logits"].clone().requires_grad_(True)
    kl = F.kl_div(F.log_softmax(q, -1), F.log_softmax(p, -1), reduction="batchmean", log_target=True)
    gp, gq = vjp(kl, (p, q), seed=1)
    return {"kl": kl, "p_grad": gp, "q_grad": gq}
