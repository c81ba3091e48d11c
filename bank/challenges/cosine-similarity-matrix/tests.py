import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"a": [[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]], "b": [[3.0, 0.0], [0.0, 2.0]]}, public=True,
             what="the worked example, with a zero vector"),
        Case("random", {"N": 4, "M": 3, "D": 5}, public=True, seed=1, what="random vectors"),
        Case("zero-vectors", {"N": 6, "M": 5, "D": 4, "zero_rows": True}, seed=2, shrink=("N", "M"),
             what="zero vectors in both inputs give 0, not NaN"),
        Case("short-vectors", {"N": 5, "M": 4, "D": 3, "scale": 1e-5}, seed=3, shrink=("N", "M"),
             what="norms of 1e-5: the product of norms is below eps, each norm is not"),
        Case("below-eps", {"N": 5, "M": 6, "D": 3, "tiny_rows": True, "grad": False}, seed=4, shrink=("N", "M"),
             what="some norms below eps are clamped to eps (values only)"),
        Case("large-eps", {"N": 7, "M": 5, "D": 2, "scale": 0.5, "eps": 0.3, "grad": False}, seed=5, shrink=("N", "M"),
             what="eps = 0.3 with vectors of norm around 0.5"),
        Case("huge-magnitudes", {"N": 4, "M": 4, "D": 6, "scale": 1e160}, seed=6, shrink=("N", "M"),
             what="entries around 1e160: dot products would overflow"),
        Case("wide", {"N": 20, "M": 30, "D": 64}, seed=7, shrink=("N", "M"), what="more vectors, D = 64"),
        Case("float32", {"N": 8, "M": 9, "D": 16, "dtype": "float32"}, seed=8, what="float32 keeps its dtype"),
    ]


def make_inputs(seed, a=None, b=None, N=1, M=1, D=1, scale=1.0, eps=1e-8, zero_rows=False, tiny_rows=False,
                grad=True, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if a is not None:
        return {"a": torch.tensor(a, dtype=dt), "b": torch.tensor(b, dtype=dt), "eps": eps, "grad": grad}
    x = torch.randn(N, D, generator=g, dtype=torch.float64) * scale
    y = torch.randn(M, D, generator=g, dtype=torch.float64) * scale
    if zero_rows:
        x[1] = 0.0
        y[::2] = 0.0
    if tiny_rows:
        x[::2] *= 1e-11
        y[1::3] *= 1e-10
        y[2] = 0.0
    return {"a": x.to(dt), "b": y.to(dt), "eps": eps, "grad": grad}


def oracle(inputs):
    import torch.nn.functional as F

    from torchdojo.judge.testing import vjp

    a = inputs["a"].clone().requires_grad_(True)
    b = inputs["b"].clone().requires_grad_(True)
    s = F.cosine_similarity(a[:, None, :], b[None, :, :], dim=-1, eps=inputs["eps"])
    out = {"similarity": s}
    if inputs["grad"]:
        out["a_grad"], out["b_grad"] = vjp(s, (a, b), seed=1)
    return out
