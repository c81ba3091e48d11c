# expect: Wrong Answer
import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    score = start + emissions[:, 0]
    history = []
    for t in range(1, t_max):
        best, idx = (score[:, :, None] + transitions[None] + emissions[:, t, None, :]).max(dim=1)
        score = torch.where(mask[:, t, None], best, score)
        history.append(idx)
    best_score, last = score.max(dim=1)  # forgets the end (stop-transition) scores
    lengths = mask.sum(dim=1).tolist()
    paths = torch.full((b, t_max), -1, dtype=torch.long)
    for i in range(b):
        tag = int(last[i])
        paths[i, lengths[i] - 1] = tag
        for t in range(lengths[i] - 1, 0, -1):
            tag = int(history[t - 1][i, tag])
            paths[i, t - 1] = tag
    return paths, best_score
