# expect: Wrong Answer
import torch


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    # LayerNorm over (C, *): one mean and variance for the whole sample
    n, c = x.shape[:2]
    h = x.reshape(n, -1)
    mu = h.mean(dim=-1, keepdim=True)
    var = (h - mu).pow(2).mean(dim=-1, keepdim=True)
    y = ((h - mu) / torch.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y
