# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    n_bags = offsets.numel()
    bag_id = torch.bucketize(torch.arange(input.numel()), offsets, right=True) - 1
    rows = weight[input]
    idx = bag_id[:, None].expand_as(rows)
    if mode == "max":
        out = torch.full((n_bags, weight.shape[1]), float("-inf"), dtype=weight.dtype)
        return out.scatter_reduce(0, idx, rows, "amax")  # an empty bag keeps the -inf it started with
    out = weight.new_zeros(n_bags, weight.shape[1]).index_add(0, bag_id, rows)
    if mode == "mean":
        counts = torch.bincount(bag_id, minlength=n_bags).clamp(min=1).to(weight.dtype)
        out = out / counts[:, None]
    return out
