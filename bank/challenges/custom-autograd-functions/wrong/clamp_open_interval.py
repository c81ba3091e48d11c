# expect: Wrong Answer
import torch


class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward((x > lo) & (x < hi))  # ends excluded: differs from torch.clamp at lo and hi
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad_out):
        (inside,) = ctx.saved_tensors
        return grad_out * inside, None, None


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        return grad_out * (s + x * s * (1 - s))
