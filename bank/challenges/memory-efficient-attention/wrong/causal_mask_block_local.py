# expect: Wrong Answer
import torch


def memory_efficient_attention(q, k, v, block_size, is_causal=False):
    L, S, D = q.size(-2), k.size(-2), q.size(-1)
    scale = D ** -0.5
    m = q.new_full((*q.shape[:-1], 1), float("-inf"))  # running max per query row
    l = q.new_zeros((*q.shape[:-1], 1))  # running sum of exp(score - m)
    acc = q.new_zeros((*q.shape[:-1], v.size(-1)))  # running sum of exp(score - m) * v
    rows = torch.arange(L, device=q.device)[:, None]
    for start in range(0, S, block_size):
        kb, vb = k[..., start:start + block_size, :], v[..., start:start + block_size, :]
        s = (q @ kb.transpose(-2, -1)) * scale  # (B, H, L, block)
        if is_causal:
            cols = torch.arange(kb.size(-2), device=q.device)[None, :]  # block-local key index: forgot + start
            s = s.masked_fill(cols > rows, float("-inf"))  # (L, block) mask, never (L, S)
        m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True)).detach()  # the shift is only for stability
        alpha = torch.exp(m - m_new)  # rescales what was accumulated relative to the old max
        p = torch.exp(s - m_new)
        l = l * alpha + p.sum(dim=-1, keepdim=True)
        acc = acc * alpha + p @ vb
        m = m_new
    return acc / l
