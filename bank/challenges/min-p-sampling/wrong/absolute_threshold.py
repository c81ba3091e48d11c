# expect: Wrong Answer
# uses min_p as an absolute probability threshold (like epsilon sampling) instead of min_p * p_max


def sample(logits, u, temperature=1.0, top_k=0, min_p=0.0):
    logits = logits / temperature  # 1. temperature first: min-p must see the tempered distribution
    if top_k > 0:  # 2. top-k on the tempered logits, ties with the k-th largest kept
        kth = logits.topk(min(top_k, logits.shape[-1]), dim=-1).values[:, -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = logits.softmax(dim=-1)
    if min_p > 0.0:  # 3. min-p: the threshold scales with this row's most likely token
        probs = probs.masked_fill(probs < min_p, 0.0)  # not scaled by p_max
        probs = probs / probs.sum(dim=-1, keepdim=True)  # 4. renormalise
    cdf = probs.cumsum(dim=-1)  # 5. inverse CDF in index order
    tokens = (cdf <= u[:, None]).sum(dim=-1).clamp(max=probs.shape[-1] - 1)
    return tokens, probs
