from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    shape = tuple(inputs["normalized_shape"])
    if inputs["affine"]:
        w = inputs["weight"].clone().requires_grad_(True)
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.layer_norm(x, shape, w, b, eps=inputs["eps"])
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = sol.layer_norm(x, shape, eps=inputs["eps"])
    (gx,) = vjp(y, x, seed=1)
    return {"y": y, "x_grad": gx}
