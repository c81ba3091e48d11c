# expect: Wrong Answer
import torch


def batch_hard_triplet_loss(embeddings, labels, margin=0.2):
    b = embeddings.shape[0]
    diff = embeddings[:, None, :] - embeddings[None, :, :]
    d = torch.sqrt((diff * diff).sum(-1))  # d/dx sqrt at the zero diagonal is inf: inf * 0 = NaN in backward
    same = labels[:, None] == labels[None, :]
    pos = same & ~torch.eye(b, dtype=torch.bool)
    neg = ~same
    valid = pos.any(1) & neg.any(1)
    if not valid.any():
        return embeddings.sum() * 0.0
    hardest_pos = d.masked_fill(~pos, float("-inf")).amax(dim=1)
    hardest_neg = d.masked_fill(~neg, float("inf")).amin(dim=1)
    return torch.relu(margin + hardest_pos[valid] - hardest_neg[valid]).mean()
