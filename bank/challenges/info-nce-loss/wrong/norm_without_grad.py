# expect: Wrong Answer
import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    with torch.no_grad():
        norms = z.norm(dim=1, keepdim=True).clamp_min(1e-12)  # treated as a constant: right loss, wrong gradient
    u = z / norms
    logits = (u @ u.T) / temperature
    logits = logits.masked_fill(torch.eye(n2, dtype=torch.bool), float("-inf"))
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)])
    return F.cross_entropy(logits, pos)
