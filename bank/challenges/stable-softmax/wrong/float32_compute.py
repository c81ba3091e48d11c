# expect: Wrong Answer
import torch


def log_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    xf = x.float()  # computed in float32 whatever the input, cast back
    m = xf.amax(dim=dim, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    shifted = xf - m
    return (shifted - shifted.exp().sum(dim=dim, keepdim=True).log()).to(x.dtype)


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    m = x.amax(dim=dim, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = (x.float() - m.float()).exp()
    return (e / e.sum(dim=dim, keepdim=True)).to(x.dtype)
