# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    k = weight.shape[-1]
    T = x.shape[-1]
    x = F.pad(x, (k * dilation, 0))  # K * dilation instead of (K - 1) * dilation...
    return F.conv1d(x, weight, bias, dilation=dilation)[..., :T]  # ...cropped to T: every tap one dilation late
