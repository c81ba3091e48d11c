# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    u = F.normalize(z, dim=1)
    logits = (u @ u.T) / temperature
    logits = logits.masked_fill(torch.eye(n2, dtype=torch.bool), float("-inf"))
    pos = torch.arange(n2) ^ 1  # pairs rows (0, 1), (2, 3), ...: the interleaved layout, not i <-> i + N
    return F.cross_entropy(logits, pos)
