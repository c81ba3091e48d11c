import torch


def kth_largest(x: torch.Tensor, k: int) -> torch.Tensor:
    """Vectorised quickselect: every row keeps an open interval (lo, hi] holding its answer."""
    rows = x.shape[0]
    lo = torch.full((rows,), float("-inf"), dtype=x.dtype)
    hi = torch.full((rows,), float("inf"), dtype=x.dtype)
    kk = torch.full((rows,), k)  # rank of the answer among the candidates of each row
    g = torch.Generator().manual_seed(0)
    while True:
        cand = (x > lo[:, None]) & (x <= hi[:, None])
        count = cand.sum(1)
        # random pivot among each row's candidates
        pick = (torch.rand(rows, generator=g, dtype=x.dtype) * count).long().clamp(max=x.shape[1] - 1)
        order = cand.long().cumsum(1) - 1
        pivot = torch.where(cand & (order == pick[:, None]), x, torch.zeros_like(x)).sum(1)
        greater = (cand & (x > pivot[:, None])).sum(1)
        equal = (cand & (x == pivot[:, None])).sum(1)
        found = (kk > greater) & (kk <= greater + equal)
        if bool(found.all()):
            return pivot
        go_up = kk <= greater  # answer is above the pivot
        lo = torch.where(go_up & ~found, pivot, lo)
        hi = torch.where(~go_up & ~found, pivot.nextafter(torch.tensor(float("-inf"), dtype=x.dtype)), hi)
        kk = torch.where(~go_up & ~found, kk - greater - equal, kk)
        hi = torch.where(found, pivot, hi)
        lo = torch.where(found, pivot.nextafter(torch.tensor(float("-inf"), dtype=x.dtype)), lo)
        kk = torch.where(found, torch.ones_like(kk), kk)
