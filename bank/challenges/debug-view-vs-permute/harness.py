import torch

from torchdojo.judge.testing import vjp


def run(sol, inputs):
    h = inputs["n_heads"]
    out = {"split": sol.split_heads(inputs["x"].clone(), h).contiguous(),
           "merge": sol.merge_heads(inputs["heads"].clone()).contiguous()}
    if inputs.get("noncontig"):  # the same values laid out (B, D, T) in memory, seen as (B, T, D)
        nc = inputs["x"].transpose(1, 2).contiguous().transpose(1, 2)
        out["split_noncontiguous"] = sol.split_heads(nc, h).contiguous()
    x, w_qkv, w_o = (inputs[k].clone().requires_grad_(True) for k in ("x", "w_qkv", "w_o"))
    y = sol.causal_self_attention(x, w_qkv, w_o, h)
    out["attn"] = y
    out["x_vjp"], out["w_qkv_vjp"], out["w_o_vjp"] = vjp(y, (x, w_qkv, w_o), seed=1)
    with torch.no_grad():  # change only the last token
        x2 = inputs["x"].clone()
        x2[:, -1] += 1.0
        y2 = sol.causal_self_attention(x2, inputs["w_qkv"].clone(), inputs["w_o"].clone(), h)
    out["attn_last_token_changed"] = y2
    return out
