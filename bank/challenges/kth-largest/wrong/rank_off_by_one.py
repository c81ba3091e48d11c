# expect: Wrong Answer
import torch


def _kth_smallest(row, j, g):
    # j is 1-based: the j-th smallest
    while True:
        pivot = row[torch.randint(row.numel(), (1,), generator=g)].squeeze()
        less, equal = (row < pivot).sum().item(), (row == pivot).sum().item()
        if j <= less:
            row = row[row < pivot]
        elif j <= less + equal:
            return pivot
        else:
            j -= less + equal
            row = row[row > pivot]


def kth_largest(x, k):
    g = torch.Generator().manual_seed(0)
    n = x.shape[1]
    # the k-th largest is the (n - k + 1)-th smallest; n - k is off by one
    return torch.stack([_kth_smallest(row, max(n - k, 1), g) for row in x])
