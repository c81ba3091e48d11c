# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * 0.0
    keep = (torch.rand(x.shape[-1], dtype=x.dtype) >= p).to(x.dtype)  # one mask broadcast to every row
    return x * keep / (1.0 - p)
