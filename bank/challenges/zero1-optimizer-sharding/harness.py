import torch


def run(sol, inputs):
    n, w, steps = len(inputs["shapes"]), inputs["world"], inputs["steps"]
    params = [inputs[f"p{i}"].clone() for i in range(n)]
    opt = sol.Zero1Adam(params, w, **inputs["hp"])
    history = []
    for s in range(steps):
        opt.step([[inputs[f"g{i}"][s, r].clone() for i in range(n)] for r in range(w)])
        history.append(torch.cat([p.detach().reshape(-1) for p in params]).clone())
    states = [opt.shard_state(r) for r in range(w)]
    return {
        "params": torch.stack(history),  # (steps, N): the caller's tensors after every step
        "shard_sizes": [int(torch.as_tensor(s["exp_avg"]).numel()) for s in states],
        "exp_avg": torch.cat([torch.as_tensor(s["exp_avg"]).detach().reshape(-1) for s in states]),  # shards, rank order
        "exp_avg_sq": torch.cat([torch.as_tensor(s["exp_avg_sq"]).detach().reshape(-1) for s in states]),
        "step": [int(s["step"]) for s in states],
    }
