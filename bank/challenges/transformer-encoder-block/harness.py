import torch

from torchdojo.judge.testing import vjp

NAMES = [f"{m}.{p}" for m in ("ln1", "qkv_proj", "out_proj", "ln2", "fc1", "fc2") for p in ("weight", "bias")]


def run(sol, inputs):
    torch.manual_seed(0)
    m = sol.EncoderBlock(inputs["d_model"], inputs["n_head"], inputs["d_ff"], dropout=0.1).to(torch.float64)
    m.load_state_dict({n: inputs[n].clone() for n in NAMES}, strict=True)
    m.eval()
    params = dict(m.named_parameters())
    x = inputs["x"].clone().requires_grad_(True)
    mask = inputs.get("key_padding_mask")
    torch.manual_seed(1)
    out = m(x, key_padding_mask=None if mask is None else mask.clone())
    grads = vjp(out, (x,) + tuple(params[n] for n in NAMES), seed=1)
    res = {"out": out, "grad_x": grads[0]}
    res.update({f"grad_{n}": g for n, g in zip(NAMES, grads[1:])})
    return res
