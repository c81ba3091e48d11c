# expect: Wrong Answer
# maps query head h to kv head h // Hkv instead of h // (Hq / Hkv): right only when Hkv == Hq / Hkv
import math

import torch


def grouped_query_attention(q, k, v, causal=False):
    B, Hq, L, D = q.shape
    Hkv, S = k.shape[1], k.shape[2]
    assert Hq % Hkv == 0
    idx = torch.arange(Hq, device=q.device) // Hkv  # should be // group (Hq // Hkv)
    k, v = k[:, idx], v[:, idx]
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, Hq, L, S)
    if causal:
        future = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(diagonal=1)  # key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    return scores.softmax(dim=-1) @ v
