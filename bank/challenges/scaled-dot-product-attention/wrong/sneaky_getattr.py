# expect: Rule Violation
import torch


def scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=False, scale=None):
    fn = getattr(torch.nn.functional, "scaled_dot_product" + "_attention")
    return fn(q, k, v, attn_mask=attn_mask, is_causal=is_causal, scale=scale)
