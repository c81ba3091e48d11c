# expect: Wrong Answer
import math


def _softmax(x):
    e = x.exp()  # no max-subtraction: exp(800) overflows to inf, inf / inf = NaN
    return e / e.sum(dim=-1, keepdim=True)


def predict_proba(logits):
    return _softmax(logits)


def attention(q, k, v):
    weights = _softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]))
    return weights @ v, weights
