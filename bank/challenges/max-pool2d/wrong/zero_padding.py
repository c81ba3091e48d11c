# expect: Wrong Answer
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def max_pool2d(x, kernel_size, stride=None, padding=0):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(kernel_size if stride is None else stride)
    ph, pw = _pair(padding)
    x = F.pad(x, (pw, pw, ph, ph))  # pads with 0, which beats every negative input
    win = x.unfold(2, kh, sh).unfold(3, kw, sw)
    return win.flatten(-2).max(dim=-1).values
