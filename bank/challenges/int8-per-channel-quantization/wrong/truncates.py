# expect: Wrong Answer
# casts to int8 without rounding: truncation toward zero, error up to a full step
import torch


def quantize_per_channel(w):
    amax = w.abs().amax(dim=1)  # one scale per output channel (row)
    scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))  # an all-zero row gets scale 1
    q = (w / scale[:, None]).clamp(-127, 127).to(torch.int8)  # the cast truncates toward zero  # round half to even
    return q, scale


def dequantize_per_channel(q, scale):
    return q.to(scale.dtype) * scale[:, None]


def quantized_linear(x, q, scale, bias=None):
    y = x @ dequantize_per_channel(q, scale).T
    return y if bias is None else y + bias
