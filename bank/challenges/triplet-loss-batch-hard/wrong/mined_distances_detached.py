# expect: Wrong Answer
import torch


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
    with torch.no_grad():  # mining needs no gradient ...
        diff = embeddings[:, None, :] - embeddings[None, :, :]
        sq = (diff * diff).sum(-1)
        zero = sq == 0
        d = torch.sqrt(torch.where(zero, torch.ones_like(sq), sq)).masked_fill(zero, 0.0)
    same = labels[:, None] == labels[None, :]
    pos = same & ~torch.eye(b, dtype=torch.bool)
    neg = ~same
    valid = pos.any(1) & neg.any(1)
    if not valid.any():
        return embeddings.sum() * 0.0
    hardest_pos = d.masked_fill(~pos, float("-inf")).amax(dim=1)  # ... but the loss reuses the detached distances
    hardest_neg = d.masked_fill(~neg, float("inf")).amin(dim=1)
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean() + 0.0 * embeddings.sum()
