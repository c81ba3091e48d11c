# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * torch.zeros_like(x)  # everything dropped (and no 0 * inf = NaN)
    keep = (torch.rand_like(x) < p).to(x.dtype)  # keeps an element with probability p, not 1 - p
    return x * keep / (1.0 - p)
