# expect: Wrong Answer
import torch


def kth_largest(x, k):
    # bisection on the value range: finds a threshold t with exactly k elements >= t, to within
    # a tolerance, and returns the threshold instead of the element itself
    lo = x.amin(1)
    hi = x.amax(1)
    for _ in range(60):
        mid = (lo + hi) / 2
        enough = (x >= mid[:, None]).sum(1) >= k
        lo = torch.where(enough, mid, lo)
        hi = torch.where(enough, hi, mid)
    return lo
