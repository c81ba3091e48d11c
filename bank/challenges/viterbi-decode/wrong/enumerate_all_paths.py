# expect: Time Limit Exceeded
import itertools

import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    lengths = mask.sum(dim=1).tolist()
    paths = torch.full((b, t_max), -1, dtype=torch.long)
    scores = torch.empty(b, dtype=emissions.dtype)
    em, tr, st, en = emissions.tolist(), transitions.tolist(), start.tolist(), end.tolist()
    for i in range(b):  # K^T candidate paths: fine for the examples, hopeless for T = 40
        best, best_p = float("-inf"), None
        for p in itertools.product(range(k), repeat=lengths[i]):
            s = st[p[0]] + en[p[-1]] + sum(em[i][t][p[t]] for t in range(len(p)))
            s += sum(tr[p[t - 1]][p[t]] for t in range(1, len(p)))
            if s > best:
                best, best_p = s, p
        paths[i, :lengths[i]] = torch.tensor(best_p)
        scores[i] = best
    return paths, scores
