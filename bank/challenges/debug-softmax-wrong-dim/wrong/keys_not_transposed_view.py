# expect: Wrong Answer
import math

import torch.nn.functional as F


def predict_proba(logits):
    return F.softmax(logits, dim=-1)


def attention(q, k, v):
    # "fixes" the shapes by reshaping k instead of transposing it: right shape, wrong numbers
    kt = k.reshape(*k.shape[:-2], k.shape[-1], k.shape[-2])
    weights = F.softmax(q @ kt / math.sqrt(q.shape[-1]), dim=-1)
    return weights @ v, weights
