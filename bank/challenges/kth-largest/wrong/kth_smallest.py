# expect: Wrong Answer
import torch


def kth_largest(x, k):
    # selects the k-th smallest by repeatedly removing the minimum
    x = x.clone()
    for _ in range(k - 1):
        idx = x.argmin(dim=1, keepdim=True)
        x.scatter_(1, idx, float("inf"))
    return x.amin(dim=1)
