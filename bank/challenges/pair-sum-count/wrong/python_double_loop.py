# expect: Time Limit Exceeded
def count_pairs(x, target):
    v = x.tolist()
    return sum(1 for i in range(len(v)) for j in range(i + 1, len(v)) if v[i] + v[j] == target)
