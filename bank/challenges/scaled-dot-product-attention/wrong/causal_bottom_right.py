# expect: Wrong Answer
import math

import torch


def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None):
    L, S = q.size(-2), k.size(-2)
    scale = 1.0 / math.sqrt(q.size(-1)) if scale is None else scale
    att = (q @ k.transpose(-2, -1)) * scale
    if is_causal:
        # aligned to the bottom-right corner (the decoding convention), not PyTorch's top-left
        att = att.masked_fill(torch.ones(L, S, dtype=torch.bool).triu(S - L + 1), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            att = att.masked_fill(~attn_mask, float("-inf"))
        else:
            att = att + attn_mask
    return torch.softmax(att, dim=-1) @ v
