import torch


def conv_transpose1d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None,
                     stride: int = 1, padding: int = 0, output_padding: int = 0, groups: int = 1,
                     dilation: int = 1) -> torch.Tensor:
    raise NotImplementedError
