# expect: Wrong Answer
import torch


def ring_all_reduce(tensors, send):
    # the right numbers without the ring: nothing goes through send(), counts from the formula
    w = len(tensors)
    total = torch.stack(list(tensors)).sum(0)
    n = total.numel()
    base, extra = divmod(n, w)
    size = [base + (1 if c < extra else 0) for c in range(w)]
    return [total.clone() for _ in range(w)], [2 * n - size[(r + 1) % w] - size[(r + 2) % w] for r in range(w)] \
        if w > 1 else [0]
