# expect: Runtime Error
import torch
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1):
    n, _, h, w = x.shape
    c_out, _, kh, kw = weight.shape
    # assumes int stride/padding/dilation: a (H, W) pair breaks the size formula
    h_out = (h + 2 * padding - dilation * (kh - 1) - 1) // stride + 1
    w_out = (w + 2 * padding - dilation * (kw - 1) - 1) // stride + 1
    cols = F.unfold(x, (kh, kw), dilation=dilation, padding=padding, stride=stride)  # (N, C_in*kh*kw, L)
    y = weight.reshape(c_out, -1) @ cols  # (N, C_out, L); columns are ordered (C_in, kh, kw)
    if bias is not None:
        y = y + bias.view(1, -1, 1)
    return y.view(n, c_out, h_out, w_out)
