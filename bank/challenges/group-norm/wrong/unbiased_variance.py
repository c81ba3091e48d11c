# expect: Wrong Answer
import torch


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, num_groups, -1)
    mu = g.mean(dim=-1, keepdim=True)
    var = g.var(dim=-1, keepdim=True)  # unbiased (n - 1): not what GroupNorm uses
    y = ((g - mu) / torch.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y
