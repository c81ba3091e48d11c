import math

import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    isz, hsz, bias = inputs["input_size"], inputs["hidden_size"], inputs["bias"]
    torch.manual_seed(0)
    cell = sol.LSTMCell(isz, hsz, bias=bias)
    res = {"parameters": [[n, list(p.shape)] for n, p in cell.named_parameters()]}
    bound = 1.0 / math.sqrt(hsz)
    res["init_in_bound"] = all(bool((p.abs() <= bound).all()) and bool(p.abs().sum() > 0) for p in cell.parameters())
    cell = cell.double()
    sd = {k.removeprefix("sd."): v for k, v in inputs.items() if k.startswith("sd.")}
    cell.load_state_dict(sd)  # strict: exactly nn.LSTMCell's names and shapes
    xs = inputs["xs"].clone().requires_grad_(True)
    params = [p for _, p in cell.named_parameters()]
    if inputs["zero_state"]:
        out, (h, c) = sol.lstm_sequence(cell, xs)
        ins = (xs, *params)
    else:
        h0, c0 = inputs["h0"].clone().requires_grad_(True), inputs["c0"].clone().requires_grad_(True)
        out, (h, c) = sol.lstm_sequence(cell, xs, (h0, c0))
        ins = (xs, h0, c0, *params)
    res.update(out=out, h=h, c=c)
    grads = vjp((out, c), ins, seed=1)
    res["grad_xs"] = grads[0]
    if not inputs["zero_state"]:
        res["grad_h0"], res["grad_c0"] = grads[1], grads[2]
    for (name, _), g in zip(cell.named_parameters(), grads[-len(params):], strict=True):
        res[f"grad_{name}"] = g
    return res
