# expect: Wrong Answer
import torch
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    logp = F.log_softmax(logits, dim=-1)  # (B, L, C)
    keep = target != ignore_index
    nll = -logp.gather(-1, torch.where(keep, target, 0).unsqueeze(-1)).squeeze(-1)
    loss = (1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=-1)
    per_seq = torch.where(keep, loss, 0.0).sum(dim=1) / keep.sum(dim=1)
    return per_seq.mean()  # mean of sequence means: a short sequence's tokens weigh more
