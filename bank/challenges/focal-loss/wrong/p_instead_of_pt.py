# expect: Wrong Answer
import torch
import torch.nn.functional as F


def focal_loss(logits, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none")
    p = torch.sigmoid(logits)
    loss = ce * (1 - p) ** gamma  # modulates by p, not p_t: wrong for negatives
    if alpha >= 0:
        loss = loss * (alpha * targets + (1 - alpha) * (1 - targets))
    return {"mean": loss.mean(), "sum": loss.sum()}.get(reduction, loss)
