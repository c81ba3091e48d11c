from torchdojo.judge.testing import vjp


def run(sol, inputs):
    x = inputs["x"].clone().requires_grad_(True)
    dim = inputs["dim"]
    p = sol.softmax(x, dim)
    lp = sol.log_softmax(x, dim)
    out = {"softmax": p, "log_softmax": lp}
    if inputs.get("grad", True):
        (out["softmax_vjp"],) = vjp(p, x, seed=1)
        (out["log_softmax_vjp"],) = vjp(lp, x, seed=2)
    return out
