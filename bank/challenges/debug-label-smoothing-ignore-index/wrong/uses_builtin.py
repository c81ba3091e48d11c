# expect: Rule Violation
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    C = logits.shape[-1]
    return F.cross_entropy(logits.reshape(-1, C), target.reshape(-1), ignore_index=ignore_index,
                           label_smoothing=label_smoothing)
