# expect: Rule Violation
import torch
import torch.nn.functional as F


def chunk_attention(q, k, v, scale):
    if k.size(-2) == 0:
        return v.new_zeros(*q.shape[:-1], v.size(-1)), q.new_full(q.shape[:-1], float("-inf"))
    out = F.scaled_dot_product_attention(q.unsqueeze(-2), k, v, scale=scale).squeeze(-2)
    lse = torch.logsumexp((q.unsqueeze(-2) @ k.transpose(-2, -1)).squeeze(-2) * scale, dim=-1)
    return out, lse


def merge_partials(outs, lses):
    lse = torch.logsumexp(lses, dim=0)
    return (torch.exp(lses - lse).unsqueeze(-1) * outs).sum(dim=0), lse


def split_kv_attention(q, k, v, num_splits, scale=None):
    scale = q.size(-1) ** -0.5 if scale is None else scale
    S = k.size(-2)
    c = -(-S // num_splits)
    parts = [chunk_attention(q, k[..., min(i * c, S):min(i * c + c, S), :], v[..., min(i * c, S):min(i * c + c, S), :],
                             scale) for i in range(num_splits)]
    return merge_partials(torch.stack([p[0] for p in parts]), torch.stack([p[1] for p in parts]))
