# expect: Wrong Answer
import torch.nn.functional as F


def _soft(y, perm, lam, num_classes, dtype):
    one_hot = F.one_hot(y, num_classes).to(dtype)
    return lam * one_hot + (1 - lam) * one_hot[perm]


def mixup(x, y, lam, perm, num_classes):
    return lam * x + (1 - lam) * x[perm], _soft(y, perm, lam, num_classes, x.dtype)


def cutmix(x, y, box, perm, num_classes):
    H, W = x.shape[-2:]
    top, left, height, width = box
    r0, r1 = top, min(top + height, H)  # a negative top is a negative slice start: counts from the end
    c0, c1 = left, min(left + width, W)
    out = x.clone()
    out[..., r0:r1, c0:c1] = x[perm][..., r0:r1, c0:c1]
    area = out[0, 0, r0:r1, c0:c1].numel()
    lam = 1.0 - area / (H * W)
    return out, _soft(y, perm, lam, num_classes, x.dtype), lam
