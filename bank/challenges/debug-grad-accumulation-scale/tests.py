import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("two-groups", {"m": 4, "k": 2, "n": 3, "d": 2, "h": 3, "o": 1, "lr": 0.1}, public=True, seed=1,
             what="four micro-batches, accumulate two"),
        Case("partial-last-group", {"m": 5, "k": 2, "n": 3, "d": 2, "h": 3, "o": 1, "lr": 0.1}, public=True, seed=2,
             what="five micro-batches, accumulate two: the last group has one"),
        Case("no-accumulation", {"m": 4, "k": 1, "n": 4, "d": 3, "h": 4, "o": 2, "lr": 0.05}, seed=3, shrink=("m",),
             what="accum_steps = 1: an ordinary loop"),
        Case("one-group", {"m": 4, "k": 4, "n": 2, "d": 3, "h": 4, "o": 1, "lr": 0.2}, seed=4,
             what="all micro-batches in one group: a single step"),
        Case("accumulate-three", {"m": 9, "k": 3, "n": 2, "d": 2, "h": 5, "o": 2, "lr": 0.1}, seed=5, shrink=("n",),
             what="three groups of three"),
        Case("short-tail", {"m": 7, "k": 3, "n": 4, "d": 3, "h": 4, "o": 1, "lr": 0.1}, seed=6, shrink=("n",),
             what="seven micro-batches in groups of three: a tail of one"),
        Case("fewer-than-k", {"m": 2, "k": 4, "n": 3, "d": 2, "h": 3, "o": 1, "lr": 0.3}, seed=7,
             what="fewer micro-batches than accum_steps: one short group"),
        Case("single-row", {"m": 8, "k": 4, "n": 1, "d": 2, "h": 3, "o": 1, "lr": 0.1}, seed=8,
             what="micro-batches of one row"),
    ]


def make_inputs(seed, m, k, n, d, h, o, lr):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    w_true = rnd(o, d)
    xs = rnd(m, n, d)
    ys = torch.sin(xs @ w_true.T) + 0.1 * rnd(m, n, o)
    return {"xs": xs, "ys": ys, "accum_steps": k, "lr": lr, "0.weight": rnd(h, d, scale=d ** -0.5),
            "0.bias": rnd(h, scale=0.1), "2.weight": rnd(o, h, scale=h ** -0.5), "2.bias": rnd(o, scale=0.1)}


def oracle(inputs):
    """No accumulation at all: one hand-written momentum-SGD step per group, on the group's
    micro-batches concatenated."""
    params = [inputs[k].clone().requires_grad_(True) for k in ("0.weight", "0.bias", "2.weight", "2.bias")]

    def f(x):
        w1, b1, w2, b2 = params
        return torch.tanh(x @ w1.T + b1) @ w2.T + b2

    xs, ys, k = inputs["xs"], inputs["ys"], inputs["accum_steps"]
    bufs, losses, steps = [None] * 4, [], 0
    for s in range(0, xs.shape[0], k):
        with torch.no_grad():
            losses += [((f(x) - y) ** 2).mean().item() for x, y in zip(xs[s:s + k], ys[s:s + k], strict=True)]
        x, y = xs[s:s + k].reshape(-1, xs.shape[-1]), ys[s:s + k].reshape(-1, ys.shape[-1])
        grads = torch.autograd.grad(((f(x) - y) ** 2).mean(), params)
        steps += 1
        with torch.no_grad():
            for i, (p, gr) in enumerate(zip(params, grads, strict=True)):
                bufs[i] = gr.clone() if bufs[i] is None else 0.9 * bufs[i] + gr
                p -= inputs["lr"] * bufs[i]
    out = {"losses": losses, "optimizer_steps": steps}
    for name, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), params, strict=True):
        out[f"final.{name}"] = p.detach()
    return out
