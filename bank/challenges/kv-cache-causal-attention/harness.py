import torch

from torchdojo.judge.testing import vjp


def _decode(m, x, prefill, steps):
    outs, p = [m(x[:, :prefill], use_cache=True)], prefill
    for n in steps:
        outs.append(m(x[:, p:p + n], use_cache=True))
        p += n
    return torch.cat(outs, dim=1)


def run(sol, inputs):
    E, H = inputs["embed_dim"], inputs["num_heads"]
    torch.manual_seed(0)
    m = sol.CausalSelfAttention(E, H).to(torch.float64)
    names = [f"{n}.{p}" for n in ("qkv_proj", "out_proj") for p in ("weight", "bias")]
    m.load_state_dict({n: inputs[n].clone() for n in names}, strict=True)
    params = dict(m.named_parameters())
    x = inputs["x"].clone().requires_grad_(True)
    full = m(x)
    grads = vjp(full, (x,) + tuple(params[n] for n in names), seed=1)
    out = {"full": full, "grad_x": grads[0]}
    out.update({f"grad_{n}": g for n, g in zip(names, grads[1:])})
    with torch.no_grad():
        out["incremental"] = _decode(m, x.detach(), inputs["prefill"], inputs["steps"])
        m.reset_cache()
        x2 = inputs["x2"].clone()
        out["after_reset"] = _decode(m, x2, inputs["prefill2"], [1] * (x2.size(1) - inputs["prefill2"]))
        out["after_reset_full"] = m(x2)
    return out
