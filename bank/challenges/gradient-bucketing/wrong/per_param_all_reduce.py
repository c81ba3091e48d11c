# expect: Wrong Answer

def assign_buckets(named_params, bucket_cap_bytes):
    buckets, cur, cur_bytes = [], [], 0
    for name, p in reversed(named_params):  # backward produces gradients roughly in reverse order
        if not p.requires_grad:
            continue
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
        for n in names:  # no flat buffer: one collective per parameter (what bucketing exists to avoid)
            out[n] = all_reduce([g[n].reshape(-1) for g in rank_grads]).view(shapes[n]) / world
    return buckets, out
