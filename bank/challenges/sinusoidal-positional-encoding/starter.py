import torch


def sinusoidal_table(num_positions: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    raise NotImplementedError


def add_positional_encoding(x: torch.Tensor, start: int = 0, base: float = 10000.0) -> torch.Tensor:
    raise NotImplementedError
