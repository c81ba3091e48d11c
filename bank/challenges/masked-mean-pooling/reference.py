import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1)  # (B, T, 1)
    total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=1)  # padding never enters, even inf
    count = m.sum(dim=1).clamp(min=1).to(x.dtype)  # an empty row divides 0 by 1
    return total / count
