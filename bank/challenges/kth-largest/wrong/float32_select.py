# expect: Wrong Answer
import torch


def _select(x, k):
    rows = x.shape[0]
    lo = torch.full((rows,), float("-inf"), dtype=x.dtype)
    hi = torch.full((rows,), float("inf"), dtype=x.dtype)
    kk = torch.full((rows,), k)
    g = torch.Generator().manual_seed(0)
    while True:
        cand = (x > lo[:, None]) & (x <= hi[:, None])
        count = cand.sum(1)
        pick = (torch.rand(rows, generator=g) * count).long().clamp(max=x.shape[1] - 1)
        order = cand.long().cumsum(1) - 1
        pivot = torch.where(cand & (order == pick[:, None]), x, torch.zeros_like(x)).sum(1)
        greater = (cand & (x > pivot[:, None])).sum(1)
        equal = (cand & (x == pivot[:, None])).sum(1)
        found = (kk > greater) & (kk <= greater + equal)
        if bool(found.all()):
            return pivot
        go_up = kk <= greater
        lo = torch.where(go_up & ~found, pivot, lo)
        hi = torch.where(~go_up & ~found, pivot.nextafter(torch.tensor(float("-inf"), dtype=x.dtype)), hi)
        kk = torch.where(~go_up & ~found, kk - greater - equal, kk)
        hi = torch.where(found, pivot, hi)
        lo = torch.where(found, pivot.nextafter(torch.tensor(float("-inf"), dtype=x.dtype)), lo)
        kk = torch.where(found, torch.ones_like(kk), kk)


def kth_largest(x, k):
    # selects in float32 "for speed" and casts back: the result is no longer an element of x
    return _select(x.float(), k).to(x.dtype)
