# expect: Rule Violation
import torch.nn.functional as F


def embedding_bag(input, weight, offsets, mode="mean"):
    return F.embedding_bag(input, weight, offsets, mode=mode)
