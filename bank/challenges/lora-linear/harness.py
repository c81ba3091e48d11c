import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    fin, fout, bias = inputs["in_features"], inputs["out_features"], inputs["bias"]
    torch.manual_seed(0)
    base = torch.nn.Linear(fin, fout, bias=bias, dtype=torch.float64)
    with torch.no_grad():
        base.weight.copy_(inputs["weight"])
        if bias:
            base.bias.copy_(inputs["bias_value"])
    m = sol.LoRALinear(base, r=inputs["r"], alpha=inputs["alpha"])
    x = inputs["x"].clone()
    res = {}
    with torch.no_grad():
        res["fresh_out"] = m(x)
        res["lora_A_nonzero"] = bool(m.lora_A.abs().sum() > 0)
    res["lora_shapes"] = [list(m.lora_A.shape), list(m.lora_B.shape)]
    res["trainable"] = sorted(n for n, p in m.named_parameters() if p.requires_grad)
    with torch.no_grad():
        m.lora_A.copy_(inputs["A"])
        m.lora_B.copy_(inputs["B"])
    x.requires_grad_(True)
    out = m(x)
    res["out"] = out
    res["grad_x"], res["grad_A"], res["grad_B"] = vjp(out, (x, m.lora_A, m.lora_B), seed=1)
    m.merge()
    res["merged_weight"] = m.base.weight.detach().clone()
    res["merged_weight_frozen"] = not m.base.weight.requires_grad
    with torch.no_grad():
        res["merged_out"] = m(x.detach())
    return res
