# expect: Wrong Answer
import math

import torch


def gelu(x, approximate="none"):
    # uses the tanh approximation whatever `approximate` says
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


def silu(x):
    return x * torch.sigmoid(x)
