import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    E, H, fused = inputs["embed_dim"], inputs["num_heads"], inputs["fused"]
    torch.manual_seed(0)
    m = sol.MultiheadAttention(E, H, fused=fused).to(torch.float64)
    names = (["qkv_proj"] if fused else ["q_proj", "k_proj", "v_proj"]) + ["out_proj"]
    state = {f"{n}.{p}": inputs[f"{n}.{p}"].clone() for n in names for p in ("weight", "bias")}
    m.load_state_dict(state, strict=True)
    params = dict(m.named_parameters())
    x = inputs["query"].clone().requires_grad_(True)
    if inputs["self_attention"]:
        q = k = v = x
        ins = (x,)
    else:
        k = inputs["key"].clone().requires_grad_(True)
        v = inputs["value"].clone().requires_grad_(True)
        q, ins = x, (x, k, v)
    mask = inputs.get("key_padding_mask")
    out = m(q, k, v, key_padding_mask=None if mask is None else mask.clone())
    grads = vjp(out, ins + tuple(params[n] for n in state), seed=1)
    res = {"out": out}
    res.update({f"grad_{n}": g for n, g in zip(("query", "key", "value")[:len(ins)], grads[:len(ins)])})
    res.update({f"grad_{n}": g for n, g in zip(state, grads[len(ins):])})
    return res
