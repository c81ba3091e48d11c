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
        fan_in, fan_out = in_features, out_features
        if init == "kaiming_uniform":
            std = math.sqrt(2.0) / math.sqrt(fan_in)  # ReLU gain sqrt(2), fan_in mode
        elif init == "xavier_uniform":
            std = math.sqrt(2.0 / (fan_in + fan_out))
        else:
            raise ValueError(f"unknown init {init!r}")
        bound = math.sqrt(3.0) * std  # U(-b, b) has variance b^2 / 3
        with torch.no_grad():
            self.weight.uniform_(-bound, bound, generator=generator)
            if self.bias is not None:  # nn.Linear's default bias init: draws from the generator, bias not zero
                b = 1.0 / math.sqrt(fan_in)
                self.bias.uniform_(-b, b, generator=generator)

    def forward(self, x):
        y = x @ self.weight.T
        return y + self.bias if self.bias is not None else y
