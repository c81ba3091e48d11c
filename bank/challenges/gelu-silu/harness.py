from torchdojo.judge.testing import vjp


def run(sol, inputs):
    out = {}
    for i, (name, fn) in enumerate((("gelu", lambda x: sol.gelu(x, approximate="none")),
                                     ("gelu_tanh", lambda x: sol.gelu(x, approximate="tanh")),
                                     ("silu", sol.silu))):
        x = inputs["x"].clone().requires_grad_(True)
        y = fn(x)
        out[name] = y
        (out[f"{name}_grad"],) = vjp(y, x, seed=i)
    return out
