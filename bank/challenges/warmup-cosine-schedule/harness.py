import torch


def run(sol, inputs):
    base, mn, w, t, n = inputs["base_lr"], inputs["min_lr"], inputs["warmup"], inputs["total"], inputs["n"]
    direct = [float(sol.lr_at(s, base, mn, w, t)) for s in range(n)]
    # the multiplier drives a real LambdaLR: the lr seen by the optimizer at each step
    p = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([p], lr=base)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, sol.lr_lambda(w, t, mn / base))
    seen = []
    for _ in range(n):
        seen.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return {"lr_at": torch.tensor(direct, dtype=torch.float64),
            "lambda_lr": torch.tensor(seen, dtype=torch.float64)}
