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
        # every mask treated as a keep-mask: a float bias is only used for where it is -inf
        att = att.masked_fill(~attn_mask.bool() if attn_mask.dtype == torch.bool else attn_mask == float("-inf"),
                              float("-inf"))
    return torch.softmax(att, dim=-1) @ v
