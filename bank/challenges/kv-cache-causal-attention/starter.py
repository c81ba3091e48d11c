import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int):
        super().__init__()
        raise NotImplementedError

    def reset_cache(self) -> None:
        raise NotImplementedError

    def forward(self, x: torch.Tensor, use_cache: bool = False) -> torch.Tensor:
        raise NotImplementedError
