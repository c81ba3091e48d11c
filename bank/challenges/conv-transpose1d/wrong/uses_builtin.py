# expect: Rule Violation
import torch.nn.functional as F


def conv_transpose1d(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return F.conv_transpose1d(x, weight, bias, stride, padding, output_padding, groups, dilation)
