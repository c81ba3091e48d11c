# expect: Wrong Answer
import torch


def kmeans_step(x, centroids):
    n, k = x.shape[0], centroids.shape[0]
    best = torch.full((n,), float("inf"), dtype=x.dtype)
    assign = torch.zeros(n, dtype=torch.int64)
    for j in range(k):
        d = (x - centroids[j]).pow(2).sum(1)
        better = d <= best  # <= : on a tie the LATER centroid takes the point
        best = torch.where(better, d, best)
        assign = torch.where(better, j, assign)
    counts = torch.bincount(assign, minlength=k)
    sums = torch.zeros_like(centroids).index_add_(0, assign, x)
    new = torch.where((counts > 0)[:, None], sums / counts.clamp(min=1)[:, None].to(x.dtype), centroids)
    return assign, new, best.sum()
