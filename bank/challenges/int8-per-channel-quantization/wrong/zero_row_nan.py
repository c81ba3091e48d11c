# expect: Wrong Answer
# no special case for an all-zero row: scale 0 and NaN before the int8 cast
import torch


def quantize_per_channel(w):
    amax = w.abs().amax(dim=1)  # one scale per output channel (row)
    scale = amax / 127  # 0 for an all-zero row: 0 / 0 = NaN
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)  # round half to even
    return q, scale


def dequantize_per_channel(q, scale):
    return q.to(scale.dtype) * scale[:, None]


def quantized_linear(x, q, scale, bias=None):
    y = x @ dequantize_per_channel(q, scale).T
    return y if bias is None else y + bias
