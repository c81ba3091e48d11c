import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("three-steps", {"steps": 3, "n": 4, "d": 2, "h": 3, "o": 1, "lr": 0.05}, public=True, seed=1,
             what="three SGD steps on a tiny regression MLP"),
        Case("five-steps", {"steps": 5, "n": 6, "d": 3, "h": 4, "o": 2, "lr": 0.02}, public=True, seed=2,
             what="five steps, two outputs"),
        Case("one-step", {"steps": 1, "n": 5, "d": 3, "h": 4, "o": 1, "lr": 0.1}, seed=3,
             what="a single step (nothing to accumulate yet)"),
        Case("many-steps", {"steps": 16, "n": 8, "d": 4, "h": 6, "o": 2, "lr": 0.01}, seed=4, shrink=("steps",),
             what="sixteen steps: every step must use only its own batch's gradient"),
        Case("large-lr", {"steps": 8, "n": 4, "d": 2, "h": 5, "o": 1, "lr": 0.2}, seed=5, shrink=("steps",),
             what="a large learning rate, where stale gradients make training unstable"),
        Case("single-sample-batches", {"steps": 10, "n": 1, "d": 3, "h": 3, "o": 1, "lr": 0.05}, seed=6,
             shrink=("steps",), what="batches of one sample"),
    ]


def make_inputs(seed, steps, n, d, h, o, lr):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    true_w = rnd(o, d)
    xs = rnd(steps, n, d)
    ys = torch.sin(xs @ true_w.T) + 0.1 * rnd(steps, n, o)
    return {"xs": xs, "ys": ys, "lr": lr, "w1": rnd(h, d, scale=d ** -0.5), "b1": rnd(h, scale=0.1),
            "w2": rnd(o, h, scale=h ** -0.5), "b2": rnd(o, scale=0.1)}


def oracle(inputs):
    """Plain SGD with momentum written out by hand, each gradient from torch.autograd.grad on
    its own batch only."""
    params = [inputs[k].clone().requires_grad_(True) for k in ("w1", "b1", "w2", "b2")]
    bufs = [None] * 4
    losses = []
    for x, y in zip(inputs["xs"], inputs["ys"], strict=True):
        w1, b1, w2, b2 = params
        pred = torch.tanh(x @ w1.T + b1) @ w2.T + b2
        loss = ((pred - y) ** 2).mean()
        grads = torch.autograd.grad(loss, params)
        losses.append(loss.item())
        with torch.no_grad():
            for i, (p, gr) in enumerate(zip(params, grads, strict=True)):
                bufs[i] = gr.clone() if bufs[i] is None else 0.9 * bufs[i] + gr
                p -= inputs["lr"] * bufs[i]
    out = {"losses": losses}
    for name, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), params, strict=True):
        out[f"final.{name}"] = p.detach()
    return out
