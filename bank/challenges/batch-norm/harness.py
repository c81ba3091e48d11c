import torch

from torchdojo.judge.testing import vjp


def _builds_graph(m):
    bufs = (getattr(m, "running_mean", None), getattr(m, "running_var", None))
    return any(isinstance(b, torch.Tensor) and (b.requires_grad or b.grad_fn is not None) for b in bufs)


def run(sol, inputs):
    xs, x_eval = inputs["train_x"], inputs["eval_x"]
    m = sol.BatchNorm1d(xs.shape[2], eps=inputs["eps"], momentum=inputs["momentum"]).double()
    with torch.no_grad():
        m.weight.copy_(inputs["weight"])
        m.bias.copy_(inputs["bias"])
    m.train()
    out, keys = {}, ("y", "x_grad", "weight_grad", "bias_grad", "running_mean", "running_var")
    steps = {k: [] for k in keys}
    graph = []  # do the running buffers require grad / carry a graph after each step?
    for i in range(xs.shape[0]):
        x = xs[i].clone().requires_grad_(True)
        y = m(x)
        gx, gw, gb = vjp(y, (x, m.weight, m.bias), seed=i)
        for k, v in zip(keys, (y, gx, gw, gb, m.running_mean, m.running_var)):
            steps[k].append(v.detach().clone())
        graph.append(_builds_graph(m))
    if xs.shape[0]:
        out.update({f"train_{k}": torch.stack(v) for k, v in steps.items()})
    out["train_buffers_build_graph"] = graph
    m.eval()
    x = x_eval.clone().requires_grad_(True)
    y = m(x)
    gx, gw, gb = vjp(y, (x, m.weight, m.bias), seed=100)
    out.update({"eval_y": y, "eval_x_grad": gx, "eval_weight_grad": gw, "eval_bias_grad": gb,
                "final_running_mean": m.running_mean.detach().clone(),
                "final_running_var": m.running_var.detach().clone(),
                "eval_buffers_build_graph": _builds_graph(m)})
    return out
