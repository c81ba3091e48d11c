import torch.nn.functional as F


def _soft(y, perm, lam, num_classes, dtype):
    one_hot = F.one_hot(y, num_classes).to(dtype)
    return lam * one_hot + (1 - lam) * one_hot[perm]


def mixup(x, y, lam, perm, num_classes):
    return lam * x + (1 - lam) * x[perm], _soft(y, perm, lam, num_classes, x.dtype)


def cutmix(x, y, box, perm, num_classes):
    H, W = x.shape[-2:]
    top, left, height, width = box
    r0, r1 = min(max(top, 0), H), min(max(top + height, 0), H)  # clip to the image; never let a
    c0, c1 = min(max(left, 0), W), min(max(left + width, 0), W)  # negative start wrap around
    out = x.clone()  # not in place: x is the caller's batch (and may require grad)
    out[..., r0:r1, c0:c1] = x[perm][..., r0:r1, c0:c1]
    lam = 1.0 - (r1 - r0) * (c1 - c0) / (H * W)  # from the area actually pasted
    return out, _soft(y, perm, lam, num_classes, x.dtype), lam
