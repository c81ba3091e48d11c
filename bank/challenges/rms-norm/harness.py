from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    shape = tuple(inputs["normalized_shape"])
    if "weight" in inputs:
        w = inputs["weight"].clone().requires_grad_(True)
        y = sol.rms_norm(x, shape, w, eps=inputs["eps"])
        gx, gw = vjp(y, (x, w), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw}
    y = sol.rms_norm(x, shape, eps=inputs["eps"])
    (gx,) = vjp(y, x, seed=1)
    return {"y": y, "x_grad": gx}
