# expect: Wrong Answer
import torch


def count_pairs(x, target):
    s = x.sort().values
    need = target - s
    matches = torch.searchsorted(s, need, right=True) - torch.searchsorted(s, need, right=False)
    return int(matches.sum() // 2)  # forgets that x[i] + x[i] == target is not a pair
