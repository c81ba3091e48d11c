# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    starts = offsets.tolist()
    ends = starts[1:] + [input.numel() - 1]  # off by one: drops the last index of the last bag
    bags = []
    for s, e in zip(starts, ends):
        rows = weight[input[s:e]]
        if e <= s:
            bags.append(weight.new_zeros(weight.shape[1]))
        elif mode == "sum":
            bags.append(rows.sum(dim=0))
        elif mode == "mean":
            bags.append(rows.mean(dim=0))
        else:
            bags.append(rows.max(dim=0).values)
    return torch.stack(bags)
