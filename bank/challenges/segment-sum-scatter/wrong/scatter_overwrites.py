# expect: Wrong Answer
import torch


def segment_reduce(values, segment_ids, num_segments):
    n, d = values.shape
    idx = segment_ids[:, None].expand(n, d)
    zeros = values.new_zeros(num_segments, d)
    seg_sum = zeros.scatter(0, idx, values)  # scatter, not scatter_add: the last row of a segment wins
    count = torch.bincount(segment_ids, minlength=num_segments).to(values.dtype)[:, None]
    seg_mean = seg_sum / count.clamp_min(1)                                          # empty -> 0 / 1 = 0
    seg_max = zeros.scatter_reduce(0, idx, values, reduce="amax", include_self=False)  # empty rows keep the 0
    return seg_sum, seg_mean, seg_max
