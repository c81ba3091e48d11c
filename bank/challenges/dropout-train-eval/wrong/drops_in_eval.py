# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if p == 1.0:
        return x * 0.0
    keep = (torch.rand_like(x) >= p).to(x.dtype)  # ignores `training`
    return x * keep / (1.0 - p)
