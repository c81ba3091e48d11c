# expect: Wrong Answer
import math

import torch
import torch.nn as nn


class Linear(nn.Module):
    def __init__(self, in_features, out_features, bias=True, init="kaiming_uniform", generator=None,
                 dtype=torch.float32):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features, dtype=dtype))
        self.bias = nn.Parameter(torch.zeros(out_features, dtype=dtype)) if bias else None
        if init == "kaiming_uniform":
            std = math.sqrt(2.0 / in_features)
        else:
            std = math.sqrt(2.0 / (in_features + out_features))
        with torch.no_grad():
            self.weight.uniform_(-std, std, generator=generator)  # the std is not the uniform bound

    def forward(self, x):
        y = x @ self.weight.T
        return y + self.bias if self.bias is not None else y
