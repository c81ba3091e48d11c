# expect: Wrong Answer
import torch


def topk_per_group(values, groups, num_groups, k):
    n = values.numel()
    by_value = torch.sort(values, descending=True, stable=True).indices
    order = by_value[torch.sort(groups[by_value], stable=True).indices]
    g = groups[order]
    counts = torch.bincount(groups, minlength=num_groups)
    rank = torch.arange(n) - (torch.cumsum(counts, 0) - counts)[g]
    keep = rank < k
    top = torch.zeros((num_groups, k), dtype=values.dtype)  # pads with 0 instead of -inf
    index = torch.zeros((num_groups, k), dtype=torch.int64)  # and 0 instead of -1
    top[g[keep], rank[keep]] = values[order[keep]]
    index[g[keep], rank[keep]] = order[keep]
    return top, index
