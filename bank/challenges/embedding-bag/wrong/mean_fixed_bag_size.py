# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    n_bags = offsets.numel()
    bag_id = torch.bucketize(torch.arange(input.numel()), offsets, right=True) - 1
    rows = weight[input]
    if mode == "max":
        out = torch.full((n_bags, weight.shape[1]), float("-inf"), dtype=weight.dtype)
        out = out.scatter_reduce(0, bag_id[:, None].expand_as(rows), rows, "amax")
        return torch.where(torch.isinf(out), torch.zeros_like(out), out)
    out = weight.new_zeros(n_bags, weight.shape[1]).index_add(0, bag_id, rows)
    if mode == "mean":
        out = out / max(input.numel() // n_bags, 1)  # assumes every bag has the same size
    return out
