# expect: Rule Violation
import torch


def topk_per_group(values, groups, num_groups, k):
    top = torch.full((num_groups, k), float("-inf"), dtype=values.dtype)
    index = torch.full((num_groups, k), -1, dtype=torch.int64)
    for g in range(num_groups):
        idx = (groups == g).nonzero().flatten()
        vals, pos = torch.sort(values[idx], descending=True, stable=True)
        m = min(k, idx.numel())
        top[g, :m] = vals[:m]
        index[g, :m] = idx[pos[:m]]
    return top, index
