# expect: Runtime Error
import torch


def chunk_attention(q, k, v, scale):
    s = (q.unsqueeze(-2) @ k.transpose(-2, -1)).squeeze(-2) * scale
    m = s.amax(dim=-1, keepdim=True)  # fails on an empty chunk: max of nothing
    p = torch.exp(s - m)
    lse = (m + p.sum(dim=-1, keepdim=True).log()).squeeze(-1)
    out = ((p / p.sum(dim=-1, keepdim=True)).unsqueeze(-2) @ v).squeeze(-2)
    return out, lse


def merge_partials(outs, lses):
    lse = torch.logsumexp(lses, dim=0)
    w = torch.exp(lses - lse)
    return (w.unsqueeze(-1) * outs).sum(dim=0), lse


def split_kv_attention(q, k, v, num_splits, scale=None):
    if scale is None:
        scale = q.size(-1) ** -0.5
    S = k.size(-2)
    c = -(-S // num_splits)
    outs, lses = [], []
    for i in range(num_splits):
        a, b = min(i * c, S), min((i + 1) * c, S)
        o, lse_c = chunk_attention(q, k[..., a:b, :], v[..., a:b, :], scale)
        outs.append(o)
        lses.append(lse_c)
    return merge_partials(torch.stack(outs), torch.stack(lses))
