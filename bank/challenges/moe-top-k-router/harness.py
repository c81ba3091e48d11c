import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    D, F_, E, k = inputs["d_model"], inputs["d_ff"], inputs["num_experts"], inputs["top_k"]
    torch.manual_seed(0)
    m = sol.MoELayer(D, F_, E, k).to(torch.float64)
    names = ["gate.weight"] + [f"experts.{i}.{l}.{p}" for i in range(E) for l in ("fc1", "fc2")
                               for p in ("weight", "bias")]
    m.load_state_dict({n: inputs[n].clone() for n in names}, strict=True)
    rows = [0] * E

    def counter(i):
        def hook(mod, args):
            rows[i] += args[0].numel() // D
        return hook

    for i, ex in enumerate(m.experts):
        ex.register_forward_pre_hook(counter(i))
    params = dict(m.named_parameters())
    x = inputs["x"].clone().requires_grad_(True)
    y, aux = m(x)
    ps = tuple(params[n] for n in names)
    zero = sum(p.sum() for p in ps) * 0.0  # every parameter takes part (an idle expert gets zero gradient)
    grads = vjp((y + zero, aux + zero), (x,) + ps, seed=1)
    res = {"y": y, "aux_loss": aux, "expert_rows": rows, "grad_x": grads[0]}
    res.update({f"grad_{n}": g for n, g in zip(names, grads[1:])})
    return res
