import torch


def scaled_dot_product_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                                 attn_mask: torch.Tensor | None = None, is_causal: bool = False,
                                 scale: float | None = None) -> torch.Tensor:
    raise NotImplementedError
