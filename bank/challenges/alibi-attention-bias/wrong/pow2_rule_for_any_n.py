# expect: Wrong Answer
import math

import torch


def alibi_slopes(n_heads):
    # 2^(-8h/n) for every n: right for powers of two only
    return torch.tensor([2.0 ** (-8.0 * h / n_heads) for h in range(1, n_heads + 1)], dtype=torch.float64)


def alibi_bias(slopes, T):
    pos = torch.arange(T)
    dist = (pos[:, None] - pos[None, :]).to(slopes.dtype)
    return (-slopes[:, None, None] * dist).masked_fill(dist < 0, float("-inf"))


def alibi_attention(q, k, v):
    H, T, D = q.shape[1], q.shape[2], q.shape[3]
    att = q @ k.transpose(-2, -1) / math.sqrt(D) + alibi_bias(alibi_slopes(H), T)
    return torch.softmax(att, dim=-1) @ v
