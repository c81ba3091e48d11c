# expect: Wrong Answer
import torch


def kth_largest(x, k):
    # candidate v is the answer when (#greater < k <= #greater-or-equal); counted over the
    # whole tensor instead of per row (sum without dim): right only for a single row
    out = []
    for row in x:
        ans = row[0]
        for v in row:
            greater = (x > v).sum()
            geq = (x >= v).sum()
            if greater < k <= geq:
                ans = v
                break
        out.append(ans)
    return torch.stack(out)
