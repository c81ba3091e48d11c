# expect: Wrong Answer
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    dims = tuple(range(-len(normalized_shape), 0))
    mu = x.mean(dim=dims, keepdim=True).detach()  # statistics treated as constants: wrong gradient
    xc = x - mu
    var = xc.pow(2).mean(dim=dims, keepdim=True).detach()  # biased: divide by n, not n - 1
    y = xc / torch.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y
