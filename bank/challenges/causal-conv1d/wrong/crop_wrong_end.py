# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    p = (weight.shape[-1] - 1) * dilation
    y = F.conv1d(x, weight, bias, dilation=dilation, padding=p)
    return y[..., p:]  # keeps the last T outputs: each one sees p steps into the future
