import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    starts = offsets.tolist()
    ends = starts[1:] + [input.numel()]  # the last bag runs to the end of input
    bags = []
    for s, e in zip(starts, ends):
        rows = weight[input[s:e]]  # (bag size, D)
        if e == s:
            bags.append(weight.new_zeros(weight.shape[1]))  # empty bag -> zeros
        elif mode == "sum":
            bags.append(rows.sum(dim=0))
        elif mode == "mean":
            bags.append(rows.mean(dim=0))
        elif mode == "max":
            bags.append(rows.max(dim=0).values)
        else:
            raise ValueError(f"unknown mode {mode!r}")
    return torch.stack(bags)
