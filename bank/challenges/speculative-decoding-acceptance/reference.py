import torch


def _inverse_cdf(weights, u):
    """Smallest index j with cumsum(weights / weights.sum())[j] > u."""
    cdf = weights.cumsum(dim=-1) / weights.sum()
    return int((cdf <= u).sum().clamp(max=weights.shape[-1] - 1))


def speculative_accept(draft_tokens, q, p, u_accept, u_sample):
    B, K = draft_tokens.shape
    idx = draft_tokens.unsqueeze(-1)
    ratio = p[:, :K].gather(-1, idx).squeeze(-1) / q.gather(-1, idx).squeeze(-1)  # p_i(x_i) / q_i(x_i)
    accept = u_accept < ratio.clamp(max=1.0)
    n_accepted = accept.long().cumprod(dim=1).sum(dim=1)  # length of the accepted prefix: stop at the first rejection
    tokens = torch.full((B, K + 1), -1, dtype=torch.long)
    for b in range(B):
        n = int(n_accepted[b])
        tokens[b, :n] = draft_tokens[b, :n]
        if n < K:  # rejected at position n: resample from the residual max(0, p - q), renormalised
            tokens[b, n] = _inverse_cdf((p[b, n] - q[b, n]).clamp(min=0.0), u_sample[b])
        else:  # every draft token accepted: a bonus token from the target's extra distribution
            tokens[b, n] = _inverse_cdf(p[b, K], u_sample[b])
    return tokens, n_accepted
