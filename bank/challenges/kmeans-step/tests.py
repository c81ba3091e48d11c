import torch

from torchdojo.judge.testing import Case


def cases():
    return [
        Case("example", {"example": True}, public=True, what="the worked example: an empty third cluster"),
        Case("three-blobs", {"n": 20, "k": 3, "d": 2}, public=True, seed=2, what="20 points, 3 centroids, 2-D"),
        Case("ties", {"n": 12, "k": 4, "d": 2, "ties": True}, seed=3,
             what="duplicate centroids and points exactly midway: ties go to the lowest index"),
        Case("empty-clusters", {"n": 6, "k": 9, "d": 3}, seed=4, shrink=("n",),
             what="more centroids than points: empty ones keep their value"),
        Case("one-centroid", {"n": 15, "k": 1, "d": 4}, seed=5, shrink=("n",), what="K = 1: the overall mean"),
        Case("one-point", {"n": 1, "k": 3, "d": 2}, seed=6, what="a single point"),
        Case("far-from-origin-float32", {"n": 64, "k": 5, "d": 8, "offset": 1000.0, "dtype": "float32"}, seed=7,
             what="float32 points around 1000: no cancellation in the distances"),
        Case("larger", {"n": 200, "k": 8, "d": 16}, seed=8, shrink=("n",),
             what="N=200, K=8, D=16: the N x K x D tensor is over the memory rule"),
        Case("one-dim", {"n": 30, "k": 4, "d": 1}, seed=9, shrink=("n",), what="1-D points"),
    ]


def make_inputs(seed, example=False, n=1, k=1, d=1, ties=False, offset=0.0, dtype="float64"):
    dt = getattr(torch, dtype)
    if example:
        return {"x": torch.tensor([[0, 0], [1, 0], [0, 1], [10, 10], [11, 10], [10, 11]], dtype=dt),
                "centroids": torch.tensor([[0, 0], [10, 10], [100, 100]], dtype=dt)}
    g = torch.Generator().manual_seed(seed)
    if ties:  # small integers: every distance is exact, so the ties are real ties
        x = torch.randint(-4, 5, (n, d), generator=g).to(dt)
        c = torch.tensor([[0, 0], [0, 0], [2, 0], [-2, 0]], dtype=dt)  # centroid 1 duplicates 0
        x[:3] = torch.tensor([[1, 0], [-1, 0], [1, 3]], dtype=dt)  # midway between 0 and 2, 0 and 3, 0 and 2
        return {"x": x, "centroids": c}
    centers = torch.randn(k, d, generator=g, dtype=torch.float64) * 4
    x = centers[torch.randint(0, k, (n,), generator=g)] + torch.randn(n, d, generator=g, dtype=torch.float64)
    c = x[torch.randperm(n, generator=g)[:k]] if k <= n else torch.randn(k, d, generator=g, dtype=torch.float64) * 4
    c = c + 0.1 * torch.randn(k, d, generator=g, dtype=torch.float64)
    return {"x": (x + offset).to(dt), "centroids": (c + offset).to(dt)}


def max_numel(inputs):
    n, d = inputs["x"].shape
    k = inputs["centroids"].shape[0]
    return max(n * k, n * d, k * d)


def check(inputs, got):
    if got["inputs_unchanged"] is False:
        return "kmeans_step modified its inputs (x or centroids): compute the new centroids in a new tensor"
    return None


def oracle(inputs):
    """Brute force in float64 with Python loops: exact distances, first minimum on ties."""
    x, c = inputs["x"].double(), inputs["centroids"].double()
    assign, inertia = [], 0.0
    for i in range(x.shape[0]):
        dists = [float(((x[i] - c[j]) ** 2).sum()) for j in range(c.shape[0])]
        best = min(range(len(dists)), key=lambda j: (dists[j], j))
        assign.append(best)
        inertia += dists[best]
    new = c.clone()
    for j in range(c.shape[0]):
        members = [i for i, a in enumerate(assign) if a == j]
        if members:
            new[j] = x[members].mean(dim=0)
    dt = inputs["x"].dtype
    return {"assignments": torch.tensor(assign, dtype=torch.int64), "new_centroids": new.to(dt),
            "inertia": torch.tensor(inertia, dtype=torch.float64).to(dt), "inputs_unchanged": True}
