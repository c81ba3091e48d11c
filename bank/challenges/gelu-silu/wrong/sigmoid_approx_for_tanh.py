# expect: Wrong Answer
import math

import torch


def gelu(x, approximate="none"):
    if approximate == "none":
        return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))  # x * Phi(x)
    if approximate == "tanh":
        return x * torch.sigmoid(1.702 * x)  # the sigmoid approximation, not the tanh one
    raise ValueError(f"unknown approximate={approximate!r}")


def silu(x):
    return x * torch.sigmoid(x)  # torch.sigmoid is stable for large |x|
