# expect: Wrong Answer
from collections import deque

import torch


def window_max(x, k):
    v = x.tolist()
    dq, out = deque(), []
    for i, a in enumerate(v):
        while dq and v[dq[-1]] <= a:
            dq.pop()
        dq.append(i)
        if dq[0] < i - k:  # off by one: index i - k has already left the window
            dq.popleft()
        if i >= k - 1:
            out.append(v[dq[0]])
    return torch.tensor(out, dtype=x.dtype)
