# expect: Runtime Error
import torch


def assign_buckets(named_params, bucket_cap_bytes):
    buckets, cur, cur_bytes = [], [], 0
    for name, p in reversed(named_params):  # backward produces gradients roughly in reverse order
        nbytes = p.numel() * p.element_size()
        if cur and cur_bytes + nbytes > bucket_cap_bytes:  # would overflow: close the open bucket first
            buckets.append(cur)
            cur, cur_bytes = [], 0
        cur.append(name)
        cur_bytes += nbytes
    if cur:
        buckets.append(cur)
    return buckets


def bucketed_all_reduce(named_params, rank_grads, bucket_cap_bytes, all_reduce):
    world = len(rank_grads)
    shapes = {name: p.shape for name, p in named_params}
    buckets = assign_buckets(named_params, bucket_cap_bytes)
    out = {}
    for names in buckets:
        flat = [torch.cat([g[n].reshape(-1) for n in names]) for g in rank_grads]  # one buffer per rank
        avg = all_reduce(flat) / world  # all_reduce sums
        offset = 0
        for n in names:  # unflatten in the same order the buffer was packed
            k = shapes[n].numel()
            out[n] = avg[offset:offset + k].view(shapes[n]).clone()
            offset += k
    return buckets, out
