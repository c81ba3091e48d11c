# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if not training:
        return x
    keep = (torch.rand_like(x) >= p).to(x.dtype)
    return x * keep / (1.0 - p)  # p = 1: division by zero gives 0 * inf = NaN
