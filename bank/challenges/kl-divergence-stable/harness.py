from torchdojo.judge.testing import vjp


def run(sol, inputs):
    p = inputs["p_logits"].clone().requires_grad_(True)
    q = inputs["q_logits"].clone().requires_grad_(True)
    kl = sol.kl_divergence(p, q)
    gp, gq = vjp(kl, (p, q), seed=1)
    return {"kl": kl, "p_grad": gp, "q_grad": gq}
