# expect: Wrong Answer
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))  # x * Phi(x)
    if approximate == "tanh":
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))
    raise ValueError(f"unknown approximate={approximate!r}")


def silu(x):
    return x * torch.sigmoid(x).detach()  # right value, but the gradient misses x * sigmoid'(x)
