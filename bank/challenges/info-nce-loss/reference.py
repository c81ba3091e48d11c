import torch
import torch.nn.functional as F


def info_nce_loss(z, temperature=0.5):
    n2 = z.shape[0]
    n = n2 // 2
    u = F.normalize(z, dim=1)                                      # unit rows (norm clamped at 1e-12)
    logits = (u @ u.T) / temperature                               # (2N, 2N) cosine / tau
    self_mask = torch.eye(n2, dtype=torch.bool, device=z.device)
    logits = logits.masked_fill(self_mask, float("-inf"))          # k = i is not a candidate at all
    pos = torch.cat([torch.arange(n, n2), torch.arange(0, n)]).to(z.device)  # i <-> i + N
    return F.cross_entropy(logits, pos)                            # stable log-softmax, mean over 2N
