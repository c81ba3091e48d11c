import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    out = {"hidden_dims": [sol.swiglu_hidden_dim(*cfg) for cfg in inputs["configs"]]}
    torch.manual_seed(0)
    m = sol.SwiGLU(inputs["dim"], inputs["multiple_of"], inputs["ffn_dim_multiplier"]).to(torch.float64)
    params = dict(m.named_parameters())
    out["parameters"] = {n: list(p.shape) for n, p in sorted(params.items())}
    g = torch.Generator().manual_seed(inputs["weight_seed"])
    with torch.no_grad():  # the judge's weights, drawn for whatever shapes the module has
        for n in ("w1.weight", "w2.weight", "w3.weight"):
            p = params[n]
            p.copy_(torch.randn(p.shape, generator=g, dtype=torch.float64) * max(p.shape[1], 1) ** -0.5)
    x = inputs["x"].clone().requires_grad_(True)
    y = m(x)
    out["y"] = y
    out["grad_x"], out["grad_w1"], out["grad_w2"], out["grad_w3"] = vjp(
        y, (x, params["w1.weight"], params["w2.weight"], params["w3.weight"]), seed=1)
    return out
