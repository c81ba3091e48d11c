# expect: Wrong Answer
import torch


def log_softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    m = x.amax(dim=dim, keepdim=True).detach()
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))  # all -inf row: keep NaN/-inf semantics
    shifted = x - m
    return shifted - shifted.exp().sum(dim=dim, keepdim=True).log()


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    m = x.max().detach()  # one max for the whole tensor: rows far below it underflow to 0/0
    m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    e = (x - m).exp()
    return e / e.sum(dim=dim, keepdim=True)
