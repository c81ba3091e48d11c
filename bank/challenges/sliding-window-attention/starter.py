import torch


def sliding_window_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, window: int,
                             scale: float | None = None) -> torch.Tensor:
    raise NotImplementedError
