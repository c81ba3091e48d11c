# expect: Wrong Answer
import torch


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0):
    m = logits.amax(dim=-1, keepdim=True).detach()
    z = logits - m
    logp = z - z.exp().sum(dim=-1, keepdim=True).log()
    keep = target != ignore_index
    safe = torch.where(keep, target, torch.zeros_like(target))
    nll = -logp.gather(-1, safe.unsqueeze(-1)).squeeze(-1)
    smooth = -logp.mean(dim=-1)
    loss = (1 - label_smoothing) * nll + label_smoothing * smooth
    loss = loss * keep  # right value, but 0 * inf/NaN gradients leak through when every row is ignored
    return loss.sum() / keep.sum()
