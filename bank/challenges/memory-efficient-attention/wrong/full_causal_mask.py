# expect: Rule Violation
import torch


def memory_efficient_attention(q, k, v, block_size, is_causal=False):
    L, S, D = q.size(-2), k.size(-2), q.size(-1)
    m = q.new_full((*q.shape[:-1], 1), float("-inf"))
    l = q.new_zeros((*q.shape[:-1], 1))
    acc = q.new_zeros((*q.shape[:-1], v.size(-1)))
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool).tril()  # a full L x S mask, sliced per block
    for start in range(0, S, block_size):
        kb, vb = k[..., start:start + block_size, :], v[..., start:start + block_size, :]
        s = (q @ kb.transpose(-2, -1)) * D ** -0.5
        if is_causal:
            s = s.masked_fill(~keep[:, start:start + block_size], float("-inf"))
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True)).detach()
        alpha = torch.exp(m - m_new)
        p = torch.exp(s - m_new)
        l = l * alpha + p.sum(dim=-1, keepdim=True)
        acc = acc * alpha + p @ vb
        m = m_new
    return acc / l
