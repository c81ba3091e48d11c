import torch


def _params(inputs):
    params = []
    for i, shape in enumerate(inputs["shapes"]):
        p = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
        if f"g{i}" in inputs:
            p.grad = inputs[f"g{i}"].clone()
        params.append(p)
    return params


def _pass(params, how):
    if how == "single":
        return params[0]
    if how == "generator":
        return (p for p in params)
    return list(params)


def run(sol, inputs):
    params = _params(inputs)
    total = sol.clip_grad_norm_(_pass(params, inputs["pass_as"]), inputs["max_norm"], float(inputs["norm_type"]))
    out = {"total_norm": torch.as_tensor(total, dtype=torch.float64).detach().reshape(()),
           "has_grad_after_norm": [p.grad is not None for p in params]}
    out.update({f"norm_clipped_g{i}": p.grad for i, p in enumerate(params) if p.grad is not None})
    params = _params(inputs)
    sol.clip_grad_value_(_pass(params, inputs["pass_as"]), inputs["clip_value"])
    out["has_grad_after_value"] = [p.grad is not None for p in params]
    out.update({f"value_clipped_g{i}": p.grad for i, p in enumerate(params) if p.grad is not None})
    return out
