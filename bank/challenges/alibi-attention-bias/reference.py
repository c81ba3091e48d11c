import math

import torch


def _pow2_slopes(n):
    return [2.0 ** (-8.0 * h / n) for h in range(1, n + 1)]


def alibi_slopes(n_heads):
    p = 2 ** math.floor(math.log2(n_heads))  # largest power of two <= n_heads
    extra = _pow2_slopes(2 * p)[0::2][: n_heads - p]  # every other slope of the 2p-head sequence
    return torch.tensor(_pow2_slopes(p) + extra, dtype=torch.float64)


def alibi_bias(slopes, T):
    pos = torch.arange(T, device=slopes.device)
    dist = (pos[:, None] - pos[None, :]).to(slopes.dtype)  # i - j
    bias = -slopes[:, None, None] * dist  # (H, T, T)
    return bias.masked_fill(dist < 0, float("-inf"))  # causal: no future keys


def alibi_attention(q, k, v):
    H, T, D = q.shape[1], q.shape[2], q.shape[3]
    bias = alibi_bias(alibi_slopes(H).to(q.dtype), T)
    att = q @ k.transpose(-2, -1) / math.sqrt(D) + bias
    return torch.softmax(att, dim=-1) @ v
