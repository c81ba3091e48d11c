# expect: Rule Violation
import torch


def segment_reduce(values, segment_ids, num_segments):
    order = torch.argsort(segment_ids, stable=True)
    lengths = torch.bincount(segment_ids, minlength=num_segments)
    v = values[order]
    s = torch.segment_reduce(v, "sum", lengths=lengths, unsafe=True)
    m = torch.segment_reduce(v, "mean", lengths=lengths, unsafe=True, initial=0.0)
    mx = torch.segment_reduce(v, "max", lengths=lengths, unsafe=True, initial=0.0)
    return s, m, mx
