# expect: Wrong Answer
import torch


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    # groups channels c, c + G, c + 2G, ... together instead of contiguous blocks
    n, c = x.shape[:2]
    h = x.reshape(n, c // num_groups, num_groups, -1).transpose(1, 2).reshape(n, num_groups, -1)
    mu = h.mean(dim=-1, keepdim=True)
    var = (h - mu).pow(2).mean(dim=-1, keepdim=True)
    y = ((h - mu) / torch.sqrt(var + eps)).reshape(n, num_groups, c // num_groups, -1).transpose(1, 2)
    y = y.reshape(x.shape)
    shape = (1, c) + (1,) * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y
