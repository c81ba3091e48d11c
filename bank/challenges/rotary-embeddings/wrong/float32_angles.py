# expect: Wrong Answer
import torch


def apply_rope(x, offset=0, base=10000.0):
    T, D = x.shape[-2], x.shape[-1]
    half = D // 2
    inv_freq = base ** (-torch.arange(0, half, dtype=torch.float32, device=x.device) * 2 / D)  # float32 angles  # (D/2,)
    pos = torch.arange(offset, offset + T, dtype=torch.float32, device=x.device)  # lose digits at large p  # (T,)
    angles = pos[:, None] * inv_freq[None, :]  # (T, D/2)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1)
