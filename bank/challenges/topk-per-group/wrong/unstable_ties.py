# expect: Wrong Answer
import torch


def topk_per_group(values, groups, num_groups, k):
    n = values.numel()
    key = groups.double() * 1e6 - values  # combined key: fine for values, but ties are not ordered by position
    order = torch.argsort(key, descending=False)
    g = groups[order]
    counts = torch.bincount(groups, minlength=num_groups)
    rank = torch.arange(n) - (torch.cumsum(counts, 0) - counts)[g]
    keep = rank < k
    top = torch.full((num_groups, k), float("-inf"), dtype=values.dtype)
    index = torch.full((num_groups, k), -1, dtype=torch.int64)
    top[g[keep], rank[keep]] = values[order[keep]]
    index[g[keep], rank[keep]] = order[keep]
    return top, index
