# expect: Wrong Answer
import math

import torch


def _pow2(n):
    return [2.0 ** (-8.0 * h / n) for h in range(n)]  # h = 0..n-1: the first head gets slope 1


def alibi_slopes(n_heads):
    p = 2 ** math.floor(math.log2(n_heads))
    return torch.tensor(_pow2(p) + _pow2(2 * p)[0::2][: n_heads - p], dtype=torch.float64)


def alibi_bias(slopes, T):
    pos = torch.arange(T)
    dist = (pos[:, None] - pos[None, :]).to(slopes.dtype)
    return (-slopes[:, None, None] * dist).masked_fill(dist < 0, float("-inf"))


def alibi_attention(q, k, v):
    H, T, D = q.shape[1], q.shape[2], q.shape[3]
    att = q @ k.transpose(-2, -1) / math.sqrt(D) + alibi_bias(alibi_slopes(H), T)
    return torch.softmax(att, dim=-1) @ v
