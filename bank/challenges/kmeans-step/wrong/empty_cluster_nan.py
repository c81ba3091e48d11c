# expect: Wrong Answer
import torch


def _dist2(x, centroids):
    return torch.stack([(x - c).pow(2).sum(1) for c in centroids], dim=1)


def kmeans_step(x, centroids):
    d2 = _dist2(x, centroids)
    inertia, assign = d2.min(dim=1)
    k = centroids.shape[0]
    counts = torch.bincount(assign, minlength=k)
    sums = torch.zeros_like(centroids).index_add_(0, assign, x)
    new = sums / counts[:, None].to(x.dtype)  # an empty cluster: 0 / 0 = NaN
    return assign, new, inertia.sum()
