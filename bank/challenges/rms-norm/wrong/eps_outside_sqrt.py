# expect: Wrong Answer
import torch


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    dims = tuple(range(-len(normalized_shape), 0))
    rms = x.pow(2).mean(dim=dims, keepdim=True).sqrt()
    y = x / (rms + eps)
    return y * weight if weight is not None else y
