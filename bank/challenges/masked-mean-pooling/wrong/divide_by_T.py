# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1)
    total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=1)
    return total / x.shape[1]  # counts the padding in the denominator
