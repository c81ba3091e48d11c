import torch


def memory_efficient_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, block_size: int,
                               is_causal: bool = False) -> torch.Tensor:
    raise NotImplementedError
