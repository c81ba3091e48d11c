import torch
import torch.nn as nn

KEYS = ("0.weight", "0.bias", "2.weight", "2.bias")


def _linear(fan_in, fan_out):
    # no random init: the harness must not touch torch's global RNG (weights are loaded below)
    return nn.utils.skip_init(nn.Linear, fan_in, fan_out, dtype=torch.float64)


def _mlp(inputs, prefix):
    w1, w2 = inputs[prefix + "0.weight"], inputs[prefix + "2.weight"]
    model = nn.Sequential(_linear(w1.shape[1], w1.shape[0]), nn.Tanh(), _linear(w2.shape[1], w2.shape[0]))
    model.load_state_dict({k: inputs[prefix + k].clone() for k in KEYS})
    return model


def run(sol, inputs):
    student, teacher = _mlp(inputs, "student."), _mlp(inputs, "teacher.")
    xs, ys = inputs["xs"], inputs["ys"]
    batches = [(xs[i].clone(), ys[i].clone()) for i in range(xs.shape[0])]
    losses = sol.distill(student, teacher, batches, inputs["lr"], inputs["temperature"], inputs["alpha"])
    out = {"losses": [float(v) for v in losses],
           "teacher_params_with_grad": sum(p.grad is not None for p in teacher.parameters())}
    for name, p in student.named_parameters():
        out[f"student.{name}"] = p.detach().clone()
    for name, p in teacher.named_parameters():
        out[f"teacher.{name}"] = p.detach().clone()
    return out
