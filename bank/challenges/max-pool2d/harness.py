from torchdojo.judge.testing import vjp


def _arg(v):
    return tuple(v) if isinstance(v, list) else v


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    kw = {k: _arg(inputs[k]) for k in ("stride", "padding") if k in inputs}
    y = sol.max_pool2d(x, _arg(inputs["kernel_size"]), **kw)
    (gx,) = vjp(y, x, seed=1)
    return {"y": y, "x_grad": gx}
