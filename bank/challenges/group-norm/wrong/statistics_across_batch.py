# expect: Wrong Answer
import torch


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, num_groups, -1)  # contiguous channel blocks, with their spatial positions
    mu = g.mean(dim=(0, 2), keepdim=True)  # per group over the whole batch (BatchNorm-style)
    gc = g - mu
    var = gc.pow(2).mean(dim=(0, 2), keepdim=True)
    y = (gc / torch.sqrt(var + eps)).reshape(x.shape)
    affine_shape = (1, c) + (1,) * (x.dim() - 2)  # per channel, broadcast over the spatial dims
    if weight is not None:
        y = y * weight.reshape(affine_shape)
    if bias is not None:
        y = y + bias.reshape(affine_shape)
    return y
