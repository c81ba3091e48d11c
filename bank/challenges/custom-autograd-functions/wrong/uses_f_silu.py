# expect: Rule Violation
import torch
import torch.nn.functional as F


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
        ctx.save_for_backward((x >= lo) & (x <= hi))
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, grad_out):
        (inside,) = ctx.saved_tensors
        return grad_out * inside, None, None


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return F.silu(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():  # lets autograd differentiate the built-in instead of deriving it
            x = x.detach().requires_grad_(True)
            (g,) = torch.autograd.grad(F.silu(x), x, grad_out)
        return g
