# expect: Wrong Answer
import torch


def sinusoidal_table(num_positions, d_model, base=10000.0):
    pos = torch.arange(num_positions, dtype=torch.float64)[:, None]
    i = torch.arange((d_model + 1) // 2, dtype=torch.float64)
    angle = pos / base ** (i / d_model)  # i / d instead of 2i / d: frequencies decay half as fast
    pe = torch.zeros(num_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe


def add_positional_encoding(x, start=0, base=10000.0):
    t, d = x.shape[-2:]
    return x + sinusoidal_table(start + t, d, base)[start:].to(x.dtype)
