from torchdojo.judge.testing import vjp


def run(sol, inputs):
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    kw = {} if inputs["scale"] is None else {"scale": inputs["scale"]}
    out = sol.sliding_window_attention(q, k, v, inputs["window"], **kw)
    res = {"out": out}
    res["grad_q"], res["grad_k"], res["grad_v"] = vjp(out, (q, k, v), seed=1)
    return res
