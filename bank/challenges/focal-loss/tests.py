import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"n": 6, "alpha": 0.25, "gamma": 2.0, "reduction": "none"}, public=True, seed=1,
             what="elementwise losses"),
        Case("mean", {"n": 40, "alpha": 0.25, "gamma": 2.0, "reduction": "mean"}, public=True, seed=2, what="mean"),
        Case("large-logits", {"n": 20, "alpha": 0.5, "gamma": 2.0, "reduction": "sum", "scale": 1000.0}, seed=3,
             shrink=("n",), what="logits of +-1000 stay finite"),
        Case("gamma-zero", {"n": 30, "alpha": -1.0, "gamma": 0.0, "reduction": "mean"}, seed=4, shrink=("n",),
             what="gamma 0, no alpha: plain BCE with logits"),
        Case("fractional-gamma", {"n": 25, "alpha": 0.75, "gamma": 0.5, "reduction": "none"}, seed=5, shrink=("n",),
             what="gamma 0.5"),
        Case("2d", {"n": 12, "cols": 5, "alpha": 0.25, "gamma": 3.0, "reduction": "mean"}, seed=6, shrink=("n",),
             what="2-D inputs"),
    ]


def make_inputs(seed, n, alpha, gamma, reduction, cols=None, scale=3.0):
    g = torch.Generator().manual_seed(seed)
    shape = (n,) if cols is None else (n, cols)
    logits = torch.randn(shape, generator=g, dtype=torch.float64) * scale
    targets = (torch.rand(shape, generator=g) < 0.3).double()
    return {"logits": logits, "targets": targets, "alpha": alpha, "gamma": gamma, "reduction": reduction}


def oracle(inputs):
    """Straight from the paper's definition, computed with log-sigmoid for stability."""
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    x = inputs["logits"].clone().requires_grad_(True)
    t = inputs["targets"]
    log_p_t = torch.where(t == 1, F.logsigmoid(x), F.logsigmoid(-x))
    p_t = log_p_t.exp()
    a = inputs["alpha"]
    alpha_t = torch.where(t == 1, torch.full_like(x, a), torch.full_like(x, 1 - a)) if a >= 0 else torch.ones_like(x)
    loss = -alpha_t * (1 - p_t) ** inputs["gamma"] * log_p_t
    loss = {"mean": loss.mean(), "sum": loss.sum()}.get(inputs["reduction"], loss)
    (g,) = vjp(loss, x, seed=3)
    return {"loss": loss, "grad": g}
