# expect: Wrong Answer
import torch


def count_pairs(x: torch.Tensor, target: int) -> int:
    s = x.sort().values
    # for every element, how many elements equal target - element (ordered pairs, i != j)
    need = target - s
    pos = torch.searchsorted(s, need).clamp(max=max(s.numel() - 1, 0))
    matches = (s[pos] == need).long() if s.numel() else need  # 1 if a partner exists, not how many
    same = (2 * s == target).sum()  # an element paired with itself was counted once each
    return int((matches.sum() - same) // 2)
