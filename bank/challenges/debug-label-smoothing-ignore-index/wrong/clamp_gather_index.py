# expect: Runtime Error
import torch
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    C = logits.shape[-1]
    logp = F.log_softmax(logits.reshape(-1, C), dim=-1)
    t = target.reshape(-1)
    keep = t != ignore_index
    # clamp makes -100 gatherable, but an ignore_index >= C is still out of range for gather
    nll = -logp.gather(1, t.clamp(min=0).unsqueeze(1)).squeeze(1)
    loss = (1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=-1)
    return torch.where(keep, loss, 0.0).sum() / keep.sum()
