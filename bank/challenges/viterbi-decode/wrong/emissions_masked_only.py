# expect: Wrong Answer
import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    emissions = emissions * mask[:, :, None]  # zeroes padded emissions, but padded steps still add transitions
    score = start + emissions[:, 0]
    history = []
    for t in range(1, t_max):
        best, idx = (score[:, :, None] + transitions[None] + emissions[:, t, None, :]).max(dim=1)
        score = best
        history.append(idx)
    best_score, last = (score + end).max(dim=1)
    lengths = mask.sum(dim=1).tolist()
    paths = torch.full((b, t_max), -1, dtype=torch.long)
    for i in range(b):
        tag = int(last[i])
        for t in range(t_max - 1, lengths[i] - 1, -1):
            tag = int(history[t - 1][i, tag])
        paths[i, lengths[i] - 1] = tag
        for t in range(lengths[i] - 1, 0, -1):
            tag = int(history[t - 1][i, tag])
            paths[i, t - 1] = tag
    return paths, best_score
