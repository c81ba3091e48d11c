# expect: Wrong Answer
import torch
import torch.nn.functional as F


def split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(B, T, D) -> (B, H, T, D // H)."""
    B, T, D = x.shape
    return x.reshape(B, n_heads, T, D // n_heads)  # (T, D) memory read as (H, T, Dh)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """(B, H, T, Dh) -> (B, T, H * Dh)."""
    B, H, T, Dh = x.shape
    return x.reshape(B, T, H * Dh)  # inverts the split above: causal, but each head "row" mixes two tokens


def causal_self_attention(x, w_qkv, w_o, n_heads):
    """x (B, T, D), w_qkv (3D, D), w_o (D, D) -> (B, T, D)."""
    q, k, v = (x @ w_qkv.T).chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return merge_heads(out) @ w_o.T
