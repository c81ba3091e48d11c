# expect: Wrong Answer
import math

import torch.nn.functional as F


def predict_proba(logits):
    return F.softmax(logits, dim=1)  # right for (N, C) only; (N, L, C) normalises over tokens


def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    weights = F.softmax(scores, dim=2)  # the key dim of (B, T, S) only; (B, H, T, S) normalises over queries
    return weights @ v, weights
