# expect: Wrong Answer
import torch


def window_max(x, k):
    n = x.numel()
    pad = (-n) % k
    xp = torch.cat([x, x.new_full((pad,), float("-inf"))]).view(-1, k)
    prefix = xp.cummax(dim=1).values.flatten()
    suffix = xp.flip(1).cummax(dim=1).values.flip(1).flatten()
    i = torch.arange(n - k + 1)
    return torch.maximum(suffix[i], prefix[i + k - 2])  # window end off by one
