# expect: Wrong Answer
import torch.nn.functional as F


def causal_conv1d(x, weight, bias=None, dilation=1):
    # "same" padding: the right half of the window reads future time steps
    return F.conv1d(x, weight, bias, dilation=dilation, padding="same")
