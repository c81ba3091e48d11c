# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)
    logits = (u @ u.T) / temperature
    logits = logits.masked_fill(torch.eye(n2, dtype=torch.bool), float("-inf"))
    return F.cross_entropy(logits[:n], torch.arange(n, n2))  # only the N anchors of the first view
