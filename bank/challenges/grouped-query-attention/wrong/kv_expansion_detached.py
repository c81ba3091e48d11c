# expect: Wrong Answer
# builds the expanded k/v under no_grad: right forward, no gradient reaches k and v
import math

import torch


def grouped_query_attention(q, k, v, causal=False):
    B, Hq, L, D = q.shape
    Hkv, S = k.shape[1], k.shape[2]
    assert Hq % Hkv == 0
    group = Hq // Hkv
    with torch.no_grad():  # "the copies are just a view trick, no need to track them"
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, Hq, L, S)
    if causal:
        future = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(diagonal=1)  # key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    return scores.softmax(dim=-1) @ v
