# expect: Runtime Error
import torch


def topk_per_group(values, groups, num_groups, k):
    n = values.numel()
    # order by value descending, ties by position (stable), then by group (stable keeps the rest)
    by_value = torch.sort(values, descending=True, stable=True).indices
    order = by_value[torch.sort(groups[by_value], stable=True).indices]
    g = groups[order]
    starts = torch.cumsum(torch.bincount(groups, minlength=num_groups), 0) - torch.bincount(groups, minlength=num_groups)
    rank = torch.arange(n) - starts[g]
    keep = rank <= k  # keeps k + 1 per group: writes past column k - 1
    top = torch.full((num_groups, k), float("-inf"), dtype=values.dtype)
    index = torch.full((num_groups, k), -1, dtype=torch.int64)
    top[g[keep], rank[keep]] = values[order[keep]]
    index[g[keep], rank[keep]] = order[keep]
    return top, index
