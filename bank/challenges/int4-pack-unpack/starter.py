import torch


def quantize_int4(w: torch.Tensor, group_size: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    raise NotImplementedError


def pack_int4(q: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError


def unpack_int4(packed: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError


def dequantize_int4(packed: torch.Tensor, scale: torch.Tensor, zero: torch.Tensor, group_size: int) -> torch.Tensor:
    raise NotImplementedError
