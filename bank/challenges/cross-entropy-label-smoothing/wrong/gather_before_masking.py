# expect: Runtime Error
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    m = logits.amax(dim=-1, keepdim=True).detach()
    z = logits - m
    logp = z - z.exp().sum(dim=-1, keepdim=True).log()
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    nll = -logp.gather(-1, target.unsqueeze(-1)).squeeze(-1)  # gathers at ignore_index (-100) before masking
    smooth = -logp.mean(dim=-1)
    loss = (1 - label_smoothing) * nll + label_smoothing * smooth
    loss = torch.where(keep, loss, torch.zeros_like(loss))
    return loss.sum() / keep.sum()
