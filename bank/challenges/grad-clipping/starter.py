import torch


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0) -> torch.Tensor:
    raise NotImplementedError


def clip_grad_value_(parameters, clip_value: float) -> None:
    raise NotImplementedError
