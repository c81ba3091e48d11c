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
        fan_in = self.weight.shape[0]  # wrong: that is fan_out for an (out, in) weight
        if init == "kaiming_uniform":
            bound = math.sqrt(6.0 / fan_in)
        else:
            bound = math.sqrt(6.0 / (in_features + out_features))
        with torch.no_grad():
            self.weight.uniform_(-bound, bound, generator=generator)

    def forward(self, x):
        y = x @ self.weight.T
        return y + self.bias if self.bias is not None else y
