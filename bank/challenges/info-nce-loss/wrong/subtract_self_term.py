# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)
    logits = (u @ u.T) / temperature
    m = logits.max(dim=1, keepdim=True).values.detach()  # the diagonal: 1 / tau
    e = torch.exp(logits - m)
    denom = e.sum(dim=1) - e.diagonal()  # removes the self term by subtraction: catastrophic cancellation
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)])
    l_pos = logits[torch.arange(n2), pos] - m.squeeze(1)
    return (denom.log() - l_pos).mean()
