import torch


class PagedKVCache:
    def __init__(self, num_blocks: int, block_size: int, num_heads: int, head_dim: int,
                 dtype: torch.dtype = torch.float64):
        raise NotImplementedError

    def num_free_blocks(self) -> int:
        raise NotImplementedError

    def block_table(self, seq_id: int) -> list[int]:
        raise NotImplementedError

    def seq_len(self, seq_id: int) -> int:
        raise NotImplementedError

    def append(self, seq_id: int, k: torch.Tensor, v: torch.Tensor) -> None:
        raise NotImplementedError

    def gather(self, seq_id: int) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError

    def free(self, seq_id: int) -> None:
        raise NotImplementedError


def decode_attention(cache: PagedKVCache, seq_ids: list[int], q: torch.Tensor) -> torch.Tensor:
    raise NotImplementedError
