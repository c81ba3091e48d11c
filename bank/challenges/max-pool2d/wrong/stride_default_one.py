# expect: Wrong Answer
import torch
import torch.nn.functional as F


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def max_pool2d(x, kernel_size, stride=None, padding=0):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(1 if stride is None else stride)  # stride=None taken as 1, not kernel_size
    ph, pw = _pair(padding)
    x = F.pad(x, (pw, pw, ph, ph), value=float("-inf"))  # padding never wins the max
    win = x.unfold(2, kh, sh).unfold(3, kw, sw)  # (N, C, H_out, W_out, kh, kw), a view
    # max over the window: the gradient goes to the first maximal element (row-major in the window)
    return win.flatten(-2).max(dim=-1).values
