import torch


class LRUCache:
    def __init__(self, capacity: int):
        raise NotImplementedError

    def get(self, key: int) -> torch.Tensor | None:
        raise NotImplementedError

    def put(self, key: int, value: torch.Tensor) -> None:
        raise NotImplementedError

    def keys(self) -> list[int]:
        raise NotImplementedError
