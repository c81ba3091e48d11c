# expect: Wrong Answer
import math

import torch


def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None):
    L, S = q.size(-2), k.size(-2)
    scale = 1.0 / math.sqrt(q.size(-1)) if scale is None else scale
    att = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=q.device).tril()
        att = att.masked_fill(~keep, float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            att = att.masked_fill(~attn_mask, float("-inf"))
        else:
            att = att + attn_mask
    e = att.exp()  # hand-written softmax without subtracting the row max: overflows on large scores
    return (e / e.sum(dim=-1, keepdim=True)) @ v
