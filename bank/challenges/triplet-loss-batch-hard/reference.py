import torch


def pairwise_distances(x):
    diff = x[:, None, :] - x[None, :, :]                 # (B, B, D): exact, unlike |a|^2 - 2ab + |b|^2
    sq = (diff * diff).sum(-1)
    zero = sq == 0
    d = torch.sqrt(torch.where(zero, torch.ones_like(sq), sq))  # sqrt never sees 0: no inf * 0 = NaN
    return d.masked_fill(zero, 0.0)                      # distance 0, gradient 0


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
    d = pairwise_distances(embeddings)
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(b, dtype=torch.bool, device=embeddings.device)
    pos, neg = same & ~eye, ~same
    valid = pos.any(dim=1) & neg.any(dim=1)
    if not valid.any():
        return embeddings.sum() * 0.0
    hardest_pos = d.masked_fill(~pos, float("-inf")).amax(dim=1)
    hardest_neg = d.masked_fill(~neg, float("inf")).amin(dim=1)
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean()
