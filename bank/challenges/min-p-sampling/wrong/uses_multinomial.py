# expect: Rule Violation
import torch


def sample(logits, u, temperature=1.0, top_k=0, min_p=0.0):
    logits = logits / temperature
    if top_k > 0:
        kth = logits.topk(min(top_k, logits.shape[-1]), dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(dim=-1)
    if min_p > 0.0:
        probs = probs.masked_fill(probs < min_p * probs.amax(dim=-1, keepdim=True), 0.0)
        probs = probs / probs.sum(dim=-1, keepdim=True)
    return torch.multinomial(probs, 1).squeeze(-1), probs
