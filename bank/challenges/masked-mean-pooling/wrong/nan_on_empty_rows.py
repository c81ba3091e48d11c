# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1)
    total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=1)
    return total / m.sum(dim=1).to(x.dtype)  # 0 / 0 = NaN for a row without tokens
