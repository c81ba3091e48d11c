# expect: Rule Violation
import torch.nn.functional as F


def dropout(x, p=0.5, training=True):
    return F.dropout(x, p, training)
