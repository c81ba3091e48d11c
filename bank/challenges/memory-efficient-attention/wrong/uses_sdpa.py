# expect: Rule Violation
import torch.nn.functional as F


def memory_efficient_attention(q, k, v, block_size, is_causal=False):
    return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
