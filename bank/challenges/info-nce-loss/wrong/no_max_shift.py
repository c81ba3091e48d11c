# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)
    e = torch.exp((u @ u.T) / temperature)  # overflows for small temperatures
    e = e.masked_fill(torch.eye(n2, dtype=torch.bool), 0.0)
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)])
    num = e[torch.arange(n2), pos]
    return -(num / e.sum(dim=1)).log().mean()
