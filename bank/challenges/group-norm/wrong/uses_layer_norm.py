# expect: Rule Violation
import torch.nn.functional as F


def group_norm(x, num_groups, weight=None, bias=None, eps=1e-5):
    n, c = x.shape[:2]
    h = x.reshape(n, num_groups, -1)
    y = F.layer_norm(h, h.shape[-1:], eps=eps).reshape(x.shape)
    shape = (1, c) + (1,) * (x.dim() - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y
