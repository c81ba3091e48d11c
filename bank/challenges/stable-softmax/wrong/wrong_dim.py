# expect: Wrong Answer
import torch


def softmax(x, dim=-1):
    m = x.amax(dim=-1, keepdim=True)
    e = (x - m).exp()
    return e / e.sum(dim=-1, keepdim=True)


def log_softmax(x, dim=-1):
    m = x.amax(dim=-1, keepdim=True)
    s = x - m
    return s - s.exp().sum(dim=-1, keepdim=True).log()
