import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("gamma-2", {"gamma": 2.0, "steps": 3, "n": 6, "d": 3, "h": 4, "c": 3, "scale": 3.0}, public=True,
             seed=1, what="gamma 2, a few confident predictions"),
        Case("gamma-0", {"gamma": 0.0, "steps": 2, "n": 5, "d": 2, "h": 3, "c": 4, "scale": 2.0}, public=True,
             seed=2, what="gamma 0: a clamped cross-entropy"),
        Case("saturated", {"gamma": 2.0, "steps": 4, "n": 8, "d": 3, "h": 5, "c": 3, "scale": 12.0}, seed=3,
             shrink=("steps", "n"), what="very confident logits: the clamp is active and has zero gradient"),
        Case("gamma-half", {"gamma": 0.5, "steps": 5, "n": 6, "d": 4, "h": 6, "c": 5, "scale": 6.0}, seed=4,
             shrink=("steps",), what="gamma 0.5"),
        Case("binary", {"gamma": 1.0, "steps": 3, "n": 4, "d": 2, "h": 4, "c": 2, "scale": 8.0}, seed=5,
             shrink=("steps",), what="two classes"),
        Case("many-classes", {"gamma": 2.0, "steps": 3, "n": 6, "d": 3, "h": 6, "c": 8, "scale": 10.0}, seed=6,
             shrink=("steps",), what="eight classes, many clamped probabilities"),
    ]


def make_inputs(seed, gamma, steps, n, d, h, c, scale):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, s=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * s

    return {"gamma": gamma, "lr": 0.1, "logits": rnd(n, c, s=scale), "labels": torch.randint(0, c, (n,), generator=g),
            "xs": rnd(steps, n, d), "ys": torch.randint(0, c, (steps, n), generator=g),
            "w1": rnd(h, d, s=d ** -0.5), "b1": rnd(h, s=0.1), "w2": rnd(c, h, s=scale * h ** -0.5), "b2": rnd(c, s=0.1)}


def oracle(inputs):
    """The focal loss written with torch.where instead of clamp (the gradient is 0 where the clamp
    is active), and its gradient from torch.autograd."""
    from torchdojo.judge.testing import vjp

    eps, gamma = 1e-3, inputs["gamma"]
    logits = inputs["logits"].clone().requires_grad_(True)
    p = torch.softmax(logits, dim=1)
    p = torch.where(p < eps, torch.full_like(p, eps).detach(), torch.where(p > 1 - eps, torch.full_like(p, 1 - eps), p))
    pt = p[torch.arange(p.shape[0]), inputs["labels"]]
    loss = (-(1 - pt) ** gamma * torch.log(pt)).mean()
    (g,) = vjp(loss, logits, seed=1)
    return {"focal_loss": loss.detach(), "focal_loss_logits_grad": g}
