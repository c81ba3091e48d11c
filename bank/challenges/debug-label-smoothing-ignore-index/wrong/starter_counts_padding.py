# expect: Wrong Answer
import torch
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    """Label-smoothed cross-entropy over the tokens of a padded batch.

    logits (B, L, C), target (B, L) int64; positions whose target is `ignore_index` are padding.
    Returns a 0-dim tensor.
    """
    C = logits.shape[-1]
    logp = F.log_softmax(logits.reshape(-1, C), dim=-1)
    t = target.reshape(-1)
    keep = t != ignore_index
    nll = -logp.gather(1, torch.where(keep, t, 0).unsqueeze(1)).squeeze(1) * keep
    smooth = -logp.mean(dim=-1)
    loss = (1 - label_smoothing) * nll + label_smoothing * smooth
    return loss.mean()
