# expect: Wrong Answer
import math

import torch


def switch_moe(x, router_weight, expert_weight, capacity_factor):
    N, E = x.shape[0], router_weight.shape[0]
    capacity = math.ceil(capacity_factor * N / E)
    probs = torch.softmax(x @ router_weight.T, dim=-1)  # (N, E)
    gate, choice = probs.max(dim=-1)  # top-1: gate keeps its gradient, choice is an index
    onehot = torch.nn.functional.one_hot(choice, E)  # (N, E)
    position = ((onehot.cumsum(dim=0) - 1) * onehot).sum(dim=-1)  # 0-based place in its expert's queue
    kept = position <= capacity  # off by one: <= keeps capacity + 1 tokens
    # the first `capacity` tokens (in token order) of each expert are kept
    y = torch.zeros_like(x)
    for e in range(E):
        idx = (kept & (choice == e)).nonzero(as_tuple=True)[0]
        if idx.numel():
            y = y.index_add(0, idx, gate[idx, None] * (x[idx] @ expert_weight[e]))  # dropped rows stay 0
    f = onehot.to(x.dtype).mean(dim=0)  # fraction routed to each expert, before dropping: a count, no grad
    P = probs.mean(dim=0)
    aux = E * (f * P).sum()
    index = torch.where(kept, choice, torch.full_like(choice, -1))
    return y, aux, index
