import heapq

import torch


class StreamTopK:
    def __init__(self, k: int):
        raise NotImplementedError

    def push(self, scores: torch.Tensor, ids: torch.Tensor) -> None:
        raise NotImplementedError

    def result(self) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError
