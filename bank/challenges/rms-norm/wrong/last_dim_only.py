# expect: Wrong Answer
import torch


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    dims = (-1,)  # normalized_shape ignored: only the last dim
    ms = x.pow(2).mean(dim=dims, keepdim=True)  # mean square: no mean subtraction
    y = x * torch.rsqrt(ms + eps)
    return y * weight if weight is not None else y
