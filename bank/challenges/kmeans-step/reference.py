import torch


def kmeans_step(x, centroids):
    n, k = x.shape[0], centroids.shape[0]
    # squared distances column by column: (N, D) temporaries, exact differences (no |x|^2 - 2x.c + |c|^2
    # cancellation far from the origin), never an (N, K, D) tensor
    d2 = torch.empty(n, k, dtype=x.dtype)
    for j in range(k):
        d2[:, j] = (x - centroids[j]).pow(2).sum(dim=1)
    inertia, assign = d2.min(dim=1)  # min/argmin return the first (lowest) index on ties
    inertia = inertia.sum()
    counts = torch.bincount(assign, minlength=k)
    sums = torch.zeros_like(centroids).index_add_(0, assign, x)
    new = torch.where((counts > 0)[:, None], sums / counts.clamp(min=1)[:, None].to(x.dtype), centroids)
    return assign, new, inertia
