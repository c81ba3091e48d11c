# expect: Rule Violation
import torch


def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    k = len(normalized_shape)
    lead = x.shape[: x.dim() - k]
    flat = x.reshape(-1, 1, int(torch.tensor(normalized_shape).prod()))
    y = torch.group_norm(flat, 1, eps=eps).reshape(*lead, *normalized_shape)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y
