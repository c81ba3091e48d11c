import torch


def chunk_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                    scale: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention of q over one chunk of keys: returns (out, lse)."""
    raise NotImplementedError


def merge_partials(outs: torch.Tensor, lses: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Merge P partial results stacked on dim 0: returns (out, lse)."""
    raise NotImplementedError


def split_kv_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, num_splits: int,
                       scale: float | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    raise NotImplementedError
