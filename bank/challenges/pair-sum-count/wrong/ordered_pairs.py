# expect: Wrong Answer
import torch


def count_pairs(x: torch.Tensor, target: int) -> int:
    s = x.sort().values
    # for every element, how many elements equal target - element (ordered pairs, i != j)
    need = target - s
    matches = torch.searchsorted(s, need, right=True) - torch.searchsorted(s, need, right=False)
    same = (2 * s == target).sum()  # an element paired with itself was counted once each
    return int(matches.sum() - same)  # counts (i, j) and (j, i): ordered pairs
