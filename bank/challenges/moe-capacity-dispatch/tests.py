import math

import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"n": 8, "d": 4, "e": 4, "cf": 1.0, "skew": 1.0}, seed=1, public=True,
             what="8 tokens, 4 experts, capacity 2: a popular expert drops tokens"),
        Case("roomy", {"n": 6, "d": 4, "e": 3, "cf": 2.0}, seed=2, public=True,
             what="capacity_factor 2: nothing dropped"),
        Case("ceil-capacity", {"n": 10, "d": 6, "e": 4, "cf": 1.25, "skew": 1.5}, seed=3, shrink=("d",),
             what="capacity = ceil(1.25 * 10 / 4) = 4, not 3"),
        Case("heavy-skew", {"n": 24, "d": 8, "e": 6, "cf": 1.0, "skew": 0.5}, seed=4, shrink=("d",),
             what="most tokens pick one expert: the later ones (token order) are dropped"),
        Case("tiny-capacity", {"n": 6, "d": 5, "e": 4, "cf": 0.5, "skew": 1.0}, seed=5,
             what="capacity_factor 0.5: capacity ceil(0.75) = 1 per expert"),
        Case("one-expert", {"n": 7, "d": 4, "e": 1, "cf": 0.5}, seed=6,
             what="E = 1: every token picks expert 0, gate probability 1, capacity ceil(3.5) = 4"),
        Case("single-token", {"n": 1, "d": 6, "e": 3, "cf": 1.0}, seed=7, what="one token, capacity 1"),
        Case("confident-router", {"n": 16, "d": 8, "e": 4, "cf": 1.0, "scale": 6.0}, seed=8, shrink=("d",),
             what="large router logits (near one-hot probabilities)"),
        Case("more-experts", {"n": 12, "d": 6, "e": 16, "cf": 1.5, "skew": 0.5}, seed=9, shrink=("d",),
             what="more experts than tokens: idle experts, capacity 2"),
    ]


def make_inputs(seed, n, d, e, cf, skew=0.0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    c = torch.randn(d, generator=g, dtype=f64)
    x = torch.randn(n, d, generator=g, dtype=f64) + (c if skew else 0.0)
    rw = torch.randn(e, d, generator=g, dtype=f64) * scale * d ** -0.5
    if skew:
        rw[0] = rw[0] + skew * c / c.norm()  # expert 0 is everyone's favourite: it overflows
    ew = torch.randn(e, d, d, generator=g, dtype=f64) * d ** -0.5
    return {"x": x, "router_weight": rw, "expert_weight": ew, "capacity_factor": cf}


def oracle(inputs):
    """Token by token, with an explicit counter per expert."""
    from torchdojo.judge.testing import vjp

    x = inputs["x"].clone().requires_grad_(True)
    rw = inputs["router_weight"].clone().requires_grad_(True)
    ew = inputs["expert_weight"].clone().requires_grad_(True)
    N, E = x.shape[0], rw.shape[0]
    cap = math.ceil(inputs["capacity_factor"] * N / E)
    probs = torch.nn.functional.softmax(x @ rw.T, dim=-1)
    used, rows, index, counts = [0] * E, [], [], [0] * E
    for t in range(N):
        e = int(torch.argmax(probs[t]))
        counts[e] += 1
        if used[e] < cap:
            used[e] += 1
            rows.append(probs[t, e] * (x[t] @ ew[e]))
            index.append(e)
        else:
            rows.append(torch.zeros_like(x[t]))
            index.append(-1)
    y = torch.stack(rows)
    aux = E * sum(counts[i] / N * probs[:, i].mean() for i in range(E))
    zero = (x.sum() + rw.sum() + ew.sum()) * 0.0
    gx, grw, gew = vjp((y + zero, aux + zero), (x, rw, ew), seed=1)
    return {"expert_index": torch.tensor(index), "y": y, "aux_loss": aux, "grad_x": gx, "grad_router_weight": grw,
            "grad_expert_weight": gew}
