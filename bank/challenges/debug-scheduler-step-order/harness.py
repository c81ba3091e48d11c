import torch
import torch.nn as nn


def _linear(fan_in, fan_out):
    # no random init: the harness must not touch torch's global RNG (weights are loaded below)
    return nn.utils.skip_init(nn.Linear, fan_in, fan_out, dtype=torch.float64)


def _scheduler(opt, spec):
    kind = spec["kind"]
    if kind == "step":
        return torch.optim.lr_scheduler.StepLR(opt, step_size=spec["step_size"], gamma=spec["gamma"])
    if kind == "multistep":
        return torch.optim.lr_scheduler.MultiStepLR(opt, milestones=spec["milestones"], gamma=spec["gamma"])
    return torch.optim.lr_scheduler.ExponentialLR(opt, gamma=spec["gamma"])


def run(sol, inputs):
    w1, w2 = inputs["0.weight"], inputs["2.weight"]
    model = nn.Sequential(_linear(w1.shape[1], w1.shape[0]), nn.Tanh(), _linear(w2.shape[1], w2.shape[0]))
    model.load_state_dict({k: inputs[k].clone() for k in ("0.weight", "0.bias", "2.weight", "2.bias")})
    opt = torch.optim.SGD(model.parameters(), lr=inputs["lr0"], momentum=0.9)
    scheduler = _scheduler(opt, inputs["schedule"])
    step_lrs = []
    opt.register_step_pre_hook(lambda o, *_: step_lrs.append(o.param_groups[0]["lr"]))
    batches = [(x.clone(), y.clone()) for x, y in zip(inputs["xs"], inputs["ys"], strict=True)]
    losses = sol.train(model, opt, scheduler, batches, inputs["epochs"])
    out = {"step_lrs": [float(v) for v in step_lrs], "losses": [float(v) for v in losses],
           "final_lr": float(opt.param_groups[0]["lr"]), "last_epoch": int(scheduler.last_epoch)}
    for name, p in model.named_parameters():
        out[f"final.{name}"] = p.detach().clone()
    return out
