# expect: Rule Violation
import torch.nn.functional as F


def rms_norm(x, normalized_shape, weight=None, eps=1e-6):
    return F.rms_norm(x, list(normalized_shape), weight, eps)
