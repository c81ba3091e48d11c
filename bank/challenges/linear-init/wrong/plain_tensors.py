# expect: Wrong Answer
import math

import torch
import torch.nn as nn


class Linear(nn.Module):
    def __init__(self, in_features, out_features, bias=True, init="kaiming_uniform", generator=None,
                 dtype=torch.float32):
        super().__init__()
        if init == "kaiming_uniform":
            bound = math.sqrt(6.0 / in_features)
        else:
            bound = math.sqrt(6.0 / (in_features + out_features))
        # plain tensors, not nn.Parameter: the module has no parameters for an optimiser to find
        self.weight = torch.empty(out_features, in_features, dtype=dtype).uniform_(-bound, bound, generator=generator)
        self.weight.requires_grad_(True)
        self.bias = torch.zeros(out_features, dtype=dtype, requires_grad=True) if bias else None

    def forward(self, x):
        y = x @ self.weight.T
        return y + self.bias if self.bias is not None else y
