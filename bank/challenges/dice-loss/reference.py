import torch
import torch.nn.functional as F


def dice_loss(logits, target, eps=1.0, ignore_index=None):
    c = logits.shape[1]
    p = logits.softmax(dim=1)                                    # (N, C, H, W), classes on dim 1
    valid = torch.ones_like(target, dtype=torch.bool) if ignore_index is None else target != ignore_index
    t = torch.where(valid, target, torch.zeros_like(target))     # any class id: one_hot must not see 255
    y = F.one_hot(t, c).permute(0, 3, 1, 2).to(p.dtype)          # (N, C, H, W)
    m = valid.unsqueeze(1).to(p.dtype)                           # ignored pixels leave both sums
    p, y = p * m, y * m
    dims = (0, 2, 3)                                             # over batch and space, per class
    inter = (p * y).sum(dims)
    denom = p.sum(dims) + y.sum(dims)
    dice = (2 * inter + eps) / (denom + eps)
    return 1 - dice.mean()
