import torch

from torchdojo.judge.testing import Case

STEP2 = {"kind": "step", "step_size": 2, "gamma": 0.5}


def cases():
    return [
        Case("steplr-example", {"m": 2, "epochs": 3, "schedule": STEP2, "lr0": 0.1}, public=True, seed=1,
             what="StepLR(step_size=2, gamma=0.5), two batches, three epochs"),
        Case("exponential", {"m": 3, "epochs": 2, "schedule": {"kind": "exponential", "gamma": 0.8}, "lr0": 0.05},
             public=True, seed=2, what="ExponentialLR(gamma=0.8), three batches, two epochs"),
        Case("one-batch-per-epoch", {"m": 1, "epochs": 4, "schedule": {"kind": "exponential", "gamma": 0.5},
                                     "lr0": 0.1}, seed=3,
             what="one batch per epoch (per-batch and per-epoch stepping coincide in count)"),
        Case("multistep", {"m": 2, "epochs": 6, "schedule": {"kind": "multistep", "milestones": [1, 4], "gamma": 0.3},
                           "lr0": 0.1}, seed=4, what="MultiStepLR(milestones=[1, 4]): decay after epochs 1 and 4"),
        Case("single-epoch", {"m": 4, "epochs": 1, "schedule": STEP2, "lr0": 0.1}, seed=5,
             what="one epoch: every step at lr0, the scheduler stepped once"),
        Case("many-batches", {"m": 5, "epochs": 3, "schedule": {"kind": "step", "step_size": 1, "gamma": 0.7},
                              "lr0": 0.05}, seed=6, shrink=("m",), what="five batches per epoch"),
        Case("long-run", {"m": 2, "epochs": 7, "schedule": {"kind": "step", "step_size": 3, "gamma": 0.5}, "lr0": 0.1},
             seed=7, what="seven epochs, decay every three"),
    ]


def make_inputs(seed, m, epochs, schedule, lr0, n=4, d=3, h=4, o=1):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, scale=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * scale

    w_true = rnd(o, d)
    xs = rnd(m, n, d)
    ys = torch.sin(xs @ w_true.T) + 0.1 * rnd(m, n, o)
    return {"xs": xs, "ys": ys, "epochs": epochs, "schedule": dict(schedule), "lr0": lr0,
            "0.weight": rnd(h, d, scale=d ** -0.5), "0.bias": rnd(h, scale=0.1), "2.weight": rnd(o, h, scale=h ** -0.5),
            "2.bias": rnd(o, scale=0.1)}


def _lr(inputs, e):
    """The closed-form learning rate of epoch e."""
    s, lr0 = inputs["schedule"], inputs["lr0"]
    if s["kind"] == "step":
        return lr0 * s["gamma"] ** (e // s["step_size"])
    if s["kind"] == "multistep":
        return lr0 * s["gamma"] ** sum(e >= m for m in s["milestones"])
    return lr0 * s["gamma"] ** e


def oracle(inputs):
    """Closed-form learning rate per epoch and momentum SGD written out by hand."""
    params = [inputs[k].clone().requires_grad_(True) for k in ("0.weight", "0.bias", "2.weight", "2.bias")]
    bufs, losses, lrs = [None] * 4, [], []
    for e in range(inputs["epochs"]):
        lr = _lr(inputs, e)
        for x, y in zip(inputs["xs"], inputs["ys"], strict=True):
            w1, b1, w2, b2 = params
            loss = ((torch.tanh(x @ w1.T + b1) @ w2.T + b2 - y) ** 2).mean()
            grads = torch.autograd.grad(loss, params)
            losses.append(loss.item())
            lrs.append(lr)
            with torch.no_grad():
                for i, (p, gr) in enumerate(zip(params, grads, strict=True)):
                    bufs[i] = gr.clone() if bufs[i] is None else 0.9 * bufs[i] + gr
                    p -= lr * bufs[i]
    out = {"step_lrs": lrs, "losses": losses, "final_lr": _lr(inputs, inputs["epochs"]), "last_epoch": inputs["epochs"]}
    for name, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), params, strict=True):
        out[f"final.{name}"] = p.detach()
    return out
