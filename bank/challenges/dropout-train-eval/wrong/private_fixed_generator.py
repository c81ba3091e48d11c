# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * torch.zeros_like(x)  # everything dropped (and no 0 * inf = NaN)
    g = torch.Generator().manual_seed(0)  # "reproducible": but the same mask on every call, whatever the seed
    keep = (torch.rand(x.shape, generator=g, dtype=x.dtype) >= p).to(x.dtype)
    return x * keep / (1.0 - p)
