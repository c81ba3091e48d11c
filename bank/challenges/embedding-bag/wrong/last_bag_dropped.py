# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    starts = offsets.tolist()
    bags = []
    # pairs consecutive offsets (include_last_offset=True semantics): the last bag is never built
    for s, e in zip(starts[:-1], starts[1:]):
        rows = weight[input[s:e]]
        if e == s:
            bags.append(weight.new_zeros(weight.shape[1]))
        elif mode == "sum":
            bags.append(rows.sum(dim=0))
        elif mode == "mean":
            bags.append(rows.mean(dim=0))
        else:
            bags.append(rows.max(dim=0).values)
    return torch.stack(bags) if bags else weight.new_zeros(0, weight.shape[1])
