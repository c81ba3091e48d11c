import torch


def chunk_attention(q, k, v, scale):
    if k.size(-2) == 0:  # an empty split contributes nothing: weight exp(-inf - lse) = 0
        return v.new_zeros(*q.shape[:-1], v.size(-1)), q.new_full(q.shape[:-1], float("-inf"))
    s = (q.unsqueeze(-2) @ k.transpose(-2, -1)).squeeze(-2) * scale  # (..., S_chunk)
    m = s.amax(dim=-1, keepdim=True).detach()  # the shift is only for stability
    p = torch.exp(s - m)
    denom = p.sum(dim=-1, keepdim=True)
    out = ((p / denom).unsqueeze(-2) @ v).squeeze(-2)  # (..., Dv)
    return out, (m + denom.log()).squeeze(-1)


def merge_partials(outs, lses):
    m = lses.amax(dim=0).detach()  # finite: at least one partial is non-empty
    w = torch.exp(lses - m)  # (P, ...): exp(lse_i - m), 0 for empty partials
    tot = w.sum(dim=0)
    lse = m + tot.log()
    out = (w.unsqueeze(-1) * outs).sum(dim=0) / tot.unsqueeze(-1)  # sum_i exp(lse_i - lse) * out_i
    return out, lse


def split_kv_attention(q, k, v, num_splits, scale=None):
    if scale is None:
        scale = q.size(-1) ** -0.5  # head dim of the queries/keys, not of the values
    S = k.size(-2)
    size = -(-S // num_splits)  # ceil: the last splits may be short or empty
    outs, lses = [], []
    for i in range(num_splits):
        a, b = min(i * size, S), min((i + 1) * size, S)
        o, lse_c = chunk_attention(q, k[..., a:b, :], v[..., a:b, :], scale)
        outs.append(o)
        lses.append(lse_c)
    return merge_partials(torch.stack(outs), torch.stack(lses))
