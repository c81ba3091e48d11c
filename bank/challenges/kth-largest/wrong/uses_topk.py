# expect: Rule Violation
def kth_largest(x, k):
    return x.topk(k, dim=1).values[:, -1]
