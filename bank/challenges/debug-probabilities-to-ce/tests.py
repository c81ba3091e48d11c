import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("three-classes", {"steps": 4, "n": 6, "d": 3, "h": 5, "c": 3, "scale": 1.0}, public=True, seed=1,
             what="four steps, three classes"),
        Case("two-classes", {"steps": 3, "n": 4, "d": 2, "h": 4, "c": 2, "scale": 1.0}, public=True, seed=2,
             what="three steps, two classes"),
        Case("many-steps", {"steps": 15, "n": 8, "d": 4, "h": 6, "c": 4, "scale": 2.0}, seed=3, shrink=("steps",),
             what="fifteen steps: the loss must keep falling"),
        Case("confident-model", {"steps": 3, "n": 6, "d": 3, "h": 4, "c": 3, "scale": 400.0}, seed=4,
             shrink=("steps",), what="logits hundreds apart: the loss must stay finite"),
        Case("many-classes", {"steps": 5, "n": 10, "d": 5, "h": 8, "c": 7, "scale": 1.5}, seed=5, shrink=("steps",),
             what="seven classes"),
        Case("single-sample-batches", {"steps": 6, "n": 1, "d": 2, "h": 3, "c": 3, "scale": 1.0}, seed=6,
             shrink=("steps",), what="batches of one sample"),
    ]


def make_inputs(seed, steps, n, d, h, c, scale):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, s=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * s

    centers = rnd(c, d, s=2.0)
    ys = torch.randint(0, c, (steps, n), generator=g)
    return {"xs": centers[ys] + rnd(steps, n, d), "ys": ys, "val_x": rnd(5, d, s=2.0), "lr": 0.5,
            "0.weight": rnd(h, d, s=d ** -0.5), "0.bias": rnd(h, s=0.1),
            "2.weight": rnd(c, h, s=scale * h ** -0.5), "2.bias": rnd(c, s=0.1)}


def check(inputs, got):
    p = got["val_probs"]
    if not torch.isfinite(p).all():
        return None  # training diverged: the loss comparison says where
    if (p < 0).any() or not torch.allclose(p.sum(dim=1), torch.ones(p.shape[0], dtype=p.dtype)):
        return "predict_proba must return probabilities: non-negative, each row summing to 1"
    return None


def oracle(inputs):
    """Cross-entropy from logits written out (logsumexp minus the true logit), plain SGD by hand."""
    params = [inputs[k].clone().requires_grad_(True) for k in ("0.weight", "0.bias", "2.weight", "2.bias")]
    losses = []
    for x, y in zip(inputs["xs"], inputs["ys"], strict=True):
        w1, b1, w2, b2 = params
        z = torch.relu(x @ w1.T + b1) @ w2.T + b2
        loss = (torch.logsumexp(z, dim=1) - z[torch.arange(len(y)), y]).mean()
        grads = torch.autograd.grad(loss, params)
        losses.append(loss.item())
        with torch.no_grad():
            for p, gr in zip(params, grads, strict=True):
                p -= inputs["lr"] * gr
    w1, b1, w2, b2 = (p.detach() for p in params)
    out = {"losses": losses}
    out.update({f"final.{k}": p for k, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), (w1, b1, w2, b2),
                                                    strict=True)})
    out["val_probs"] = torch.softmax(torch.relu(inputs["val_x"] @ w1.T + b1) @ w2.T + b2, dim=1)
    return out
