# expect: Rule Violation
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def assign_buckets(named_params, bucket_cap_bytes):
    buckets, cur, cur_bytes = [], [], 0
    for name, p in reversed(named_params):
        if not p.requires_grad:
            continue
        nbytes = p.numel() * p.element_size()
        if cur and cur_bytes + nbytes > bucket_cap_bytes:
            buckets.append(cur)
            cur, cur_bytes = [], 0
        cur.append(name)
        cur_bytes += nbytes
    if cur:
        buckets.append(cur)
    return buckets


def bucketed_all_reduce(named_params, rank_grads, bucket_cap_bytes, all_reduce):
    buckets = assign_buckets(named_params, bucket_cap_bytes)
    out = {}
    for names in buckets:
        avg = all_reduce([_flatten_dense_tensors([g[n] for n in names]) for g in rank_grads]) / len(rank_grads)
        for n, t in zip(names, _unflatten_dense_tensors(avg, [rank_grads[0][n] for n in names]), strict=True):
            out[n] = t
    return buckets, out
