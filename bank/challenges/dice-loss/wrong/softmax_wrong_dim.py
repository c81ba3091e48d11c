# expect: Wrong Answer
import torch
import torch.nn.functional as F


def dice_loss(logits, target, eps=1.0, ignore_index=None):
    c = logits.shape[1]
    p = logits.softmax(dim=-1)  # normalises over the width, not over the classes
    valid = torch.ones_like(target, dtype=torch.bool) if ignore_index is None else target != ignore_index
    t = torch.where(valid, target, torch.zeros_like(target))
    y = F.one_hot(t, c).permute(0, 3, 1, 2).to(p.dtype)
    m = valid.unsqueeze(1).to(p.dtype)
    p, y = p * m, y * m
    inter = (p * y).sum((0, 2, 3))
    dice = (2 * inter + eps) / (p.sum((0, 2, 3)) + y.sum((0, 2, 3)) + eps)
    return 1 - dice.mean()
