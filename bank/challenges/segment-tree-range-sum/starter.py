import torch


class SegmentTree:
    def __init__(self, values: torch.Tensor):
        raise NotImplementedError

    def update(self, i: int, v: float) -> None:
        raise NotImplementedError

    def query(self, l: int, r: int) -> float:
        raise NotImplementedError
