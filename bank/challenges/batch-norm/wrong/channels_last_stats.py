# expect: Runtime Error
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
        # statistics over every dim but the LAST: right for (N, C), wrong for (N, C, L)
        dims = tuple(range(x.dim() - 1))
        shape = (1,) * (x.dim() - 1) + (-1,)
        if self.training:
            mean = x.mean(dim=dims)
            var = (x - mean.view(shape)).pow(2).mean(dim=dims)
            n = x.numel() // x.shape[-1]
            with torch.no_grad():
                m = self.momentum
                self.running_mean.mul_(1 - m).add_(m * mean)
                self.running_var.mul_(1 - m).add_(m * var * n / (n - 1))
        else:
            mean, var = self.running_mean, self.running_var
        xhat = (x - mean.view(shape)) / torch.sqrt(var.view(shape) + self.eps)
        return xhat * self.weight.view(shape) + self.bias.view(shape)
