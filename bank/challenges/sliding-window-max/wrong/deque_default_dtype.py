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
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            out.append(v[dq[0]])
    return torch.tensor(out)  # Python floats become torch's default dtype (float32), not x's dtype
