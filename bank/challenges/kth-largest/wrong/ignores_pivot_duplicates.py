# expect: Wrong Answer
import torch


def _quickselect(row, k, g):
    while True:
        pivot = row[torch.randint(row.numel(), (1,), generator=g)].squeeze()
        greater = row[row > pivot]
        if k <= greater.numel():
            row = greater
        elif k == greater.numel() + 1:
            return pivot
        else:
            # two-way partition: copies of the pivot are dropped instead of counted
            k -= greater.numel() + 1
            row = row[row < pivot]


def kth_largest(x, k):
    g = torch.Generator().manual_seed(0)
    return torch.stack([_quickselect(row, k, g) for row in x])
