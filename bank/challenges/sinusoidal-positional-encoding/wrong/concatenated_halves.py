# expect: Wrong Answer
import torch


def sinusoidal_table(num_positions, d_model, base=10000.0):
    # [sin ... sin | cos ... cos] instead of interleaving sin and cos column by column
    pos = torch.arange(num_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = pos / base ** (two_i / d_model)
    return torch.cat([torch.sin(angle), torch.cos(angle[:, : d_model // 2])], dim=1)


def add_positional_encoding(x, start=0, base=10000.0):
    t, d = x.shape[-2:]
    return x + sinusoidal_table(start + t, d, base)[start:].to(x.dtype)
