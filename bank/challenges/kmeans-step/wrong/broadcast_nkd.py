# expect: Rule Violation
import torch


def kmeans_step(x, centroids):
    d2 = (x[:, None, :] - centroids[None, :, :]).pow(2).sum(-1)  # (N, K, D) temporary: over the memory rule
    inertia, assign = d2.min(dim=1)
    k = centroids.shape[0]
    counts = torch.bincount(assign, minlength=k)
    sums = torch.zeros_like(centroids).index_add_(0, assign, x)
    new = torch.where((counts > 0)[:, None], sums / counts.clamp(min=1)[:, None].to(x.dtype), centroids)
    return assign, new, inertia.sum()
