from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    y = sol.masked_mean(x, inputs["mask"].clone())
    (g,) = vjp(y, x, seed=1, materialize=True)
    return {"y": y, "x_grad": g}
