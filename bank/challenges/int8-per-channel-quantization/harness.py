from torchdojo.judge.testing import vjp


def run(sol, inputs):
    w = inputs["w"].clone()
    q, scale = sol.quantize_per_channel(w)
    out = {"q": q, "scale": scale, "w_hat": sol.dequantize_per_channel(q, scale)}
    qg, sg = inputs["q_given"].clone(), inputs["scale_given"].clone()
    out["dequantized_given"] = sol.dequantize_per_channel(qg, sg)
    x = inputs["x"].clone().requires_grad_(True)
    if inputs["bias"] is None:
        y = sol.quantized_linear(x, qg, sg)
        (out["grad_x"],) = vjp(y, x, seed=1)
    else:
        b = inputs["bias"].clone().requires_grad_(True)
        y = sol.quantized_linear(x, qg, sg, b)
        out["grad_x"], out["grad_bias"] = vjp(y, (x, b), seed=1)
    out["y"] = y
    return out
