from torchdojo.judge.testing import vjp


def run(sol, inputs):
    q = inputs["q"].clone().requires_grad_(True)
    k = inputs["k"].clone().requires_grad_(True)
    v = inputs["v"].clone().requires_grad_(True)
    mask = inputs.get("attn_mask")
    out = sol.scaled_dot_product_attention(q, k, v, attn_mask=None if mask is None else mask.clone(),
                                           is_causal=inputs["is_causal"], scale=inputs["scale"])
    dq, dk, dv = vjp(out, (q, k, v), seed=1)
    return {"out": out, "dq": dq, "dk": dk, "dv": dv}
