from torchdojo.judge.testing import vjp


def run(sol, inputs):
    a = inputs["a"].clone().requires_grad_(True)
    b = inputs["b"].clone().requires_grad_(True)
    s = sol.cosine_similarity_matrix(a, b, inputs["eps"])
    out = {"similarity": s}
    if inputs["grad"]:
        out["a_grad"], out["b_grad"] = vjp(s, (a, b), seed=1)
    return out
