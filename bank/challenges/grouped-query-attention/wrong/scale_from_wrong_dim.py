# expect: Wrong Answer
# scales by sqrt of the key length (k.size(-2)) instead of the head dim (k.size(-1))
import math

import torch


def grouped_query_attention(q, k, v, causal=False):
    B, Hq, L, D = q.shape
    Hkv, S = k.shape[1], k.shape[2]
    assert Hq % Hkv == 0
    group = Hq // Hkv
    k = k.repeat_interleave(group, dim=1)  # query head h reads kv head h // group: (B, Hq, S, D)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(S)  # k.size(-2): sequence length, not head dim  # (B, Hq, L, S)
    if causal:
        future = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(diagonal=1)  # key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    return scores.softmax(dim=-1) @ v
