import torch


def bilinear_resize(x: torch.Tensor, size: tuple[int, int], align_corners: bool = False) -> torch.Tensor:
    raise NotImplementedError
