# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    k = weight.shape[-1]
    dtype = x.dtype
    x = F.pad(x.float(), ((k - 1) * dilation, 0))  # float32 "for speed", cast back at the end
    b = None if bias is None else bias.float()
    return F.conv1d(x, weight.float(), b, dilation=dilation).to(dtype)
