# expect: Wrong Answer
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def silu(x):
    return torch.sigmoid(x)  # forgot to multiply by x
