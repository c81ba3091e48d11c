from torchdojo.judge.testing import vjp

OPTIONS = ("stride", "padding", "output_padding", "groups", "dilation")


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    w = inputs["weight"].clone().requires_grad_(True)
    kw = {k: inputs[k] for k in OPTIONS}
    if inputs["bias"] is not None:
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.conv_transpose1d(x, w, b, **kw)
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = sol.conv_transpose1d(x, w, None, **kw)
    gx, gw = vjp(y, (x, w), seed=1)
    return {"y": y, "x_grad": gx, "weight_grad": gw}
