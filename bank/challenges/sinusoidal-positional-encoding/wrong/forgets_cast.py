# expect: Wrong Answer
import torch


def sinusoidal_table(num_positions, d_model, base=10000.0):
    pos = torch.arange(num_positions, dtype=torch.float64)[:, None]
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # 0, 2, 4, ...: one entry per sin/cos pair
    angle = pos / base ** (two_i / d_model)  # (P, ceil(d / 2))
    pe = torch.zeros(num_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])  # odd d_model: the last sine has no cosine
    return pe


def add_positional_encoding(x, start=0, base=10000.0):
    t, d = x.shape[-2:]
    pe = sinusoidal_table(start + t, d, base)[start:]
    return x + pe  # float32 x + float64 table promotes to float64
