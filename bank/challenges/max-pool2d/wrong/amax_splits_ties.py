# expect: Wrong Answer
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def max_pool2d(x, kernel_size, stride=None, padding=0):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(kernel_size if stride is None else stride)
    ph, pw = _pair(padding)
    x = F.pad(x, (pw, pw, ph, ph), value=float("-inf"))
    win = x.unfold(2, kh, sh).unfold(3, kw, sw)
    return win.amax(dim=(-2, -1))  # amax's backward splits the gradient among tied maxima
