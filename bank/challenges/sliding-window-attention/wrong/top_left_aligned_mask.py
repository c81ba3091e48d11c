# expect: Wrong Answer
import torch


def sliding_window_attention(q, k, v, window, scale=None):
    L, S = q.size(-2), k.size(-2)
    scale = q.size(-1) ** -0.5 if scale is None else scale
    att = (q @ k.transpose(-2, -1)) * scale
    ones = torch.ones(L, S, dtype=torch.bool)
    keep = ones.tril() & ~ones.tril(-window)  # query i treated as position i, ignoring the S - L cached keys
    att = att.masked_fill(~keep, float("-inf"))
    return torch.softmax(att, dim=-1) @ v
