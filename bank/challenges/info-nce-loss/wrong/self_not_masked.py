# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)
    logits = (u @ u.T) / temperature  # the diagonal (cos = 1, the largest logit) competes with the positive
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)])
    return F.cross_entropy(logits, pos)
