from torchdojo.judge.testing import vjp


def _arg(v):
    return tuple(v) if isinstance(v, list) else v


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    w = inputs["weight"].clone().requires_grad_(True)
    kw = {k: _arg(inputs[k]) for k in ("stride", "padding", "dilation")}
    if "bias" in inputs:
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.conv2d(x, w, b, **kw)
        gx, gw, gb = vjp(y, (x, w, b), seed=1)
        return {"y": y, "x_grad": gx, "weight_grad": gw, "bias_grad": gb}
    y = sol.conv2d(x, w, None, **kw)
    gx, gw = vjp(y, (x, w), seed=1)
    return {"y": y, "x_grad": gx, "weight_grad": gw}
