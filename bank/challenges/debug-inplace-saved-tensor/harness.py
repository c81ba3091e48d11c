import torch
import torch.nn as nn

from torchdojo.judge.testing import vjp


def _linear(fan_in, fan_out):
    # no random init: the harness must not touch torch's global RNG (weights are loaded below)
    return nn.utils.skip_init(nn.Linear, fan_in, fan_out, dtype=torch.float64)


def _model(inputs):
    d, h, c = inputs["w1"].shape[1], inputs["w1"].shape[0], inputs["w2"].shape[0]
    model = nn.Sequential(_linear(d, h), nn.Tanh(), _linear(h, c))
    with torch.no_grad():
        for p, k in zip(model.parameters(), ("w1", "b1", "w2", "b2"), strict=True):
            p.copy_(inputs[k])
    return model


def run(sol, inputs):
    gamma = inputs["gamma"]
    logits = inputs["logits"].clone().requires_grad_(True)
    loss = sol.focal_loss(logits, inputs["labels"].clone(), gamma)
    (g,) = vjp(loss, logits, seed=1)
    out = {"focal_loss": loss.detach().clone(), "focal_loss_logits_grad": g}
    model = _model(inputs)
    xs, ys = inputs["xs"], inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    out["losses"] = [float(v) for v in sol.train(model, batches, inputs["lr"], gamma)]
    for name, p in model.named_parameters():
        out[f"final.{name}"] = p.detach().clone()
    return out
