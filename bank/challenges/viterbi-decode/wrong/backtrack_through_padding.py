# expect: Wrong Answer
import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    score = start + emissions[:, 0]
    history = []
    for t in range(1, t_max):
        best, idx = (score[:, :, None] + transitions[None] + emissions[:, t, None, :]).max(dim=1)
        score = torch.where(mask[:, t, None], best, score)  # scores are right ...
        history.append(idx)
    best_score, last = (score + end).max(dim=1)
    paths = torch.empty((b, t_max), dtype=torch.long)
    for i in range(b):  # ... but backtracking starts at T - 1 and follows back-pointers of padded steps
        tag = int(last[i])
        paths[i, t_max - 1] = tag
        for t in range(t_max - 1, 0, -1):
            tag = int(history[t - 1][i, tag])
            paths[i, t - 1] = tag
    return paths.masked_fill(~mask, -1), best_score
