# expect: Wrong Answer
import torch


def sample(logits, u, temperature=1.0, top_k=0, top_p=1.0):
    if top_k > 0:
        kth = logits.topk(min(top_k, logits.shape[-1]), dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(dim=-1)  # nucleus chosen on the untempered distribution
    if top_p < 1.0:
        sorted_p, order = probs.sort(dim=-1, descending=True, stable=True)
        before = sorted_p.cumsum(dim=-1) - sorted_p  # mass strictly before each token
        drop_sorted = before >= top_p  # once the threshold is reached, drop the rest
        drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)
        probs = (logits / temperature).softmax(dim=-1).masked_fill(drop, 0.0)
        probs = probs / probs.sum(dim=-1, keepdim=True)
    else:
        probs = (logits / temperature).softmax(dim=-1)
    cdf = probs.cumsum(dim=-1)
    tokens = (cdf <= u[:, None]).sum(dim=-1).clamp(max=probs.shape[-1] - 1)
    return tokens, probs
