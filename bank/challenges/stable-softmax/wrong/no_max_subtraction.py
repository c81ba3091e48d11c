# expect: Wrong Answer
import torch


def softmax(x, dim=-1):
    e = x.exp()
    return e / e.sum(dim=dim, keepdim=True)


def log_softmax(x, dim=-1):
    return x - x.exp().sum(dim=dim, keepdim=True).log()
