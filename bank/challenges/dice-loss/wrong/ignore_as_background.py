# expect: Wrong Answer
import torch
import torch.nn.functional as F


def dice_loss(logits, target, eps=1.0, ignore_index=None):
    c = logits.shape[1]
    p = logits.softmax(dim=1)
    if ignore_index is not None:
        target = torch.where(target == ignore_index, torch.zeros_like(target), target)  # ignored -> class 0
    y = F.one_hot(target, c).permute(0, 3, 1, 2).to(p.dtype)
    inter = (p * y).sum((0, 2, 3))
    dice = (2 * inter + eps) / (p.sum((0, 2, 3)) + y.sum((0, 2, 3)) + eps)
    return 1 - dice.mean()
