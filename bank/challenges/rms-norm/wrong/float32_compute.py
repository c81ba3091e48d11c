# expect: Wrong Answer
import torch


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    dims = tuple(range(-len(normalized_shape), 0))
    xf = x.float()  # computed in float32 whatever the input, cast back
    ms = xf.pow(2).mean(dim=dims, keepdim=True)
    y = (xf * torch.rsqrt(ms + eps)).to(x.dtype)
    return y * weight if weight is not None else y
