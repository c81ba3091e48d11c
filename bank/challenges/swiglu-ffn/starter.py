import torch
import torch.nn as nn


def swiglu_hidden_dim(dim: int, multiple_of: int, ffn_dim_multiplier: float | None = None) -> int:
    raise NotImplementedError


class SwiGLU(nn.Module):
    def __init__(self, dim: int, multiple_of: int = 256, ffn_dim_multiplier: float | None = None):
        super().__init__()
        raise NotImplementedError

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError
