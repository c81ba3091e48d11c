from torchdojo.judge.testing import vjp


def run(sol, inputs):
    grad = inputs["q"].dtype != __import__("torch").float16
    q, k, v = (inputs[n].clone().requires_grad_(grad) for n in ("q", "k", "v"))
    out, w = sol.masked_attention(q, k, v, inputs["mask"].clone())
    res = {"output": out, "weights": w}
    if grad:
        res["q_vjp"], res["k_vjp"], res["v_vjp"] = vjp(out, (q, k, v), seed=1)
    return res
