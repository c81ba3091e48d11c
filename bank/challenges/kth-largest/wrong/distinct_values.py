# expect: Wrong Answer
import torch


def kth_largest(x, k):
    # treats duplicates as one value
    out = []
    for row in x:
        u = torch.unique(row)  # ascending, deduplicated
        out.append(u[max(u.numel() - k, 0)])
    return torch.stack(out)
