# expect: Rule Violation
import torch
import torch.nn as nn


class Linear(nn.Linear):
    def __init__(self, in_features, out_features, bias=True, init="kaiming_uniform", generator=None,
                 dtype=torch.float32):
        super().__init__(in_features, out_features, bias=bias, dtype=dtype)
        with torch.no_grad():
            if bias:
                self.bias.zero_()
            if init == "kaiming_uniform":
                nn.init.kaiming_uniform_(self.weight, nonlinearity="relu", generator=generator)
            else:
                nn.init.xavier_uniform_(self.weight, generator=generator)
