# expect: Rule Violation
import torch


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1):
    return torch.conv2d(x, weight, bias, stride, padding, dilation)
