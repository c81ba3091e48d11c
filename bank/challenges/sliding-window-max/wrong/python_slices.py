# expect: Time Limit Exceeded
import torch


def window_max(x, k):
    # O(n*k): one max over k elements per window
    return torch.stack([x[i:i + k].max() for i in range(x.numel() - k + 1)])
