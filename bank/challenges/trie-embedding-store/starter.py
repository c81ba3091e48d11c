import torch


class TrieEmbeddingStore:
    def __init__(self, dim: int):
        raise NotImplementedError

    def insert(self, key: str, embedding: torch.Tensor) -> None:
        raise NotImplementedError

    def get(self, key: str) -> torch.Tensor | None:
        raise NotImplementedError

    def prefix_search(self, prefix: str) -> tuple[list[str], torch.Tensor]:
        raise NotImplementedError
