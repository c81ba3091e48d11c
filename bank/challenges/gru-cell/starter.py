import torch
import torch.nn as nn


class GRUCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        raise NotImplementedError

    def forward(self, x: torch.Tensor, h: torch.Tensor | None = None) -> torch.Tensor:
        raise NotImplementedError


def gru_sequence(cell: GRUCell, xs: torch.Tensor, h: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    raise NotImplementedError
