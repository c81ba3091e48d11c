# expect: Rule Violation
import torch


def speculative_accept(draft_tokens, q, p, u_accept, u_sample):
    B, K = draft_tokens.shape
    idx = draft_tokens.unsqueeze(-1)
    ratio = p[:, :K].gather(-1, idx).squeeze(-1) / q.gather(-1, idx).squeeze(-1)
    n_accepted = (u_accept < ratio.clamp(max=1.0)).long().cumprod(dim=1).sum(dim=1)
    tokens = torch.full((B, K + 1), -1, dtype=torch.long)
    for b in range(B):
        n = int(n_accepted[b])
        tokens[b, :n] = draft_tokens[b, :n]
        w = (p[b, n] - q[b, n]).clamp(min=0.0) if n < K else p[b, K]
        tokens[b, n] = torch.multinomial(w / w.sum(), 1).item()
    return tokens, n_accepted
