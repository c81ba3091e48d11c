# expect: Wrong Answer
import torch


def apply_rope(x, offset=0, base=10000.0):
    # adds a sinusoidal position vector instead of rotating: scores are no longer relative
    T, D = x.shape[-2], x.shape[-1]
    half = D // 2
    inv_freq = base ** (-torch.arange(0, half, dtype=torch.float64) * 2 / D)
    pos = torch.arange(offset, offset + T, dtype=torch.float64)
    angles = pos[:, None] * inv_freq[None, :]
    return x + torch.cat([angles.sin(), angles.cos()], dim=-1).to(x.dtype)
