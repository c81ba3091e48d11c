# expect: Runtime Error
# an in-place softmax overwrites the tensor exp_ saved for backward: backward raises
import math

import torch


def grouped_query_attention(q, k, v, causal=False):
    B, Hq, L, D = q.shape
    Hkv, S = k.shape[1], k.shape[2]
    assert Hq % Hkv == 0
    group = Hq // Hkv
    k = k.repeat_interleave(group, dim=1)  # query head h reads kv head h // group: (B, Hq, S, D)
    v = v.repeat_interleave(group, dim=1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(D)  # (B, Hq, L, S)
    if causal:
        future = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(diagonal=1)  # key j > query i
        scores = scores.masked_fill(future, float("-inf"))
    scores = scores - scores.amax(dim=-1, keepdim=True)
    scores.exp_()  # in place to save memory: exp saves its output for backward
    scores /= scores.sum(dim=-1, keepdim=True)  # ... which this overwrites
    return scores @ v
