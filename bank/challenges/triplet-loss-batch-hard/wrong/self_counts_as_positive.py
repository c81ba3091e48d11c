# expect: Wrong Answer
import torch


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    diff = embeddings[:, None, :] - embeddings[None, :, :]
    sq = (diff * diff).sum(-1)
    zero = sq == 0
    d = torch.sqrt(torch.where(zero, torch.ones_like(sq), sq)).masked_fill(zero, 0.0)
    pos = labels[:, None] == labels[None, :]  # includes the anchor itself: every anchor "has" a positive
    neg = ~pos
    valid = pos.any(1) & neg.any(1)
    if not valid.any():
        return embeddings.sum() * 0.0
    hardest_pos = d.masked_fill(~pos, float("-inf")).amax(dim=1)
    hardest_neg = d.masked_fill(~neg, float("inf")).amin(dim=1)
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean()
