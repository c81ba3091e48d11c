# expect: Wrong Answer
import torch


def dropout(x, p=0.5, training=True):
    if not training:
        return x * (1.0 - p)  # old-style dropout: scale at test time instead of train time
    keep = (torch.rand_like(x) >= p).to(x.dtype)
    return x * keep
