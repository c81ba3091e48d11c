# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    k = weight.shape[-1]
    # left padding by the right amount, but repeating the first sample instead of zeros
    x = F.pad(x, ((k - 1) * dilation, 0), mode="replicate")
    return F.conv1d(x, weight, bias, dilation=dilation)
