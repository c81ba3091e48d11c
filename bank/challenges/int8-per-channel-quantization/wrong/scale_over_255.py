# expect: Wrong Answer
# divides by 255 (the uint8 range) and then clamps at 127: every large weight saturates
import torch


def quantize_per_channel(w):
    amax = w.abs().amax(dim=1)  # one scale per output channel (row)
    scale = torch.where(amax > 0, amax / 255, torch.ones_like(amax))  # 255 levels, as for uint8  # an all-zero row gets scale 1
    q = torch.round(w / scale[:, None]).clamp(-127, 127).to(torch.int8)  # round half to even
    return q, scale


def dequantize_per_channel(q, scale):
    return q.to(scale.dtype) * scale[:, None]


def quantized_linear(x, q, scale, bias=None):
    y = x @ dequantize_per_channel(q, scale).T
    return y if bias is None else y + bias
