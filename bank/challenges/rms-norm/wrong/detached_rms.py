# expect: Wrong Answer
import torch


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    dims = tuple(range(-len(normalized_shape), 0))
    ms = x.pow(2).mean(dim=dims, keepdim=True)  # mean square: no mean subtraction
    y = x * torch.rsqrt(ms + eps).detach()  # the scale treated as a constant: wrong gradient
    return y * weight if weight is not None else y
