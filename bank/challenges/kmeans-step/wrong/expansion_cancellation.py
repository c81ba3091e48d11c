# expect: Wrong Answer
import torch


def kmeans_step(x, centroids):
    # |x|^2 - 2 x.c + |c|^2: O(N*K) memory, but far from the origin the three big terms cancel
    d2 = (x * x).sum(1, keepdim=True) - 2 * x @ centroids.T + (centroids * centroids).sum(1)[None, :]
    inertia, assign = d2.min(dim=1)
    k = centroids.shape[0]
    counts = torch.bincount(assign, minlength=k)
    sums = torch.zeros_like(centroids).index_add_(0, assign, x)
    new = torch.where((counts > 0)[:, None], sums / counts.clamp(min=1)[:, None].to(x.dtype), centroids)
    return assign, new, inertia.sum()
