import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    p, seed = inputs["p"], inputs["rng_seed"]
    x = inputs["x"].clone().requires_grad_(True)
    torch.manual_seed(seed)
    y = sol.dropout(x, p, training=True)
    (g,) = vjp(y, x, seed=1)
    torch.manual_seed(seed)
    y_again = sol.dropout(inputs["x"].clone(), p, training=True)
    torch.manual_seed(seed + 1)  # another seed: a fresh mask (a private, fixed generator would repeat it)
    y_other = sol.dropout(inputs["x"].clone(), p, training=True)
    xe = inputs["x"].clone().requires_grad_(True)
    ye = sol.dropout(xe, p, training=False)
    (ge,) = vjp(ye, xe, seed=2)
    return {"train_y": y, "train_x_grad": g, "train_y_same_seed": y_again,
            "train_y_other_seed": y_other, "eval_y": ye, "eval_x_grad": ge}
