# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1)  # (B, T, 1)
    total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=1)  # padding never enters, even inf
    count = m.sum().clamp(min=1).to(x.dtype)  # real tokens of the whole batch, not per row  # an empty row divides 0 by 1
    return total / count
