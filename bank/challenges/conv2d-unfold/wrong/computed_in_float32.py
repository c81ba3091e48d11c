# expect: Wrong Answer
import torch
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1):
    stride, padding, dilation = _pair(stride), _pair(padding), _pair(dilation)
    n, _, h, w = x.shape
    c_out, _, kh, kw = weight.shape
    h_out = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    w_out = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    cols = F.unfold(x, (kh, kw), dilation=dilation, padding=padding, stride=stride)  # (N, C_in*kh*kw, L)
    y = (weight.reshape(c_out, -1).float() @ cols.float()).to(x.dtype)  # float32 matmul, cast back
    if bias is not None:
        y = y + bias.view(1, -1, 1)
    return y.view(n, c_out, h_out, w_out)
