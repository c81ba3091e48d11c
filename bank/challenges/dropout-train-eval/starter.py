import torch


def dropout(x: torch.Tensor, p: float = 0.5, training: bool = True) -> torch.Tensor:
    raise NotImplementedError
