# expect: Rule Violation
import torch


def memory_efficient_attention(q, k, v, block_size, is_causal=False):
    L, S = q.size(-2), k.size(-2)
    att = (q @ k.transpose(-2, -1)) * q.size(-1) ** -0.5  # the whole (B, H, L, S) score matrix
    if is_causal:
        att = att.masked_fill(torch.ones(L, S, dtype=torch.bool).tril().logical_not(), float("-inf"))
    return torch.softmax(att, dim=-1) @ v
