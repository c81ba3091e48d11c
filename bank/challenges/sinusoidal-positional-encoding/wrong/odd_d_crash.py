# expect: Runtime Error
import torch


def sinusoidal_table(num_positions, d_model, base=10000.0):
    pos = torch.arange(num_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    angle = pos / base ** (two_i / d_model)
    pe = torch.zeros(num_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)  # shape mismatch when d_model is odd
    return pe


def add_positional_encoding(x, start=0, base=10000.0):
    t, d = x.shape[-2:]
    return x + sinusoidal_table(start + t, d, base)[start:].to(x.dtype)
