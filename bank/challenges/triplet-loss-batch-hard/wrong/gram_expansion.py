# expect: Wrong Answer
import torch


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
    sq_norm = (embeddings * embeddings).sum(1)
    sq = (sq_norm[:, None] - 2 * embeddings @ embeddings.T + sq_norm[None, :]).clamp_min(0)  # cancels for large norms
    zero = sq == 0
    d = torch.sqrt(torch.where(zero, torch.ones_like(sq), sq)).masked_fill(zero, 0.0)
    same = labels[:, None] == labels[None, :]
    pos = same & ~torch.eye(b, dtype=torch.bool)
    neg = ~same
    valid = pos.any(1) & neg.any(1)
    if not valid.any():
        return embeddings.sum() * 0.0
    hardest_pos = d.masked_fill(~pos, float("-inf")).amax(dim=1)
    hardest_neg = d.masked_fill(~neg, float("inf")).amin(dim=1)
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean()
