# expect: Rule Violation
import torch.nn.functional as F


def max_pool2d(x, kernel_size, stride=None, padding=0):
    return F.max_pool2d(x, kernel_size, stride, padding)
