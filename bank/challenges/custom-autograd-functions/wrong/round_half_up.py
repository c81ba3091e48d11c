# expect: Wrong Answer
import torch


class RoundSTE(torch.autograd.Function):
    """round() forward; identity backward (the straight-through estimator)."""

    @staticmethod
    def forward(ctx, x):
        return torch.floor(x + 0.5)  # rounds halves up, not to even

    @staticmethod
    def backward(ctx, grad_out):
        return grad_out  # pretend round was the identity: d round / dx = 0 almost everywhere would stop learning


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward((x >= lo) & (x <= hi))  # the gradient passes inside [lo, hi], ends included
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad_out):
        (inside,) = ctx.saved_tensors
        return grad_out * inside, None, None  # one gradient per forward input; lo and hi get None


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, grad_out):
        x, s = ctx.saved_tensors
        return grad_out * (s + x * s * (1 - s))  # product rule: d(x s)/dx = s + x s'
