# expect: Runtime Error
import math

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r, alpha):
        super().__init__()
        self.base = base
        self.base.requires_grad_(False)  # freeze weight and bias
        w = base.weight
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=w.dtype, device=w.device))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=w.dtype, device=w.device))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r
        self.merged = False

    def forward(self, x):
        y = self.base(x)
        if not self.merged:
            y = y + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling
        return y

    def merge(self):  # no torch.no_grad(): the merged weight joins the graph and requires grad
        if not self.merged:
            self.base.weight += self.scaling * (self.lora_B @ self.lora_A)
            self.merged = True
