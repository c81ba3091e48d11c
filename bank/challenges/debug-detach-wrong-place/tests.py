import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("three-steps", {"steps": 3, "n": 6, "d": 3, "hs": 3, "ht": 8, "c": 3, "temperature": 2.0, "alpha": 0.5},
             public=True, seed=1, what="three distillation steps"),
        Case("soft-only", {"steps": 4, "n": 5, "d": 2, "hs": 4, "ht": 6, "c": 4, "temperature": 4.0, "alpha": 1.0},
             public=True, seed=2, what="only the soft (teacher) term"),
        Case("many-steps", {"steps": 12, "n": 6, "d": 4, "hs": 4, "ht": 10, "c": 3, "temperature": 3.0,
                            "alpha": 0.7}, seed=3, shrink=("steps",), what="twelve steps"),
        Case("temperature-one", {"steps": 5, "n": 8, "d": 3, "hs": 5, "ht": 8, "c": 5, "temperature": 1.0,
                                 "alpha": 0.3}, seed=4, shrink=("steps",), what="temperature 1"),
        Case("one-step", {"steps": 1, "n": 4, "d": 2, "hs": 2, "ht": 4, "c": 2, "temperature": 2.0, "alpha": 0.5},
             seed=5, what="a single step"),
        Case("hard-only", {"steps": 4, "n": 5, "d": 3, "hs": 3, "ht": 6, "c": 3, "temperature": 2.0, "alpha": 0.0},
             seed=6, shrink=("steps",), what="alpha 0: only the labels' cross-entropy, the teacher still untouched"),
    ]


def make_inputs(seed, steps, n, d, hs, ht, c, temperature, alpha):
    g = torch.Generator().manual_seed(seed)

    def rnd(*shape, s=1.0):
        return torch.randn(*shape, generator=g, dtype=torch.float64) * s

    out = {"xs": rnd(steps, n, d), "ys": torch.randint(0, c, (steps, n), generator=g), "lr": 0.2,
           "temperature": temperature, "alpha": alpha}
    for prefix, h, scale in (("student.", hs, 1.0), ("teacher.", ht, 3.0)):
        out.update({prefix + "0.weight": rnd(h, d, s=d ** -0.5), prefix + "0.bias": rnd(h, s=0.1),
                    prefix + "2.weight": rnd(c, h, s=scale * h ** -0.5), prefix + "2.bias": rnd(c, s=0.1)})
    return out


def check(inputs, got):
    if inputs["xs"].shape[0] and all(torch.equal(got[f"student.{k}"], inputs[f"student.{k}"])
                                     for k in ("0.weight", "0.bias", "2.weight", "2.bias")):
        return "the student's parameters never changed: no gradient reaches them"
    if got["teacher_params_with_grad"]:
        return (f"{got['teacher_params_with_grad']} teacher parameters have a .grad after training: the loss "
                "backpropagates into the teacher")
    return None


def oracle(inputs):
    """The distillation loss written out with log-softmax formulas, plain SGD on the student only."""
    T, a = inputs["temperature"], inputs["alpha"]
    tw = [inputs["teacher." + k] for k in ("0.weight", "0.bias", "2.weight", "2.bias")]
    params = [inputs["student." + k].clone().requires_grad_(True) for k in ("0.weight", "0.bias", "2.weight", "2.bias")]

    def mlp(x, w):
        return torch.tanh(x @ w[0].T + w[1]) @ w[2].T + w[3]

    losses = []
    for x, y in zip(inputs["xs"], inputs["ys"], strict=True):
        s, t = mlp(x, params), mlp(x, tw)
        ls, lt = torch.log_softmax(s / T, 1), torch.log_softmax(t / T, 1)
        soft = (lt.exp() * (lt - ls)).sum() / x.shape[0] * T * T
        hard = -torch.log_softmax(s, 1)[torch.arange(len(y)), y].mean()
        loss = a * soft + (1 - a) * hard
        grads = torch.autograd.grad(loss, params)
        losses.append(loss.item())
        with torch.no_grad():
            for p, gr in zip(params, grads, strict=True):
                p -= inputs["lr"] * gr
    out = {"losses": losses, "teacher_params_with_grad": 0}
    for k, p in zip(("0.weight", "0.bias", "2.weight", "2.bias"), params, strict=True):
        out[f"student.{k}"] = p.detach()
        out[f"teacher.{k}"] = inputs["teacher." + k]
    return out
