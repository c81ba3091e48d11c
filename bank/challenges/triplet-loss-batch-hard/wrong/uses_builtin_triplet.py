# expect: Rule Violation
import torch
import torch.nn.functional as F


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
    with torch.no_grad():
        d = torch.cdist(embeddings, embeddings)
        same = labels[:, None] == labels[None, :]
        pos = same & ~torch.eye(b, dtype=torch.bool)
        neg = ~same
        valid = pos.any(1) & neg.any(1)
        p = d.masked_fill(~pos, float("-inf")).argmax(1)
        n = d.masked_fill(~neg, float("inf")).argmin(1)
    if not valid.any():
        return embeddings.sum() * 0.0
    a = embeddings[valid]
    return F.triplet_margin_loss(a, embeddings[p[valid]], embeddings[n[valid]], margin=margin, eps=0.0)
