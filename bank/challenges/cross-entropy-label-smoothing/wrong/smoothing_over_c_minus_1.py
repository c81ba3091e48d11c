# expect: Wrong Answer
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    C = logits.shape[-1]
    z = logits - logits.amax(dim=-1, keepdim=True).detach()
    logp = z - z.exp().sum(dim=-1, keepdim=True).log()
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    onehot = torch.zeros_like(logp).scatter(-1, safe.unsqueeze(-1), 1.0)
    # true class gets 1-eps, the other C-1 classes share eps (PyTorch spreads eps over all C)
    q = onehot * (1 - label_smoothing) + (1 - onehot) * label_smoothing / max(C - 1, 1)
    loss = -(q * logp).sum(dim=-1)
    loss = torch.where(keep, loss, torch.zeros_like(loss))
    return loss.sum() / keep.sum()
