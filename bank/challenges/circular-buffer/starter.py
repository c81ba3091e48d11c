import torch


class RingBuffer:
    def __init__(self, capacity: int, feature_shape: tuple[int, ...], dtype: torch.dtype = torch.float32):
        raise NotImplementedError

    def push(self, batch: torch.Tensor) -> None:
        raise NotImplementedError

    def latest(self) -> torch.Tensor:
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError
