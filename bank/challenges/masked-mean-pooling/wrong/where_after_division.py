# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    m = mask.unsqueeze(-1).to(x.dtype)
    total = (x * m).sum(dim=1)
    count = m.sum(dim=1)
    # right values, but the backward of the discarded branch total / 0 is NaN, and NaN * 0 = NaN reaches x
    return torch.where(count > 0, total / count, torch.zeros((), dtype=x.dtype))
