# expect: Wrong Answer
import torch
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    C = logits.shape[-1]
    logp = F.log_softmax(logits.reshape(-1, C), dim=-1)
    t = target.reshape(-1)
    keep = t != ignore_index
    nll = -logp.gather(1, torch.where(keep, t, 0).unsqueeze(1)).squeeze(1)
    loss = ((1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=-1)) * keep
    return loss.mean()  # divides by B*L, padding included: more padding, smaller loss
