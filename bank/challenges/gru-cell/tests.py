import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True}, public=True, what="the worked example: input 1, hidden 1, one step"),
        Case("small", {"t": 3, "b": 2, "isz": 3, "hsz": 4}, public=True, seed=1,
             what="T = 3, B = 2, input 3, hidden 4, given h0"),
        Case("zero-state", {"t": 5, "b": 3, "isz": 4, "hsz": 5, "zero_state": True}, seed=2, shrink=("t", "b"),
             what="h=None means zeros"),
        Case("longer", {"t": 12, "b": 4, "isz": 6, "hsz": 8}, seed=3, shrink=("t", "b"),
             what="T = 12: gradients flow back through every step"),
        Case("no-bias", {"t": 4, "b": 2, "isz": 5, "hsz": 3, "bias": False}, seed=4, shrink=("t", "b"),
             what="bias=False: no bias parameters at all"),
        Case("large-hidden-bias", {"t": 4, "b": 3, "isz": 3, "hsz": 4, "bias_hn": 2.0}, seed=5, shrink=("t", "b"),
             what="large b_hn: it must sit inside the reset gate's product, r * (W_hn h + b_hn)"),
        Case("single-step-batch-1", {"t": 1, "b": 1, "isz": 7, "hsz": 2}, seed=6, what="T = 1, B = 1"),
        Case("saturated", {"t": 6, "b": 3, "isz": 4, "hsz": 6, "scale": 4.0}, seed=7, shrink=("t", "b"),
             what="large weights: saturated gates"),
    ]


def _flat(sd):
    return {f"sd.{k}": v for k, v in sd.items()}  # inputs are flat: one tensor per key


def make_inputs(seed, example=False, t=1, b=1, isz=1, hsz=1, bias=True, zero_state=False, scale=1.0, bias_hn=0.0):
    f64 = torch.float64
    if example:
        sd = {"weight_ih": torch.tensor([[0.0], [0.0], [1.0]], dtype=f64),
              "weight_hh": torch.tensor([[0.0], [0.0], [1.0]], dtype=f64),
              "bias_ih": torch.zeros(3, dtype=f64), "bias_hh": torch.tensor([0.0, 0.0, 1.0], dtype=f64)}
        return {"input_size": 1, "hidden_size": 1, "bias": True, **_flat(sd), "zero_state": False,
                "xs": torch.tensor([[[1.0]]], dtype=f64), "h0": torch.tensor([[2.0]], dtype=f64)}
    torch.manual_seed(seed)  # trusted side: the real nn.GRUCell's own initialisation gives the weights
    ref = torch.nn.GRUCell(isz, hsz, bias=bias, dtype=f64)
    sd = {k: v.detach().clone() * scale for k, v in ref.state_dict().items()}
    if bias and bias_hn:
        sd["bias_hh"][2 * hsz:] += bias_hn
    g = torch.Generator().manual_seed(seed)
    out = {"input_size": isz, "hidden_size": hsz, "bias": bias, **_flat(sd), "zero_state": zero_state,
           "xs": torch.randn(t, b, isz, generator=g, dtype=f64)}
    if not zero_state:
        out["h0"] = torch.randn(b, hsz, generator=g, dtype=f64)
    return out


def oracle(inputs):
    """torch.nn.GRUCell itself, stepped over the sequence."""
    import math

    from torchdojo.judge.testing import vjp

    isz, hsz, bias = inputs["input_size"], inputs["hidden_size"], inputs["bias"]
    cell = torch.nn.GRUCell(isz, hsz, bias=bias, dtype=torch.float64)
    res = {"parameters": [[n, list(p.shape)] for n, p in cell.named_parameters()], "init_in_bound": True}
    assert all(bool((p.abs() <= 1 / math.sqrt(hsz)).all()) for p in cell.parameters())
    cell.load_state_dict({k.removeprefix("sd."): v for k, v in inputs.items() if k.startswith("sd.")})
    xs = inputs["xs"].clone().requires_grad_(True)
    params = [p for _, p in cell.named_parameters()]
    if inputs["zero_state"]:
        h, ins = None, (xs, *params)
    else:
        h = inputs["h0"].clone().requires_grad_(True)
        ins = (xs, h, *params)
    outs = []
    for x in xs:
        h = cell(x, h)
        outs.append(h)
    out = torch.stack(outs)
    res.update(out=out, h=h)
    grads = vjp(out, ins, seed=1)
    res["grad_xs"] = grads[0]
    if not inputs["zero_state"]:
        res["grad_h0"] = grads[1]
    for (name, _), g in zip(cell.named_parameters(), grads[-len(params):], strict=True):
        res[f"grad_{name}"] = g
    return res
