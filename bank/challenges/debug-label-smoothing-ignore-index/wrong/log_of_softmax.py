# expect: Wrong Answer
import torch


def smoothed_token_loss(logits, target, label_smoothing, ignore_index=-100):
    C = logits.shape[-1]
    logp = torch.log(torch.softmax(logits.reshape(-1, C), dim=-1))  # log(0) = -inf for logits far apart
    t = target.reshape(-1)
    keep = t != ignore_index
    nll = -logp.gather(1, torch.where(keep, t, 0).unsqueeze(1)).squeeze(1)
    loss = (1 - label_smoothing) * nll - label_smoothing * logp.mean(dim=-1)
    return torch.where(keep, loss, 0.0).sum() / keep.sum()
