from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    G, eps = inputs["num_groups"], inputs["eps"]
    if inputs["affine"]:
        w = inputs["weight"].clone().requires_grad_(True)
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.group_norm(x, G, w, b, eps=eps)
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = sol.group_norm(x, G, eps=eps)
    (gx,) = vjp(y, x, seed=1)
    return {"y": y, "x_grad": gx}
