# expect: Rule Violation
def window_max(x, k):
    return x.unfold(0, k, 1).amax(dim=1)
