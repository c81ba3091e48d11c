from torchdojo.judge.testing import vjp


def run(sol, inputs):
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    out = sol.grouped_query_attention(q, k, v, causal=inputs["causal"])
    gq, gk, gv = vjp(out, (q, k, v), seed=1)
    return {"out": out, "grad_q": gq, "grad_k": gk, "grad_v": gv}
