# expect: Wrong Answer
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return 0.5 * x * (1.0 + torch.erf(x))  # Phi(x) needs erf(x / sqrt(2))
    if approximate == "tanh":
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))
    raise ValueError(f"unknown approximate={approximate!r}")


def silu(x):
    return x * torch.sigmoid(x)  # torch.sigmoid is stable for large |x|
