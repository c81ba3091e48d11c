# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)
    logits = (u @ u.T) / temperature
    logits = logits.masked_fill(torch.eye(n2, dtype=torch.bool), 0.0)  # exp(0) = 1 stays in the denominator
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)])
    return F.cross_entropy(logits, pos)
