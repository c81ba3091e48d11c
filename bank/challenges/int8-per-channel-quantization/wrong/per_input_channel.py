# expect: Wrong Answer
# reduces over the wrong dimension (a scale per input column, used as if per row)
import torch


def quantize_per_channel(w):
    amax = w.abs().amax(dim=0)  # reduces over the rows: one scale per input column
    scale = torch.where(amax > 0, amax / 127, torch.ones_like(amax))  # an all-zero row gets scale 1
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)  # round half to even
    return q, scale


def dequantize_per_channel(q, scale):
    return q.to(scale.dtype) * scale[:, None]


def quantized_linear(x, q, scale, bias=None):
    y = x @ dequantize_per_channel(q, scale).T
    return y if bias is None else y + bias
