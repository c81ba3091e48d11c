# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    p = (weight.shape[-1] - 1) * dilation
    y = F.conv1d(x, weight, bias, dilation=dilation, padding=p)  # pads both sides...
    return y[..., :-p]  # ...then crops the right end: fine, except y[..., :-0] is empty when K = 1
