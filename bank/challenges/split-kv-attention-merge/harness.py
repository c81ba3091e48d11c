from torchdojo.judge.testing import vjp


def run(sol, inputs):
    q = inputs["q"].clone().requires_grad_(True)
    k = inputs["k"].clone().requires_grad_(True)
    v = inputs["v"].clone().requires_grad_(True)
    kw = {} if inputs["scale"] is None else {"scale": inputs["scale"]}
    out, lse = sol.split_kv_attention(q, k, v, inputs["num_splits"], **kw)
    dq, dk, dv = vjp((out, lse), (q, k, v), seed=1)
    res = {"out": out, "lse": lse, "dq": dq, "dk": dk, "dv": dv}
    scale = inputs["q"].size(-1) ** -0.5 if inputs["scale"] is None else inputs["scale"]
    a, b = inputs["chunk"]
    qd, kd, vd = inputs["q"], inputs["k"], inputs["v"]
    res["chunk_out"], res["chunk_lse"] = sol.chunk_attention(qd, kd[..., a:b, :], vd[..., a:b, :], scale)
    res["empty_out"], res["empty_lse"] = sol.chunk_attention(qd, kd[..., :0, :], vd[..., :0, :], scale)
    res["merged_out"], res["merged_lse"] = sol.merge_partials(inputs["part_outs"].clone(),
                                                              inputs["part_lses"].clone())
    return res
