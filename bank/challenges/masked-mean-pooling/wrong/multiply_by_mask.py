# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1).to(x.dtype)
    total = (x * m).sum(dim=1)  # inf * 0 = NaN when the padding holds inf
    return total / m.sum(dim=1).clamp(min=1)
