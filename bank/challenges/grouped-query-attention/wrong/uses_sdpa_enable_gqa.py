# expect: Rule Violation
import torch.nn.functional as F


def grouped_query_attention(q, k, v, causal=False):
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
