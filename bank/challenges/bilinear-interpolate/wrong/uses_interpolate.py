# expect: Rule Violation
import torch.nn.functional as F


def bilinear_resize(x, size, align_corners=False):
    return F.interpolate(x, size=tuple(size), mode="bilinear", align_corners=align_corners)
