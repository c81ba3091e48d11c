# expect: Wrong Answer
import torch.nn.functional as F


def split_heads(x, n_heads):
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).permute(0, 2, 1, 3)


def merge_heads(x):
    B, H, T, Dh = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, T, H * Dh)  # (B, T, Dh, H): features interleaved across heads


def causal_self_attention(x, w_qkv, w_o, n_heads):
    q, k, v = (x @ w_qkv.T).chunk(3, dim=-1)
    q, k, v = split_heads(q, n_heads), split_heads(k, n_heads), split_heads(v, n_heads)
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return merge_heads(out) @ w_o.T
