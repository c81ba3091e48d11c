import torch


def alibi_slopes(n_heads: int) -> torch.Tensor:
    raise NotImplementedError


def alibi_bias(slopes: torch.Tensor, T: int) -> torch.Tensor:
    raise NotImplementedError


def alibi_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError
