# expect: Wrong Answer
import torch
import torch.nn.functional as F


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    C = logits.shape[-1]
    logp = F.log_softmax(logits.reshape(-1, C), dim=-1)
    t = target.reshape(-1)
    keep = t != ignore_index
    safe = torch.where(keep, t, 0)
    nll = -logp.gather(1, safe.unsqueeze(1)).squeeze(1)
    # eps spread over the C-1 wrong classes only (1 - eps on the true one): not PyTorch's convention
    others = -(logp.sum(dim=-1) + nll) / (C - 1)
    loss = (1 - label_smoothing) * nll + label_smoothing * others
    return torch.where(keep, loss, 0.0).sum() / keep.sum()
