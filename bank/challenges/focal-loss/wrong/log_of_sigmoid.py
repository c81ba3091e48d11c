# expect: Wrong Answer
import torch


def focal_loss(logits, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    p = torch.sigmoid(logits)
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = -(1 - p_t) ** gamma * torch.log(p_t)  # log(0) = -inf for large logits
    if alpha >= 0:
        loss = loss * (alpha * targets + (1 - alpha) * (1 - targets))
    return {"mean": loss.mean(), "sum": loss.sum()}.get(reduction, loss)
