# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    starts = offsets.tolist()
    ends = starts[1:] + [input.numel()]
    bags = []
    for s, e in zip(starts, ends):
        rows = weight[input[s:e]]
        if mode == "sum":
            bags.append(rows.sum(dim=0))
        elif mode == "mean":
            bags.append(rows.mean(dim=0))  # 0 / 0 = NaN for an empty bag
        else:
            bags.append(rows.max(dim=0).values if e > s else weight.new_zeros(weight.shape[1]))
    return torch.stack(bags)
