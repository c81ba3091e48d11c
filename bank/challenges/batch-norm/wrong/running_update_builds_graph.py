# expect: Wrong Answer
import torch
import torch.nn as nn


class BatchNorm1d(nn.Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = nn.Parameter(torch.ones(num_features))
        self.bias = nn.Parameter(torch.zeros(num_features))
        self.register_buffer("running_mean", torch.zeros(num_features))
        self.register_buffer("running_var", torch.ones(num_features))

    def forward(self, x):
        dims = (0,) if x.dim() == 2 else (0, 2)
        shape = (1, -1) if x.dim() == 2 else (1, -1, 1)
        if self.training:
            mean = x.mean(dim=dims)
            var = (x - mean.view(shape)).pow(2).mean(dim=dims)
            n = x.numel() // x.shape[1]
            m = self.momentum
            # no torch.no_grad() and no detach: the buffers join the autograd graph of every batch
            self.running_mean = (1 - m) * self.running_mean + m * mean
            with torch.no_grad():
                self.running_var.mul_(1 - m).add_(m * var * n / (n - 1))
        else:
            mean, var = self.running_mean, self.running_var
        xhat = (x - mean.view(shape)) / torch.sqrt(var.view(shape) + self.eps)
        return xhat * self.weight.view(shape) + self.bias.view(shape)
