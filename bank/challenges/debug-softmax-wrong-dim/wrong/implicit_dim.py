# expect: Wrong Answer
import math

import torch.nn.functional as F


def predict_proba(logits):
    return F.softmax(logits)  # no dim: PyTorch guesses dim=1 for 2-D input, dim=0 for 3-D (deprecated)


def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = F.softmax(scores)  # 3-D scores: the implicit choice is dim=0, the batch again
    return weights @ v, weights
