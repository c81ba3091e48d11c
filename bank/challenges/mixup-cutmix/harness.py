import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    y, perm, nc = inputs["y"].clone(), inputs["perm"].clone(), inputs["num_classes"]
    x = inputs["x"].clone().requires_grad_(True)
    xm, ym = sol.mixup(x, y, inputs["lam"], perm, nc)
    out = {"mixup_x": xm, "mixup_y": ym}
    (out["mixup_x_vjp"],) = vjp(xm, x, seed=1, materialize=True)
    x2 = inputs["x"].clone().requires_grad_(True)
    xc, yc, lam = sol.cutmix(x2, y, tuple(inputs["box"]), perm, nc)
    out.update(cutmix_x=xc, cutmix_y=yc, cutmix_lam=float(lam))
    (out["cutmix_x_vjp"],) = vjp(xc, x2, seed=2, materialize=True)
    out["input_unchanged"] = bool(torch.equal(x2.detach(), inputs["x"]) and torch.equal(perm, inputs["perm"]))
    return out
