from torchdojo.judge.testing import vjp


def run(sol, inputs):
    out = {f"slopes_{n}": sol.alibi_slopes(n) for n in inputs["n_heads"]}
    out["bias"] = sol.alibi_bias(inputs["bias_slopes"].clone(), inputs["bias_T"])
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    y = sol.alibi_attention(q, k, v)
    out["attention"] = y
    out["grad_q"], out["grad_k"], out["grad_v"] = vjp(y, (q, k, v), seed=1)
    return out
