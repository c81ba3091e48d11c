# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    k = weight.shape[-1]
    x = F.pad(x, ((k - 1) * dilation, 0))
    # "convolution flips the kernel": F.conv1d is a cross-correlation, and the statement's tap k
    # already looks (K - 1 - k) * dilation steps back, so flipping reverses the taps
    return F.conv1d(x, weight.flip(-1), bias, dilation=dilation)
