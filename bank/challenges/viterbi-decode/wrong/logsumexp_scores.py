# expect: Wrong Answer
import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    score = start + emissions[:, 0]
    alpha = score.clone()
    history = []
    for t in range(1, t_max):
        cand = score[:, :, None] + transitions[None] + emissions[:, t, None, :]
        best, idx = cand.max(dim=1)
        score = torch.where(mask[:, t, None], best, score)
        a = torch.logsumexp(alpha[:, :, None] + transitions[None] + emissions[:, t, None, :], dim=1)
        alpha = torch.where(mask[:, t, None], a, alpha)  # the forward algorithm's log Z, not the best path's score
        history.append(idx)
    _, last = (score + end).max(dim=1)
    best_score = torch.logsumexp(alpha + end, dim=1)
    lengths = mask.sum(dim=1).tolist()
    paths = torch.full((b, t_max), -1, dtype=torch.long)
    for i in range(b):
        tag = int(last[i])
        paths[i, lengths[i] - 1] = tag
        for t in range(lengths[i] - 1, 0, -1):
            tag = int(history[t - 1][i, tag])
            paths[i, t - 1] = tag
    return paths, best_score
