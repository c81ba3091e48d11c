# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    # treats offsets as bag LENGTHS (like a lengths tensor) and accumulates them into starts
    lengths = offsets.tolist()
    bags, s = [], 0
    for n in lengths:
        e = min(s + n, input.numel())
        rows = weight[input[s:e]]
        if e == s:
            bags.append(weight.new_zeros(weight.shape[1]))
        elif mode == "sum":
            bags.append(rows.sum(dim=0))
        elif mode == "mean":
            bags.append(rows.mean(dim=0))
        else:
            bags.append(rows.max(dim=0).values)
        s = e
    return torch.stack(bags)
