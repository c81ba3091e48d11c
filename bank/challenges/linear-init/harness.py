import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    g = torch.Generator().manual_seed(inputs["init_seed"])
    m = sol.Linear(inputs["in_features"], inputs["out_features"], bias=inputs["bias"], init=inputs["init"],
                   generator=g, dtype=torch.float64)
    out = {"weight": m.weight.detach().clone(), "n_parameters": len(list(m.parameters())),
           "generator_next": torch.rand(4, generator=g, dtype=torch.float64)}
    x = inputs["x"].clone().requires_grad_(True)
    y = m(x)
    out["y"] = y
    if inputs["bias"]:
        out["bias"] = m.bias.detach().clone()
        out["x_grad"], out["weight_grad"], out["bias_grad"] = vjp(y, (x, m.weight, m.bias), seed=1)
    else:
        out["x_grad"], out["weight_grad"] = vjp(y, (x, m.weight), seed=1)
    return out
