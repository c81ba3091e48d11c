# expect: Wrong Answer
import torch


def count_pairs(x: torch.Tensor, target: int) -> int:
    s = x.sort().values
    # for every element, how many elements equal target - element (ordered pairs, i != j)
    need = target - s
    matches = torch.searchsorted(s, need, right=True) - torch.searchsorted(s, need, right=False)
    same = (s == target // 2).sum()  # wrong for odd targets: 8 + 8 != 17  # an element paired with itself was counted once each
    return int((matches.sum() - same) // 2)
