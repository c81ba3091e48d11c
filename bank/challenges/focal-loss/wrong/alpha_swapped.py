# expect: Wrong Answer
import torch
import torch.nn.functional as F


def focal_loss(logits, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p = torch.sigmoid(logits)
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * (1 - p_t) ** gamma
    if alpha >= 0:
        loss = loss * ((1 - alpha) * targets + alpha * (1 - targets))  # weights the wrong class
    return {"mean": loss.mean(), "sum": loss.sum()}.get(reduction, loss)
