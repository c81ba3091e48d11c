# expect: Wrong Answer
import torch


def chunk_attention(q, k, v, scale):
    if k.size(-2) == 0:
        return v.new_zeros(*q.shape[:-1], v.size(-1)), q.new_full(q.shape[:-1], float("-inf"))
    s = (q.unsqueeze(-2) @ k.transpose(-2, -1)).squeeze(-2) * scale
    lse = torch.logsumexp(s, dim=-1)
    out = (torch.softmax(s, dim=-1).unsqueeze(-2) @ v).squeeze(-2)
    return out, lse


def merge_partials(outs, lses):
    lse = torch.logsumexp(lses, dim=0)
    w = torch.exp(lses - lses.amax(dim=0))  # shifted by the max but never divided by the total
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
