# expect: Rule Violation
import torch.nn.functional as F


def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal, scale=scale)
