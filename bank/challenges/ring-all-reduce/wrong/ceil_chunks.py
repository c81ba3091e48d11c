# expect: Wrong Answer
import math


def ring_all_reduce(tensors, send):
    # chunks of ceil(N / W) with a short last one (like torch.chunk): not the stated split
    w = len(tensors)
    shape = tensors[0].shape
    bufs = [t.reshape(-1).clone() for t in tensors]
    n = bufs[0].numel()
    size = math.ceil(n / w)
    bounds = [(min(c * size, n), min((c + 1) * size, n)) for c in range(w)]
    sent = [0] * w
    for s in range(w - 1):
        got = []
        for r in range(w):
            lo, hi = bounds[(r - s) % w]
            got.append(((r + 1) % w, lo, hi, send(r, (r + 1) % w, bufs[r][lo:hi])))
            sent[r] += hi - lo
        for dst, lo, hi, data in got:
            bufs[dst][lo:hi] += data
    for s in range(w - 1):
        got = []
        for r in range(w):
            lo, hi = bounds[(r + 1 - s) % w]
            got.append(((r + 1) % w, lo, hi, send(r, (r + 1) % w, bufs[r][lo:hi])))
            sent[r] += hi - lo
        for dst, lo, hi, data in got:
            bufs[dst][lo:hi] = data
    return [b.reshape(shape) for b in bufs], sent
