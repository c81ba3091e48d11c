# expect: Wrong Answer
import torch


def embedding_bag(input, weight, offsets, mode="mean"):
    n_bags = offsets.numel()
    # right=False puts an index that equals an offset into the PREVIOUS bag (and index 0 into bag -1)
    bag_id = (torch.bucketize(torch.arange(input.numel()), offsets, right=False) - 1).clamp(min=0)
    rows = weight[input]
    if mode == "max":
        out = torch.full((n_bags, weight.shape[1]), float("-inf"), dtype=weight.dtype)
        out = out.scatter_reduce(0, bag_id[:, None].expand_as(rows), rows, "amax")
        return torch.where(torch.isinf(out), torch.zeros_like(out), out)
    out = weight.new_zeros(n_bags, weight.shape[1]).index_add(0, bag_id, rows)
    if mode == "mean":
        counts = torch.bincount(bag_id, minlength=n_bags).clamp(min=1).to(weight.dtype)
        out = out / counts[:, None]
    return out
