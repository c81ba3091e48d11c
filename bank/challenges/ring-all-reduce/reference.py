def chunk_bounds(n, w):
    """[lo, hi) of chunk c: the first n % w chunks hold one extra element (torch.tensor_split's rule)."""
    base, extra = divmod(n, w)
    bounds, lo = [], 0
    for c in range(w):
        hi = lo + base + (1 if c < extra else 0)
        bounds.append((lo, hi))
        lo = hi
    return bounds


def ring_all_reduce(tensors, send):
    w = len(tensors)
    shape = tensors[0].shape
    bufs = [t.reshape(-1).clone() for t in tensors]  # never touch the caller's tensors
    bounds = chunk_bounds(bufs[0].numel(), w)
    sent = [0] * w
    for phase in ("reduce-scatter", "all-gather"):
        for s in range(w - 1):
            arrivals = []  # all ranks send at once: deliver after everyone has sent
            for r in range(w):
                c = (r - s) % w if phase == "reduce-scatter" else (r + 1 - s) % w
                lo, hi = bounds[c]
                arrivals.append(((r + 1) % w, lo, hi, send(r, (r + 1) % w, bufs[r][lo:hi])))
                sent[r] += hi - lo
            for dst, lo, hi, data in arrivals:
                if phase == "reduce-scatter":
                    bufs[dst][lo:hi] += data
                else:
                    bufs[dst][lo:hi] = data
    return [b.reshape(shape) for b in bufs], sent
