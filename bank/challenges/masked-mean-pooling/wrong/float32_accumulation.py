# expect: Wrong Answer
import torch


def masked_mean(x, mask):
    dtype = x.dtype
    x = x.float()  # accumulate in float32, cast back at the end: loses float64 precision
    m = mask.unsqueeze(-1)  # (B, T, 1)
    total = torch.where(m, x, torch.zeros((), dtype=x.dtype)).sum(dim=1)  # padding never enters, even inf
    count = m.sum(dim=1).clamp(min=1).to(x.dtype)  # an empty row divides 0 by 1
    return (total / count).to(dtype)
