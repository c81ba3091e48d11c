import torch
import torch.nn as nn


def _linear(fan_in, fan_out):
    # no random init: the harness must not touch torch's global RNG (weights are loaded below)
    return nn.utils.skip_init(nn.Linear, fan_in, fan_out, dtype=torch.float64)


def run(sol, inputs):
    w1, w2 = inputs["0.weight"], inputs["2.weight"]
    model = nn.Sequential(_linear(w1.shape[1], w1.shape[0]), nn.Tanh(), _linear(w2.shape[1], w2.shape[0]))
    model.load_state_dict({k: inputs[k].clone() for k in ("0.weight", "0.bias", "2.weight", "2.bias")})
    xs, ys = inputs["xs"], inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    freeze_after, calls, frozen_at = inputs["freeze_after"], [0], {}

    def snapshot(module, args):
        if calls[0] == freeze_after:  # the backbone as it was when it got frozen
            frozen_at.update({k: v.detach().clone() for k, v in module[0].state_dict().items()})
        calls[0] += 1

    model.register_forward_pre_hook(snapshot)
    losses = sol.finetune(model, batches, inputs["lr"], inputs["weight_decay"], freeze_after)
    out = {"losses": [float(v) for v in losses]}
    drift = 0.0
    for k, v in frozen_at.items():
        drift = max(drift, float((model[0].state_dict()[k] - v).abs().max()))
    out["backbone_change_after_freeze"] = drift
    for name, p in model.named_parameters():
        out[f"final.{name}"] = p.detach().clone()
    return out
