# expect: Wrong Answer
import torch


def viterbi_decode(emissions, transitions, start, end, mask):
    b, t_max, k = emissions.shape
    lengths = mask.sum(dim=1).tolist()
    paths = torch.full((b, t_max), -1, dtype=torch.long)
    scores = torch.empty(b, dtype=emissions.dtype)
    for i in range(b):  # picks the locally best tag at each step: not the best path
        s = start + emissions[i, 0]
        tag = int(s.argmax())
        total = s[tag]
        paths[i, 0] = tag
        for t in range(1, lengths[i]):
            s = transitions[tag] + emissions[i, t]
            tag = int(s.argmax())
            total = total + s[tag]
            paths[i, t] = tag
        scores[i] = total + end[tag]
    return paths, scores
