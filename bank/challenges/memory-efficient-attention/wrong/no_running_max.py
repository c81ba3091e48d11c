# expect: Wrong Answer
import torch


def memory_efficient_attention(q, k, v, block_size, is_causal=False):
    L, S, D = q.size(-2), k.size(-2), q.size(-1)
    l = q.new_zeros((*q.shape[:-1], 1))
    acc = q.new_zeros((*q.shape[:-1], v.size(-1)))
    rows = torch.arange(L)[:, None]
    for start in range(0, S, block_size):
        kb, vb = k[..., start:start + block_size, :], v[..., start:start + block_size, :]
        s = (q @ kb.transpose(-2, -1)) * D ** -0.5
        if is_causal:
            s = s.masked_fill(torch.arange(start, start + kb.size(-2))[None, :] > rows, float("-inf"))
        p = torch.exp(s)  # no max subtraction: overflows for large scores
        l = l + p.sum(dim=-1, keepdim=True)
        acc = acc + p @ vb
    return acc / l
