# expect: Rule Violation
import torch.nn.functional as F


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    return F.cross_entropy(logits, target, ignore_index=ignore_index, label_smoothing=label_smoothing)
