# expect: Wrong Answer
import torch


def sample(logits, u, temperature=1.0, top_k=0, top_p=1.0):
    logits = logits / temperature
    if top_k > 0:
        kth = logits.topk(min(top_k, logits.shape[-1]), dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(dim=-1)
    if top_p < 1.0:
        sorted_p, order = probs.sort(dim=-1, descending=True, stable=True)
        before = sorted_p.cumsum(dim=-1) - sorted_p  # mass strictly before each token
        drop_sorted = before >= top_p  # once the threshold is reached, drop the rest
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        probs = probs.masked_fill(drop, 0.0)  # filtered but not renormalised
    cdf = probs.cumsum(dim=-1)
    tokens = (cdf <= u[:, None]).sum(dim=-1).clamp(max=probs.shape[-1] - 1)
    return tokens, probs
