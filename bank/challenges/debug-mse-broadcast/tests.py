import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("batches-of-four", {"sizes": [4, 4], "epochs": 2, "d": 2, "h": 3, "lr": 0.1}, public=True, seed=1,
             what="two batches of four, two epochs"),
        Case("batch-size-one", {"sizes": [1, 1, 1], "epochs": 1, "d": 2, "h": 3, "lr": 0.1}, public=True, seed=2,
             what="batches of one example (where broadcasting changes nothing)"),
        Case("uneven-batches", {"sizes": [5, 5, 2], "epochs": 2, "d": 3, "h": 4, "lr": 0.05}, seed=3,
             shrink=("epochs",), what="a smaller last batch"),
        Case("many-epochs", {"sizes": [6, 6], "epochs": 8, "d": 2, "h": 5, "lr": 0.1}, seed=4, shrink=("epochs",),
             what="eight epochs: the same batch tensors are reused every epoch"),
        Case("one-big-batch", {"sizes": [16], "epochs": 5, "d": 4, "h": 6, "lr": 0.2}, seed=5, shrink=("epochs",),
             what="full-batch training"),
        Case("two-examples", {"sizes": [2], "epochs": 3, "d": 1, "h": 2, "lr": 0.1}, seed=6, shrink=("epochs",),
             what="batches of two"),
        Case("mixed-sizes", {"sizes": [1, 3, 7, 1], "epochs": 3, "d": 3, "h": 4, "lr": 0.05}, seed=7,
             shrink=("epochs",), what="batches of 1, 3, 7 and 1 examples"),
    ]


def make_inputs(seed, sizes, epochs, d, h, lr):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    w_true = rnd(d)
    n = sum(sizes)
    x, val_x = rnd(n, d), rnd(7, d)
    y = torch.sin(2 * x @ w_true) + 0.5 + 0.1 * rnd(n)
    val_y = torch.sin(2 * val_x @ w_true) + 0.5
    return {"x": x, "y": y, "sizes": list(sizes), "epochs": epochs, "lr": lr, "val_x": val_x, "val_y": val_y,
            "0.weight": rnd(h, d, scale=d ** -0.5), "0.bias": rnd(h, scale=0.1), "2.weight": rnd(1, h, scale=h ** -0.5),
            "2.bias": rnd(1, scale=0.1)}


def oracle(inputs):
    """The MLP and SGD written out by hand; each example's error against its own target."""
    params = [inputs[k].clone().requires_grad_(True) for k in ("0.weight", "0.bias", "2.weight", "2.bias")]

    def f(x):
        w1, b1, w2, b2 = params
        return torch.tanh(x @ w1.T + b1) @ w2[0] + b2[0]  # (n,)

    losses = []
    for _ in range(inputs["epochs"]):
        start = 0
        for n in inputs["sizes"]:
            x, y = inputs["x"][start:start + n], inputs["y"][start:start + n]
            start += n
            loss = sum((f(x)[i] - y[i]) ** 2 for i in range(n)) / n
            grads = torch.autograd.grad(loss, params)
            losses.append(loss.item())
            with torch.no_grad():
                for p, gr in zip(params, grads, strict=True):
                    p -= inputs["lr"] * gr
    out = {"losses": losses}
    for name, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), params, strict=True):
        out[f"final.{name}"] = p.detach()
    with torch.no_grad():
        out["val_mse"] = ((f(inputs["val_x"]) - inputs["val_y"]) ** 2).mean().item()
    return out
