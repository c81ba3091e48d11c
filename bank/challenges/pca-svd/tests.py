import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"values": [[2.0, 0.0], [0.0, 1.0], [-2.0, 0.0], [0.0, -1.0]], "k": 2}, public=True,
             what="the worked example: axis-aligned data, variances 8/3 and 2/3"),
        Case("random", {"n": 10, "d": 4, "k": 2}, public=True, seed=1, what="10 samples, 4 features, 2 components"),
        Case("all-components", {"n": 20, "d": 5, "k": 5}, seed=2, shrink=("n",),
             what="k = d: the ratios sum to 1"),
        Case("offset-data", {"n": 12, "d": 6, "k": 3, "offset": 50.0}, seed=3, shrink=("n",),
             what="data far from the origin: the mean must be removed before the SVD"),
        Case("wide", {"n": 6, "d": 10, "k": 4}, seed=4, what="fewer samples than features (n < d)"),
        Case("two-samples", {"n": 2, "d": 3, "k": 1}, seed=5,
             what="n = 2: the unbiased estimator divides by 1"),
        Case("one-component", {"n": 30, "d": 8, "k": 1}, seed=6, shrink=("n",),
             what="k = 1 of 8: the ratio divides by the total variance, not by the kept variance"),
        Case("float32-offset", {"n": 64, "d": 4, "k": 3, "offset": 300.0, "dtype": "float32"}, seed=7,
             shrink=("n",), what="float32 data around 300-600: E[x x^T] - mean mean^T cancels catastrophically"),
        Case("many-features", {"n": 40, "d": 12, "k": 6}, seed=8, shrink=("n",),
             what="12 features, 6 components: every component gets the sign convention"),
    ]


def make_inputs(seed, k, values=None, n=1, d=1, offset=0.0, dtype="float64"):
    g = torch.Generator().manual_seed(seed)
    f64 = torch.float64
    if values is not None:
        x = torch.tensor(values, dtype=f64)
        x_new = torch.tensor([[1.0, 1.0], [4.0, -2.0]], dtype=f64)
    else:
        scales = torch.linspace(3.0, 0.5, d, dtype=f64)  # distinct spreads: a unique answer
        q, _ = torch.linalg.qr(torch.randn(d, d, generator=g, dtype=f64))  # a random rotation
        shift = offset * (1 + torch.rand(d, generator=g, dtype=f64))
        x = (torch.randn(n, d, generator=g, dtype=f64) * scales) @ q.T + shift
        x_new = (torch.randn(5, d, generator=g, dtype=f64) * scales) @ q.T + shift + 2.0
    dt = torch.float32 if dtype == "float32" else f64
    return {"x": x.to(dt), "x_new": x_new.to(dt), "n_components": k}


def check(inputs, got):
    c = got.get("components")
    if isinstance(c, torch.Tensor) and c.dim() == 2 and c.shape[0] == inputs["n_components"]:
        norms = c.double().norm(dim=1)
        if not torch.allclose(norms, torch.ones_like(norms), atol=1e-4):
            return "each row of components must be a unit vector (a principal axis in feature space)"
    return None


def oracle(inputs):
    """Eigendecomposition of the unbiased sample covariance, in float64."""
    x = inputs["x"].double()
    k = inputs["n_components"]
    mean = x.mean(dim=0)
    xc = x - mean
    cov = xc.T @ xc / (x.shape[0] - 1)
    evals, evecs = torch.linalg.eigh(cov)  # ascending
    evals, evecs = evals.flip(0), evecs.flip(1)
    comps = evecs[:, :k].T.clone()
    for i in range(k):
        j = int(comps[i].abs().argmax())
        if comps[i, j] < 0:
            comps[i] = -comps[i]
    dt = inputs["x"].dtype
    out = {"mean": mean, "components": comps, "explained_variance": evals[:k],
           "explained_variance_ratio": evals[:k] / torch.trace(cov), "scores": xc @ comps.T,
           "transform_new": (inputs["x_new"].double() - mean) @ comps.T}
    return {key: v.to(dt) for key, v in out.items()}
