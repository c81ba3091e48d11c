from torchdojo.judge.testing import vjp


def run(sol, inputs):
    logits = inputs["logits"].clone().requires_grad_(True)
    probs = sol.predict_proba(logits)
    out = {"probs": probs, "first_alone": sol.predict_proba(inputs["logits"][:1].clone()).detach()}
    (out["probs_vjp"],) = vjp(probs, logits, seed=1)
    q, k, v = (inputs[n].clone().requires_grad_(True) for n in ("q", "k", "v"))
    o, w = sol.attention(q, k, v)
    out["attn_out"], out["attn_weights"] = o, w
    out["q_vjp"], out["k_vjp"], out["v_vjp"] = vjp(o, (q, k, v), seed=2)
    o1, _ = sol.attention(*(inputs[n][:1].clone() for n in ("q", "k", "v")))
    out["first_attn_alone"] = o1.detach()
    return out
