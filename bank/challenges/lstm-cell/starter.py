import torch
import torch.nn as nn


class LSTMCell(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True):
        super().__init__()
        raise NotImplementedError

    def forward(self, x: torch.Tensor,
                state: tuple[torch.Tensor, torch.Tensor] | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError


def lstm_sequence(cell: LSTMCell, xs: torch.Tensor,
                  state: tuple[torch.Tensor, torch.Tensor] | None = None
                  ) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
    raise NotImplementedError
