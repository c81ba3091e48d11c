# expect: Wrong Answer
import math

import torch


def switch_moe(x, router_weight, expert_weight, capacity_factor):
    # keeps each expert's most confident tokens (batch-priority routing), not the first ones in token order
    N, E = x.shape[0], router_weight.shape[0]
    capacity = math.ceil(capacity_factor * N / E)
    probs = torch.softmax(x @ router_weight.T, dim=-1)
    gate, choice = probs.max(dim=-1)
    kept = torch.zeros(N, dtype=torch.bool)
    y = torch.zeros_like(x)
    for e in range(E):
        idx = (choice == e).nonzero(as_tuple=True)[0]
        idx = idx[gate[idx].argsort(descending=True)][:capacity]
        kept[idx] = True
        if idx.numel():
            y = y.index_add(0, idx, gate[idx, None] * (x[idx] @ expert_weight[e]))
    f = torch.nn.functional.one_hot(choice, E).to(x.dtype).mean(dim=0)
    aux = E * (f * probs.mean(dim=0)).sum()
    return y, aux, torch.where(kept, choice, torch.full_like(choice, -1))
