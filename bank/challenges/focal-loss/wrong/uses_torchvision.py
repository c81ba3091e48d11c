# expect: Rule Violation
from torchvision.ops import sigmoid_focal_loss


def focal_loss(logits, targets, alpha=0.25, gamma=2.0, reduction="mean"):
    return sigmoid_focal_loss(logits, targets, alpha=alpha, gamma=gamma, reduction=reduction)
