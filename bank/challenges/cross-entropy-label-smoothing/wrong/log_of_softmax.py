# expect: Wrong Answer
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    e = logits.exp()  # overflows / underflows for large logits
    logp = (e / e.sum(dim=-1, keepdim=True)).log()
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    loss = (1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=-1)
    loss = torch.where(keep, loss, torch.zeros_like(loss))
    return loss.sum() / keep.sum()
