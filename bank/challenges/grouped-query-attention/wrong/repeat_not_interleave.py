# expect: Wrong Answer
# repeat tiles [kv0, kv1, kv0, kv1] instead of grouping [kv0, kv0, kv1, kv1]
import math

import torch


def grouped_query_attention(q, k, v, causal=False):
    B, Hq, L, D = q.shape
    Hkv, S = k.shape[1], k.shape[2]
    assert Hq % Hkv == 0
    group = Hq // Hkv
    k = k.repeat(1, group, 1, 1)  # tiles the kv heads: query head h reads kv head h % Hkv
    v = v.repeat(1, group, 1, 1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, Hq, L, S)
    if causal:
        future = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(diagonal=1)  # key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    return scores.softmax(dim=-1) @ v
