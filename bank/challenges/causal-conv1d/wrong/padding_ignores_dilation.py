# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    k = weight.shape[-1]
    x = F.pad(x, (k - 1, 0))  # too little padding once dilation > 1: the output is too short
    return F.conv1d(x, weight, bias, dilation=dilation)
