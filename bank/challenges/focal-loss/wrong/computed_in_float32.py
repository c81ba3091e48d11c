# expect: Wrong Answer
import torch
import torch.nn.functional as F


def focal_loss(logits, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    dtype = logits.dtype
    logits, targets = logits.float(), targets.float()  # float32 'to save memory', cast back at the end
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p = torch.sigmoid(logits)
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * (1 - p_t) ** gamma
    if alpha >= 0:
        loss = loss * (alpha * targets + (1 - alpha) * (1 - targets))
    if reduction == "mean":
        return loss.mean().to(dtype)
    if reduction == "sum":
        return loss.sum().to(dtype)
    return loss.to(dtype)
