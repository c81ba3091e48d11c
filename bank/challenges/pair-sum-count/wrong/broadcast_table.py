# expect: Rule Violation
import torch


def count_pairs(x, target):
    table = x[:, None] + x[None, :]
    return int(torch.triu(table == target, diagonal=1).sum())
