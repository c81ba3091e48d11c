# expect: Wrong Answer
import torch


def segment_reduce(values, segment_ids, num_segments):
    d = values.shape[1]
    zero = values.new_zeros(d)
    ids, counts = torch.unique_consecutive(segment_ids, return_counts=True)  # groups runs: only right if sorted
    sums, means, maxes = [zero] * num_segments, [zero] * num_segments, [zero] * num_segments
    for seg, block in zip(ids.tolist(), torch.split(values, counts.tolist()), strict=True):
        sums[seg] = block.sum(0)
        means[seg] = block.mean(0)
        maxes[seg] = block.amax(0)
    return torch.stack(sums), torch.stack(means), torch.stack(maxes)
