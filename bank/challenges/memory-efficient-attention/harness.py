from torchdojo.judge.testing import vjp


def run(sol, inputs):
    q = inputs["q"].clone().requires_grad_(True)
    k = inputs["k"].clone().requires_grad_(True)
    v = inputs["v"].clone().requires_grad_(True)
    out = sol.memory_efficient_attention(q, k, v, inputs["block_size"], is_causal=inputs["is_causal"])
    dq, dk, dv = vjp(out, (q, k, v), seed=1)
    return {"out": out, "dq": dq, "dk": dk, "dv": dv}
