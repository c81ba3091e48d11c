import torch
import torch.nn as nn


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, fused: bool = True):
        super().__init__()
        raise NotImplementedError

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                key_padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        raise NotImplementedError
