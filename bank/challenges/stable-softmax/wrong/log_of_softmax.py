# expect: Wrong Answer
import torch


def softmax(x, dim=-1):
    m = x.amax(dim=dim, keepdim=True)
    e = (x - m).exp()
    return e / e.sum(dim=dim, keepdim=True)


def log_softmax(x, dim=-1):
    return softmax(x, dim).log()  # underflows to -inf for very negative logits
