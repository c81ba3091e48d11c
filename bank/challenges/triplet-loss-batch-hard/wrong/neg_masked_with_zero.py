# expect: Wrong Answer
import torch


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
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
    hardest_pos = (d * pos).amax(dim=1)
    hardest_neg = (d * neg).amin(dim=1)  # non-negatives become 0 and win the min
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean()
