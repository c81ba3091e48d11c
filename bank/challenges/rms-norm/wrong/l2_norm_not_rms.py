# expect: Wrong Answer
import torch


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    dims = tuple(range(-len(normalized_shape), 0))
    y = x * torch.rsqrt(x.pow(2).sum(dim=dims, keepdim=True) + eps)  # sum, not mean
    return y * weight if weight is not None else y
